/// Per-controller values of a monitor, flat: a buffer indexed by serial for the small serials a trace hands out
/// (the recorder and the importer count from 1), a `SerialMap` for the others, so a stray huge serial (a JSON
/// Lines input may name any) costs one entry, not a buffer that long.
///
/// Every serial has a value: `empty` until it is set. Reading and setting a serial below the buffer's length is
/// a load or a store: the buffer is manually allocated (no copy-on-write check, no accessor coroutine, whose
/// frame `_modify` allocated per call), so a `SerialTable` is a class, owned by one monitor. The buffer grows (at
/// least doubling, up to `serial + 1`) when a serial below twice its length (or below 1 024) is first set.
/// Not thread-safe.
final class SerialTable<Value: Equatable> {
    /// Values by serial, below `capacity` (all initialized).
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<Value>
    @exclusivity(unchecked) private var capacity = 0
    /// Values of serials at or above `capacity` that are not `empty`.
    @exclusivity(unchecked) private var sparse = SerialMap<Value>()
    /// The value of a serial never set.
    let empty: Value

    init(empty: Value) {
        self.empty = empty
        storage = .allocate(capacity: 1)
    }

    deinit {
        storage.deinitialize(count: capacity)
        storage.deallocate()
    }

    /// The value of `serial`.
    subscript(serial: UInt32) -> Value {
        @inline(__always)
        get {
            let index = Int(serial)
            if index < capacity { return storage[index] }
            if sparse.isEmpty { return empty }
            return sparse[serial] ?? empty
        }
        @inline(__always)
        set {
            let index = Int(serial)
            if index < capacity {
                storage[index] = newValue
            } else {
                setOutside(serial, newValue)
            }
        }
    }

    /// `body` applied to the value of `serial`, lent in place rather than copied out.
    @inline(__always)
    func withValue<R>(of serial: UInt32, _ body: (Value) -> R) -> R {
        let index = Int(serial)
        if index < capacity { return body(storage[index]) }
        return body(self[serial])
    }

    /// Sets a serial at or above `capacity`: grows the buffer to hold it when it is small enough, else keeps it in
    /// `sparse`.
    private func setOutside(_ serial: UInt32, _ value: Value) {
        let index = Int(serial)
        let limit = Swift.max(1_024, capacity * 2)
        guard index < limit else {
            sparse[serial] = value == empty ? nil : value
            return
        }
        let count = Swift.min(limit, Swift.max(index + 1, capacity * 2, 64))
        let grown = UnsafeMutablePointer<Value>.allocate(capacity: count)
        grown.moveInitialize(from: storage, count: capacity)
        (grown + capacity).initialize(repeating: empty, count: count - capacity)
        storage.deallocate()
        storage = grown
        capacity = count
        if !sparse.isEmpty {
            for moved in sparse.keys where Int(moved) < count {
                storage[Int(moved)] = sparse[moved]!
                sparse[moved] = nil
            }
        }
        storage[index] = value
    }
}
