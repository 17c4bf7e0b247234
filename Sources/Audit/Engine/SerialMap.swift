/// A hash map keyed by controller serial (`ControllerRef.serial`), for monitors' per-controller state.
///
/// `Dictionary<UInt32, _>` hashes every key with SipHash (≈ 100 instructions a lookup, 3 % of an audit's
/// instructions before this type); serials are small distinct integers, so a multiplicative (Fibonacci) hash into
/// an open-addressed table with linear probing is enough. Entries are stored densely in insertion order (a
/// removal moves the last entry into the hole), so iteration order depends only on the operations, never on a
/// per-process hash seed.
///
/// The keys, values and buckets live in one manually allocated `Storage` (one copy-on-write check per change;
/// three arrays cost five or six uniqueness checks and as many bounds checks per removal, ≈ 200 instructions).
///
/// Not thread-safe; a value type with copy-on-write storage, like `Dictionary`.
struct SerialMap<Value> {
    /// The entries and the hash table, shared between copies until one of them changes (`makeUnique()`).
    private var storage: Storage

    init() {
        storage = Storage(capacity: 0, bucketCount: 0)
    }

    var count: Int { storage.count }
    var isEmpty: Bool { storage.count == 0 }

    /// The keys, in storage order (`values[i]` belongs to `keys[i]`); an array made per read.
    var keys: [UInt32] { Array(UnsafeBufferPointer(start: storage.keys, count: storage.count)) }

    /// The values, in storage order; an array made per read.
    var values: [Value] { Array(UnsafeBufferPointer(start: storage.values, count: storage.count)) }

    /// The storage position of `key`, or `nil`.
    @inline(__always)
    func position(of key: UInt32) -> Int? {
        storage.position(of: key)
    }

    /// The key at a storage position (below `count`): with `self[at:]`, iterates the map in storage order without
    /// making the `keys` and `values` arrays.
    func key(at position: Int) -> UInt32 {
        precondition(position >= 0 && position < storage.count, "SerialMap position out of range")
        return storage.keys[position]
    }

    @inline(__always)
    func contains(_ key: UInt32) -> Bool { storage.position(of: key) != nil }

    /// The value at a storage position (`position(of:)`), to read or change in place.
    subscript(at position: Int) -> Value {
        // Read in place (a `get` copied the whole value out, a retain and release of each of its references,
        // to read one field of it).
        _read {
            precondition(position >= 0 && position < storage.count, "SerialMap position out of range")
            yield storage.values[position]
        }
        _modify {
            precondition(position >= 0 && position < storage.count, "SerialMap position out of range")
            makeUnique()
            yield &storage.values[position]
        }
    }

    subscript(key: UInt32) -> Value? {
        get {
            guard let position = storage.position(of: key) else { return nil }
            return storage.values[position]
        }
        set {
            if let newValue {
                if let position = storage.position(of: key) {
                    makeUnique()
                    storage.values[position] = newValue
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
            let position = storage.position(of: key) ?? insertNew(key, defaultValue())
            makeUnique()
            yield &storage.values[position]
        }
    }

    /// The storage position of `key`, inserting `value()` first when there is none.
    @inline(__always)
    mutating func position(of key: UInt32, inserting value: @autoclosure () -> Value) -> Int {
        storage.position(of: key) ?? insertNew(key, value())
    }

    /// Adds `value` for `key` unless `key` has a value already (which is kept).
    @inline(__always)
    mutating func insertIfAbsent(_ key: UInt32, _ value: @autoclosure () -> Value) {
        if storage.position(of: key) == nil { insertNew(key, value()) }
    }

    /// Inserts `value` for `key`, which has no value (checked only in debug builds), and returns its storage
    /// position (the last: `count - 1` after the call). One table probe, no optional value made or destroyed.
    @discardableResult
    mutating func insertAbsent(_ key: UInt32, _ value: consuming Value) -> Int {
        assert(storage.position(of: key) == nil, "SerialMap.insertAbsent: the key has a value")
        return insertNew(key, value)
    }

    /// Removes the entry at a storage position (`position(of:)`), destroying its value in place (no optional value
    /// made); the last entry moves into it.
    mutating func remove(at position: Int) {
        precondition(position >= 0 && position < storage.count, "SerialMap position out of range")
        makeUnique()
        storage.discard(at: position)
    }

    /// Calls `body` with the value at a storage position (`position(of:)`) to change in place.
    @inline(__always)
    mutating func update<Result>(at position: Int, _ body: (inout Value) -> Result) -> Result {
        body(&self[at: position])
    }

    /// Gives this map storage of its own before a change, when a copy of the map shares it.
    @inline(__always)
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy(capacity: storage.capacity, bucketCount: storage.bucketCount) }
    }

    /// Inserts `key` (not present) and returns its position.
    @discardableResult
    private mutating func insertNew(_ key: UInt32, _ value: consuming Value) -> Int {
        let count = storage.count
        if (count + 1) * 2 > storage.bucketCount {
            // A bigger table (rehashed by position, as before) and room for the entries.
            let capacity = count == storage.capacity ? Swift.max(8, count * 2) : storage.capacity
            storage = storage.copy(capacity: capacity, bucketCount: Swift.max(16, storage.bucketCount * 2))
        } else if count == storage.capacity {
            storage = storage.copy(capacity: count * 2, bucketCount: storage.bucketCount)
        } else {
            makeUnique()
        }
        storage.keys[count] = key
        (storage.values + count).initialize(to: value)
        storage.count = count + 1
        storage.place(key, at: count)
        return count
    }

