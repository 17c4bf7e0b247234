/// The monitors to call per key (a callback's `CallbackSet` bit, a container operation, an app transition and phase, a
/// mark name's code), flattened: the monitors for key `k` are `targets[start[k]..<start[k + 1]]`, in registry
/// order. Built once per session; a key no monitor wants costs one comparison.
///
/// The storage is manually allocated (`deallocate()` when the owning session goes away) and the monitors are held
/// unmanaged (`MonitorRef`), so reading the table costs no reference counting: an array of references read per
/// event retained and released its buffer each time.
struct DispatchTable {
    private let start: UnsafeMutablePointer<Int32>
    private let targets: UnsafeMutablePointer<MonitorRef>

    /// A table of `keys` keys holding, for key `k`, the `monitors` for which `wants(monitor, k)` holds.
    init(keys: Int, _ monitors: [MonitorBox], wants: (any RuleMonitor, Int) -> Bool) {
        self.init(keys: keys, monitors, wantsAt: { index, key in wants(monitors[index].monitor, key) })
    }

    /// A table of `keys` keys holding, for key `k`, the monitors whose box `wantsBox(box, k)` holds.
    init(keys: Int, boxes monitors: [MonitorBox], wantsBox wants: (MonitorBox, Int) -> Bool) {
        self.init(keys: keys, monitors, wantsAt: { index, key in wants(monitors[index], key) })
    }

    /// A table of `keys` keys holding, for key `k`, the `monitors` at the indices `i` for which `wants(i, k)` holds
    /// (a caller that read each monitor's filters once tests them by index).
    init(keys: Int, _ monitors: [MonitorBox], wantsAt wants: (Int, Int) -> Bool) {
        var starts: [Int32] = []
        var refs: [MonitorRef] = []
        starts.reserveCapacity(keys + 1)
        for key in 0..<keys {
            starts.append(Int32(refs.count))
            for index in monitors.indices where wants(index, key) { refs.append(MonitorRef(monitors[index])) }
        }
        starts.append(Int32(refs.count))
        start = .allocate(capacity: starts.count)
        start.initialize(from: starts, count: starts.count)
        targets = .allocate(capacity: max(1, refs.count))
        targets.initialize(from: refs, count: refs.count)
    }

    /// Frees the storage; the table must not be used after.
    func deallocate() {
        start.deallocate()
        targets.deallocate()
    }

    /// Whether no monitor wants `key`.
    @inline(__always)
    func isEmpty(_ key: Int) -> Bool {
        start[key] == start[key &+ 1]
    }

    /// The positions of `key`'s monitors (`self[position]`).
    @inline(__always)
    func positions(_ key: Int) -> Range<Int> {
        Int(start[key])..<Int(start[key &+ 1])
    }

    @inline(__always)
    subscript(position: Int) -> MonitorRef {
        targets[position]
    }
}
