/// Per-controller values of a monitor, flat over a window of recent serials and bounded by the controllers that
/// hold a value: every serial has a value, `empty` until set (and again once set back to `empty`).
///
/// Traces hand out serials in increasing order (the recorder and the importer count from 1) and most controllers
/// live briefly, so the values of the serials `base ..< base + capacity` are kept in a buffer indexed by
/// `serial - base` (a load or a store: manually allocated, no copy-on-write check, no accessor coroutine), and the
/// rest in a `SerialMap` (`spilled`, only serials below `base`, only values that are not `empty`). Setting a serial
/// above the window moves the window up: when at most half the buffer holds values it slides (the serials it
/// leaves behind that hold a value move to `spilled`: the long-lived controllers, a window's root say), else it
/// doubles. So memory is bounded by the controllers holding a value, not by the serials a trace ever handed out
/// (10^7 events create ≈ 10^5 controllers, ≈ 50 of them alive at a time), and a stray huge serial (a JSON Lines
/// input may name any) costs a slide, not a buffer that long.
///
/// Not copyable (it owns its buffer; a struct, so that using it needs no generic class metadata made at run time,
/// ≈ 400 000 instructions at the first audit); not thread-safe.
struct SerialWindow<Value: Equatable>: ~Copyable {
    /// Values of `base ..< base + capacity` (all initialized; `capacity` a power of two).
    private var storage: UnsafeMutablePointer<Value>
    private(set) var base: UInt32 = 0
    private(set) var capacity: Int
    /// How many values in the buffer are not `empty`.
    private(set) var held = 0
    /// The values that are not `empty` of serials below `base`.
    private var spilled = SerialMap<Value>()
    /// The value of a serial never set.
    let empty: Value

    init(empty: Value, capacity: Int = 64) {
        self.empty = empty
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
        storage.initialize(repeating: empty, count: capacity)
    }

    deinit {
        storage.deinitialize(count: capacity)
        storage.deallocate()
    }

    /// How many serials hold a value that is not `empty`.
    var count: Int { held + spilled.count }

    /// The value of `serial`.
    subscript(serial: UInt32) -> Value {
        @inline(__always)
        get {
            let offset = Int(truncatingIfNeeded: serial &- base)
            if serial >= base, offset < capacity { return storage[offset] }
            if spilled.isEmpty { return empty }
            return spilled[serial] ?? empty
        }
        @inline(__always)
        set {
            let offset = Int(truncatingIfNeeded: serial &- base)
            if serial >= base, offset < capacity {
                let wasEmpty = storage[offset] == empty
                let isEmpty = newValue == empty
                if wasEmpty != isEmpty { held += isEmpty ? -1 : 1 }
                storage[offset] = newValue
            } else {
                setOutside(serial, newValue)
            }
        }
    }

    /// Sets a serial outside the window: below it in `spilled`; above it, after moving the window up to hold it.
    private mutating func setOutside(_ serial: UInt32, _ value: Value) {
        if serial < base {
            if value == empty { spilled.removeValue(forKey: serial) } else { spilled[serial] = value }
            return
        }
        if value == empty { return }
        while Int(serial &- base) >= capacity {
            if held * 2 > capacity {
                grow()
            } else {
                // Slide so that `serial` lands in the lower half of the window: room above it for the next ones.
                slide(to: serial &- UInt32(min(Int(serial &- base), capacity / 4)))
            }
        }
        self[serial] = value
    }

    /// Doubles the buffer (same base).
    private mutating func grow() {
        let count = capacity * 2
        let grown = UnsafeMutablePointer<Value>.allocate(capacity: count)
        grown.moveInitialize(from: storage, count: capacity)
        (grown + capacity).initialize(repeating: empty, count: count - capacity)
        storage.deallocate()
        storage = grown
        capacity = count
    }

    /// Moves the window's base up to `newBase`: the values left below it that are not `empty` move to `spilled`.
    private mutating func slide(to newBase: UInt32) {
        let shift = Int(newBase &- base)
        let leaving = min(shift, capacity)
        for offset in 0..<leaving where storage[offset] != empty {
            spilled[base &+ UInt32(offset)] = storage[offset]
            held -= 1
        }
        if shift < capacity {
            (storage).update(from: storage + shift, count: capacity - shift)
            (storage + (capacity - shift)).update(repeating: empty, count: shift)
        } else {
            storage.update(repeating: empty, count: capacity)
        }
        base = newBase
    }
}
