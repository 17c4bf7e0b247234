/// Per-controller values of a monitor keyed by serial, for values that are plain bytes: an open-addressed table
/// (linear probing, Fibonacci hash as `SerialMap`) whose buckets hold the key and the value themselves.
///
/// A lookup is a multiply, a shift and a load of the home bucket (serials are spread well by the hash, so the key
/// is nearly always there), and the value is read and written where it lies: manually allocated, so there is no
/// copy-on-write check and no accessor coroutine, and no array of positions to go through (`SerialMap` keeps
/// insertion order for iteration; this table has no iteration, so its monitors must not need an order).
/// `SerialWindow` is flat too but sends the serials below its window (long-lived controllers, which get most
/// callbacks) to a `SerialMap`.
///
/// Removal shifts later entries of the probe run back (no tombstones); the table halves when at most an eighth of
/// it is used, so memory is bounded by the serials holding a value. Not copyable (it owns its buffers; a struct, so
/// no generic class metadata is made at run time); not thread-safe.
struct SerialTable<Value: BitwiseCopyable>: ~Copyable {
    /// Per bucket: the serial, or `emptyKey` (a serial is below 2^32).
    private var keys: UnsafeMutablePointer<UInt64>
    /// Per bucket: the value (initialized where the key is not `emptyKey`; plain bytes, so never deinitialized).
    private var values: UnsafeMutablePointer<Value>
    /// `bucketCount - 1`; the count is a power of two.
    private var mask: Int
    /// `64 - log2(bucketCount)`.
    private var shift: UInt64
    /// How many buckets hold a serial.
    private(set) var count = 0

    private static var emptyKey: UInt64 { .max }
    private static var minimumBuckets: Int { 16 }

    init() {
        let buckets = Self.minimumBuckets
        keys = .allocate(capacity: buckets)
        keys.initialize(repeating: Self.emptyKey, count: buckets)
        values = .allocate(capacity: buckets)
        mask = buckets - 1
        shift = UInt64(64 - buckets.trailingZeroBitCount)
    }

    deinit {
        keys.deallocate()
        values.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func home(of key: UInt32) -> Int {
        // `&>>`: `shift` is below 64 (no test for a larger shift).
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) &>> shift)
    }

    /// The bucket holding `key`, or `nil`.
    @inline(__always)
    func bucket(of key: UInt32) -> Int? {
        let wanted = UInt64(key)
        var bucket = home(of: key)
        while true {
            let found = keys[bucket]
            if found == wanted { return bucket }
            if found == Self.emptyKey { return nil }
            bucket = (bucket &+ 1) & mask
        }
    }

    /// The value of `key`, or `nil`.
    @inline(__always)
    subscript(key: UInt32) -> Value? {
        guard let bucket = bucket(of: key) else { return nil }
        return values[bucket]
    }

    /// The value in `bucket` (one `bucket(of:)` or `bucket(of:inserting:)` gave, before any insertion or removal).
    @inline(__always)
    subscript(bucket bucket: Int) -> Value {
        get { values[bucket] }
        nonmutating set { values[bucket] = newValue }
    }

    /// The bucket holding `key`, where `value` is stored first when `key` has no value.
    @inline(__always)
    mutating func bucket(of key: UInt32, inserting value: Value) -> Int {
        let wanted = UInt64(key)
        var bucket = home(of: key)
        while true {
            let found = keys[bucket]
            if found == wanted { return bucket }
            if found == Self.emptyKey { return insert(key, value, at: bucket) }
            bucket = (bucket &+ 1) & mask
        }
    }

    /// Stores `value` for `key` (not present) in the empty `bucket` that ends its probe run, or after growing the
    /// table; returns the bucket.
    @inline(never)
    private mutating func insert(_ key: UInt32, _ value: Value, at bucket: Int) -> Int {
        var bucket = bucket
        if (count &+ 1) &* 2 > mask &+ 1 {
            resize(to: (mask &+ 1) &* 2)
            bucket = home(of: key)
            while keys[bucket] != Self.emptyKey { bucket = (bucket &+ 1) & mask }
        }
        keys[bucket] = UInt64(key)
        (values + bucket).initialize(to: value)
        count &+= 1
        return bucket
    }

    /// Sets the value of `key`.
    @inline(__always)
    mutating func set(_ key: UInt32, _ value: Value) {
        let bucket = bucket(of: key, inserting: value)
        values[bucket] = value
    }

    /// Removes `key`'s value, if any.
    mutating func remove(_ key: UInt32) {
        guard var hole = bucket(of: key) else { return }
        // Backward-shift deletion: later entries of the probe run move up into the hole.
        var next = (hole &+ 1) & mask
        while keys[next] != Self.emptyKey {
            let wanted = home(of: UInt32(truncatingIfNeeded: keys[next]))
            // Move the entry at `next` into the hole unless its home lies cyclically in (hole, next].
            if (next > hole && (wanted <= hole || wanted > next)) || (next < hole && (wanted <= hole && wanted > next)) {
                keys[hole] = keys[next]
                values[hole] = values[next]
                hole = next
            }
            next = (next &+ 1) & mask
        }
        keys[hole] = Self.emptyKey
        count &-= 1
        let buckets = mask &+ 1
        if buckets > Self.minimumBuckets, count &* 8 <= buckets { resize(to: buckets / 2) }
    }

    /// Removes every value (the table keeps its size).
    mutating func removeAll() {
        keys.update(repeating: Self.emptyKey, count: mask &+ 1)
        count = 0
    }

    /// Rehashes into `buckets` buckets (a power of two, more than twice `count`).
    private mutating func resize(to buckets: Int) {
        let oldKeys = keys
        let oldValues = values
        let oldCount = mask &+ 1
        keys = .allocate(capacity: buckets)
        keys.initialize(repeating: Self.emptyKey, count: buckets)
        values = .allocate(capacity: buckets)
        mask = buckets - 1
        shift = UInt64(64 - buckets.trailingZeroBitCount)
        for old in 0..<oldCount where oldKeys[old] != Self.emptyKey {
            var bucket = home(of: UInt32(truncatingIfNeeded: oldKeys[old]))
            while keys[bucket] != Self.emptyKey { bucket = (bucket &+ 1) & mask }
            keys[bucket] = oldKeys[old]
            (values + bucket).initialize(to: oldValues[old])
        }
        oldKeys.deallocate()
        oldValues.deallocate()
    }
}
