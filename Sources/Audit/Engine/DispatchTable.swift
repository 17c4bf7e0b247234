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
    /// Per key, 1 when one of its monitors scans (`MonitorRef.scanner`): the session lends such a monitor its
    /// callbacks before it calls it, and skips the test for the other keys.
    private let scanning: UnsafeMutablePointer<UInt8>

    /// A table of `keys` keys holding, for key `k`, the `monitors` for which `wants(monitor, k)` holds (events of
    /// kind `kind`: a scanner whose `RuleMonitor.scanIndependentRecords` holds it is called without a lend first).
    init(keys: Int, _ monitors: [MonitorBox], kind: EventInterests = [], wants: (any RuleMonitor, Int) -> Bool) {
        self.init(keys: keys, monitors, kind: kind, wantsAt: { index, key in wants(monitors[index].monitor, key) })
    }

    /// A table of `keys` keys holding, for key `k`, the monitors whose box `wantsBox(box, k)` holds.
    init(keys: Int, boxes monitors: [MonitorBox], wantsBox wants: (MonitorBox, Int) -> Bool) {
        self.init(keys: keys, monitors, wantsAt: { index, key in wants(monitors[index], key) })
    }

    /// A table of `keys` keys holding, for key `k`, the `monitors` at the indices `i` for which `wants(i, k)` holds
    /// (a caller that read each monitor's filters once tests them by index).
    init(keys: Int, _ monitors: [MonitorBox], kind: EventInterests = [], wantsAt wants: (Int, Int) -> Bool) {
        var starts: [Int32] = []
        var refs: [MonitorRef] = []
        starts.reserveCapacity(keys + 1)
        scanning = .allocate(capacity: max(1, keys))
        scanning.initialize(repeating: 0, count: max(1, keys))
        for key in 0..<keys {
            starts.append(Int32(refs.count))
            for index in monitors.indices where wants(index, key) {
                let ref = MonitorRef(monitors[index], lends: kind.isEmpty || !monitors[index].scanIndependentRecords.contains(kind))
                refs.append(ref)
                if ref.scanner >= 0 { scanning[key] = 1 }
            }
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
        scanning.deallocate()
    }

    /// Whether one of `key`'s monitors scans.
    @inline(__always)
    func hasScanner(_ key: Int) -> Bool {
        scanning[key] != 0
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