    /// Removes the value of `key`, returning it (`nil` when there was none).
    @discardableResult
    mutating func removeValue(forKey key: UInt32) -> Value? {
        guard let position = storage.position(of: key) else { return nil }
        makeUnique()
        return storage.remove(at: position)
    }

    mutating func removeAll() {
        storage = Storage(capacity: 0, bucketCount: 0)
    }

    /// The entries (`keys`, `values`: `count` initialized, room for `capacity`) and the open-addressed table of their
    /// positions (`buckets`: `bucketCount` of them, a power of two or 0, -1 for empty), manually allocated.
    final class Storage {
        let keys: UnsafeMutablePointer<UInt32>
        let values: UnsafeMutablePointer<Value>
        let buckets: UnsafeMutablePointer<Int32>
        let capacity: Int
        let bucketCount: Int
        /// `64 - log2(bucketCount)`: the hash is the top bits of the key times the golden ratio.
        let shift: UInt64
        var count = 0

        init(capacity: Int, bucketCount: Int) {
            self.capacity = capacity
            self.bucketCount = bucketCount
            keys = .allocate(capacity: Swift.max(1, capacity))
            values = .allocate(capacity: Swift.max(1, capacity))
            buckets = .allocate(capacity: Swift.max(1, bucketCount))
            buckets.initialize(repeating: -1, count: bucketCount)
            shift = bucketCount == 0 ? 64 : UInt64(64 - bucketCount.trailingZeroBitCount)
        }

        deinit {
            values.deinitialize(count: count)
            keys.deallocate()
            values.deallocate()
            buckets.deallocate()
        }

        /// A copy with room for `capacity` entries (at least `count`) and `bucketCount` buckets (rehashed when it
        /// differs).
        func copy(capacity: Int, bucketCount: Int) -> Storage {
            let copy = Storage(capacity: capacity, bucketCount: bucketCount)
            copy.keys.initialize(from: keys, count: count)
            copy.values.initialize(from: values, count: count)
            copy.count = count
            if bucketCount == self.bucketCount {
                copy.buckets.update(from: buckets, count: bucketCount)
            } else {
                for position in 0..<count { copy.place(keys[position], at: position) }
            }
            return copy
        }

        @inline(__always)
        private func home(of key: UInt32) -> Int {
            Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
        }

        /// The storage position of `key`, or `nil`.
        @inline(__always)
        func position(of key: UInt32) -> Int? {
            guard count != 0 else { return nil }
            let mask = bucketCount &- 1
            var bucket = home(of: key)
            while true {
                let position = Int(buckets[bucket])
                if position < 0 { return nil }
                if keys[position] == key { return position }
                bucket = (bucket &+ 1) & mask
            }
        }

        /// Puts `position` in the first free bucket of `key`'s probe run.
        func place(_ key: UInt32, at position: Int) {
            let mask = bucketCount &- 1
            var bucket = home(of: key)
            while buckets[bucket] >= 0 { bucket = (bucket &+ 1) & mask }
            buckets[bucket] = Int32(truncatingIfNeeded: position)
        }

        /// The bucket holding `position`.
        @inline(__always)
        private func bucket(holding position: Int) -> Int {
            let mask = bucketCount &- 1
            var bucket = home(of: keys[position])
            while Int(buckets[bucket]) != position { bucket = (bucket &+ 1) & mask }
            return bucket
        }

        /// Removes the entry at `position` (below `count`) and destroys its value; the last entry moves into it.
        func discard(at position: Int) {
            (values + position).deinitialize(count: 1)
            unlink(at: position)
        }

        /// Removes the entry at `position` (below `count`) and returns its value; the last entry moves into it.
        func remove(at position: Int) -> Value {
            let removed = (values + position).move()
            unlink(at: position)
            return removed
        }

        /// Removes the entry at `position` (below `count`), whose value was moved out or destroyed: its bucket is
        /// freed and the last entry moves into it.
        private func unlink(at position: Int) {
            let mask = bucketCount &- 1
            // Backward-shift deletion: later entries of the probe run move up into the hole, so lookups need no
            // tombstones.
            var hole = bucket(holding: position)
            var next = (hole &+ 1) & mask
            while buckets[next] >= 0 {
                let wanted = home(of: keys[Int(buckets[next])])
                // Move the entry at `next` into the hole unless its home lies cyclically in (hole, next].
                if (next > hole && (wanted <= hole || wanted > next)) || (next < hole && (wanted <= hole && wanted > next)) {
                    buckets[hole] = buckets[next]
                    hole = next
                }
                next = (next &+ 1) & mask
            }
            buckets[hole] = -1
            // Keep storage dense: the last entry moves into the removed one's position.
            let last = count &- 1
            if position != last {
                buckets[bucket(holding: last)] = Int32(truncatingIfNeeded: position)
                keys[position] = keys[last]
                (values + position).moveInitialize(from: values + last, count: 1)
            }
            count = last
        }
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

    /// Removes `key` from the set.
    mutating func remove(_ key: UInt32) {
        removeValue(forKey: key)
    }
}
