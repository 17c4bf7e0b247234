/// The monitors to call per key (a callback and phase, a container operation, an app transition and phase, a
/// mark name's code), flattened: the monitors for key `k` are `targets[start[k]..<start[k + 1]]`, in registry
/// order. Built once per session; a key no monitor wants costs one comparison.
struct DispatchTable {
    private let start: [Int]
    private let targets: [MonitorRef]

    /// A table of `keys` keys holding, for key `k`, the `monitors` for which `wants(monitor, k)` holds.
    init(keys: Int, _ monitors: [any RuleMonitor], wants: (any RuleMonitor, Int) -> Bool) {
        var start: [Int] = []
        var targets: [MonitorRef] = []
        start.reserveCapacity(keys + 1)
        for key in 0..<keys {
            start.append(targets.count)
            targets += monitors.filter { wants($0, key) }.map(MonitorRef.init)
        }
        start.append(targets.count)
        self.start = start
        self.targets = targets
    }

    /// Whether no monitor wants `key`.
    @inline(__always)
    func isEmpty(_ key: Int) -> Bool {
        start[key] == start[key &+ 1]
    }

    /// The positions of `key`'s monitors (`self[position]`).
    @inline(__always)
    func positions(_ key: Int) -> Range<Int> {
        start[key]..<start[key &+ 1]
    }

    @inline(__always)
    subscript(position: Int) -> MonitorRef {
        targets[position]
    }
}
