/// A hash map keyed by controller serial (`ControllerRef.serial`), for monitors' per-controller state.
///
/// `Dictionary<UInt32, _>` hashes every key with SipHash (≈ 100 instructions a lookup, 3 % of an audit's
/// instructions before this type); serials are small distinct integers, so a multiplicative (Fibonacci) hash into
/// an open-addressed table with linear probing is enough. Entries are stored densely in insertion order (a
/// removal moves the last entry into the hole), so iteration order depends only on the operations, never on a
/// per-process hash seed.
///
/// Not thread-safe; a value type with copy-on-write arrays, like `Dictionary`.
struct SerialMap<Value> {
    /// The keys, in storage order (`values[i]` belongs to `keys[i]`).
    private(set) var keys: [UInt32] = []
    /// The values, in storage order.
    private(set) var values: [Value] = []
    /// Positions in `keys`/`values`, or -1 for an empty bucket; the count is a power of two (or 0).
    private var buckets: [Int32] = []
    /// `64 - log2(buckets.count)`: the hash is the top bits of the key times the golden ratio.
    private var shift: UInt64 = 64

    init() {}

    var count: Int { keys.count }
    var isEmpty: Bool { keys.isEmpty }

    @inline(__always)
    private func home(of key: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The storage position of `key`, or `nil`.
    @inline(__always)
    func position(of key: UInt32) -> Int? {
        guard !keys.isEmpty else { return nil }
        let mask = buckets.count - 1
        var bucket = home(of: key)
        while true {
            let position = Int(buckets[bucket])
            if position < 0 { return nil }
            if keys[position] == key { return position }
            bucket = (bucket + 1) & mask
        }
    }

    func contains(_ key: UInt32) -> Bool { position(of: key) != nil }

    /// The value at a storage position (`position(of:)`), to read or change in place.
    subscript(at position: Int) -> Value {
        get { values[position] }
        _modify { yield &values[position] }
    }

    subscript(key: UInt32) -> Value? {
        get {
            guard let position = position(of: key) else { return nil }
            return values[position]
        }
        set {
            if let newValue {
                if let position = position(of: key) {
                    values[position] = newValue
                } else {
                    insertNew(key, newValue)
                }
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// The value of `key`, inserting `defaultValue()` first when there is none; changed in place.
    subscript(key: UInt32, default defaultValue: @autoclosure () -> Value) -> Value {
        get { self[key] ?? defaultValue() }
        _modify {
            let position = position(of: key) ?? insertNew(key, defaultValue())
            yield &values[position]
        }
    }

    /// The storage position of `key`, inserting `value()` first when there is none.
    @inline(__always)
    mutating func position(of key: UInt32, inserting value: @autoclosure () -> Value) -> Int {
        position(of: key) ?? insertNew(key, value())
    }

    /// Adds `value` for `key` unless `key` has a value already (which is kept).
    @inline(__always)
    mutating func insertIfAbsent(_ key: UInt32, _ value: @autoclosure () -> Value) {
        if position(of: key) == nil { insertNew(key, value()) }
    }

    /// Calls `body` with the value at a storage position (`position(of:)`) to change in place.
    @inline(__always)
    mutating func update<Result>(at position: Int, _ body: (inout Value) -> Result) -> Result {
        body(&values[position])
    }

    /// Inserts `key` (not present) and returns its position.
    @discardableResult
    private mutating func insertNew(_ key: UInt32, _ value: Value) -> Int {
        if (keys.count + 1) * 2 > buckets.count { grow() }
        let position = keys.count
        keys.append(key)
        values.append(value)
        place(key, at: position)
        return position
    }

    private mutating func place(_ key: UInt32, at position: Int) {
        let mask = buckets.count - 1
        var bucket = home(of: key)
        while buckets[bucket] >= 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = Int32(position)
    }

    private mutating func grow() {
        let count = max(16, buckets.count * 2)
        shift = UInt64(64 - count.trailingZeroBitCount)
        buckets = [Int32](repeating: -1, count: count)
        for position in keys.indices { place(keys[position], at: position) }
    }

    /// The bucket holding `position`.
    private func bucket(holding position: Int) -> Int {
        let mask = buckets.count - 1
        var bucket = home(of: keys[position])
        while Int(buckets[bucket]) != position { bucket = (bucket + 1) & mask }
        return bucket
    }

    @discardableResult
    mutating func removeValue(forKey key: UInt32) -> Value? {
        guard let position = position(of: key) else { return nil }
        let mask = buckets.count - 1
        // Backward-shift deletion: later entries of the probe run move up into the hole, so lookups need no
        // tombstones.
        var hole = bucket(holding: position)
        var next = (hole + 1) & mask
        while buckets[next] >= 0 {
            let wanted = home(of: keys[Int(buckets[next])])
            // Move the entry at `next` into the hole unless its home lies cyclically in (hole, next].
            if (next > hole && (wanted <= hole || wanted > next)) || (next < hole && (wanted <= hole && wanted > next)) {
                buckets[hole] = buckets[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        buckets[hole] = -1
        // Keep storage dense: the last entry moves into the removed one's position.
        let last = keys.count - 1
        if position != last {
            buckets[bucket(holding: last)] = Int32(position)
            keys.swapAt(position, last)
            values.swapAt(position, last)
        }
        keys.removeLast()
        return values.removeLast()
    }

    mutating func removeAll() {
        keys.removeAll()
        values.removeAll()
        buckets.removeAll()
        shift = 64
    }
}

extension SerialMap where Value == Void {
    /// Adds `key` to the set; `false` when it was there already.
    @discardableResult
    mutating func insert(_ key: UInt32) -> Bool {
        guard position(of: key) == nil else { return false }
        insertNew(key, ())
        return true
    }

    mutating func remove(_ key: UInt32) {
        removeValue(forKey: key)
    }
}
