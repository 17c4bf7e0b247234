import TraceModel

/// The controllers of a `ReplayState`, by serial (`ControllerRef.serial`): a dictionary-like table built for the
/// fold's hot path.
///
/// Records are stored densely (in insertion order, changed by removals) and found through an open-addressed
/// index with a multiplicative hash of the serial (no SipHash), so a lookup costs a few instructions and the fold
/// updates a record in place (`ReplayState`'s fold never copies a whole `ControllerState`). Offers the parts of
/// `Dictionary`'s API that callers use: `subscript(serial)` (get, set, set to `nil` to remove), `keys`, `values`,
/// `count`, iteration as `(key, value)` pairs. Iteration order is unspecified (as a dictionary's): sort by serial
/// when order matters. Two tables are equal when they hold equal records for the same serials.
public struct ControllerTable: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// Serial of each dense entry.
    private(set) var serials: [UInt32] = []
    /// The records, parallel to `serials`.
    var states: [ControllerState] = []
    /// Open-addressed index: a dense position, or -1 for an empty bucket. Its count is a power of two, at least
    /// twice the number of records.
    private var buckets: [Int32] = []
    /// `32 - log2(buckets.count)`: the hash is the high bits of `serial × 2654435769`.
    private var shift: UInt32 = 32

    /// An empty table.
    public init() {}

    public init(dictionaryLiteral elements: (UInt32, ControllerState)...) {
        for (serial, state) in elements { self[serial] = state }
    }

    /// How many records the table holds.
    public var count: Int { serials.count }
    public var isEmpty: Bool { serials.isEmpty }
    /// The serials, in the table's (unspecified) order.
    public var keys: [UInt32] { serials }
    /// The records, in the same order as `keys`.
    public var values: [ControllerState] { states }

    /// The record of `serial`; setting `nil` removes it.
    public subscript(serial: UInt32) -> ControllerState? {
        get {
            guard let position = position(of: serial) else { return nil }
            return states[position]
        }
        set {
            if let newValue {
                if let position = position(of: serial) {
                    states[position] = newValue
                } else {
                    _ = insert(newValue, serial: serial)
                }
            } else {
                remove(serial)
            }
        }
    }

    /// Whether the table holds a record for `serial`.
    public func contains(_ serial: UInt32) -> Bool { position(of: serial) != nil }

    /// Makes room for `capacity` records without growing the index.
    public mutating func reserveCapacity(_ capacity: Int) {
        serials.reserveCapacity(capacity)
        states.reserveCapacity(capacity)
        if buckets.count < capacity * 2 { rebuild(minimumBuckets: capacity * 2) }
    }

    public func makeIterator() -> Iterator {
        Iterator(table: self)
    }

    /// Iterates the `(key, value)` pairs.
    public struct Iterator: IteratorProtocol {
        private let table: ControllerTable
        private var position = 0

        init(table: ControllerTable) {
            self.table = table
        }

        public mutating func next() -> (key: UInt32, value: ControllerState)? {
            guard position < table.serials.count else { return nil }
            defer { position += 1 }
            return (table.serials[position], table.states[position])
        }
    }

    public static func == (lhs: ControllerTable, rhs: ControllerTable) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for position in lhs.serials.indices {
            guard let other = rhs.position(of: lhs.serials[position]), rhs.states[other] == lhs.states[position] else { return false }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, as `==` is: the serials' sum and count.
        hasher.combine(count)
        hasher.combine(serials.reduce(UInt64(0)) { $0 &+ UInt64($1) })
    }

    // MARK: - Internals for the fold

    @inline(__always)
    private func bucket(of serial: UInt32) -> Int {
        Int(truncatingIfNeeded: (serial &* 2_654_435_769) >> shift)
    }

    /// Runs `body` on `serial`'s record in place; `nil` (and `body` not run) when there is none.
    @inline(__always)
    mutating func update<R>(_ serial: UInt32, _ body: (inout ControllerState) -> R) -> R? {
        guard let position = position(of: serial) else { return nil }
        return body(&states[position])
    }

    /// The dense position of `serial`'s record, or `nil`.
    @inline(__always)
    func position(of serial: UInt32) -> Int? {
        if buckets.isEmpty { return nil }
        let mask = buckets.count - 1
        var bucket = bucket(of: serial)
        while true {
            let entry = buckets[bucket]
            if entry < 0 { return nil }
            if serials[Int(entry)] == serial { return Int(entry) }
            bucket = (bucket + 1) & mask
        }
    }

    /// Runs `body` with the table reached through pointers (`FoldAccess`): lookups without bounds checks and
    /// records updated in place without a copy-on-write check per write. The table must hold at least one
    /// record. While `body` runs, `states` itself is empty (`withUnsafeMutableBufferPointer` moves the array
    /// out): `body` must reach records only through the access, and must not insert or remove records.
    @inline(__always)
    mutating func withFoldAccess<R>(_ body: (FoldAccess) -> R) -> R {
        let mask = buckets.count - 1
        let shift = self.shift
        return serials.withUnsafeBufferPointer { serials in
            buckets.withUnsafeBufferPointer { buckets in
                states.withUnsafeMutableBufferPointer { states in
                    body(FoldAccess(serials: serials.baseAddress!, buckets: buckets.baseAddress!, mask: mask, shift: shift, states: states.baseAddress!))
                }
            }
        }
    }

    /// The table as the fold's fast path reads it (`withFoldAccess`): valid only inside that call.
    struct FoldAccess {
        let serials: UnsafePointer<UInt32>
        let buckets: UnsafePointer<Int32>
        let mask: Int
        let shift: UInt32
        /// The records, by dense position.
        let states: UnsafeMutablePointer<ControllerState>

        /// The dense position of `serial`'s record, or `nil` (the same probe as `ControllerTable.position(of:)`).
        @inline(__always)
        func position(of serial: UInt32) -> Int? {
            var bucket = Int(truncatingIfNeeded: (serial &* 2_654_435_769) >> shift)
            while true {
                let entry = buckets[bucket]
                if entry < 0 { return nil }
                if serials[Int(entry)] == serial { return Int(entry) }
                bucket = (bucket + 1) & mask
            }
        }
    }

    /// Adds a record for a serial that has none; returns its dense position.
    mutating func insert(_ state: consuming ControllerState, serial: UInt32) -> Int {
        if (serials.count + 1) * 2 > buckets.count { rebuild(minimumBuckets: Swift.max(16, (serials.count + 1) * 2)) }
        let position = serials.count
        serials.append(serial)
        states.append(state)
        place(serial, at: position)
        return position
    }

    /// Removes `serial`'s record, if any.
    mutating func remove(_ serial: UInt32) {
        guard !buckets.isEmpty else { return }
        let mask = buckets.count - 1
        var hole = bucket(of: serial)
        while true {
            let entry = buckets[hole]
            if entry < 0 { return }
            if serials[Int(entry)] == serial { break }
            hole = (hole + 1) & mask
        }
        let position = Int(buckets[hole])
        // Backward-shift deletion: move later entries of the probe run into the hole when their home allows.
        var next = hole
        while true {
            next = (next + 1) & mask
            let entry = buckets[next]
            if entry < 0 { break }
            let home = bucket(of: serials[Int(entry)])
            // Whether `home` lies cyclically in (hole, next]: then the entry must stay.
            let stays = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
            if !stays {
                buckets[hole] = entry
                hole = next
            }
        }
        buckets[hole] = -1
        // Keep the records dense: the last one moves into the freed position (moved, not copied: a record holds
        // several arrays, and swapping them cost thousands of instructions per removal).
        let last = serials.count - 1
        let movedState = states.removeLast()
        let moved = serials.removeLast()
        if position != last {
            serials[position] = moved
            states[position] = movedState
            var bucket = bucket(of: moved)
            while buckets[bucket] != Int32(last) { bucket = (bucket + 1) & mask }
            buckets[bucket] = Int32(position)
        }
    }

    private mutating func place(_ serial: UInt32, at position: Int) {
        let mask = buckets.count - 1
        var bucket = bucket(of: serial)
        while buckets[bucket] >= 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = Int32(position)
    }

    private mutating func rebuild(minimumBuckets: Int) {
        var size = 16
        var bits: UInt32 = 4
        while size < minimumBuckets {
            size *= 2
            bits += 1
        }
        buckets = [Int32](repeating: -1, count: size)
        shift = 32 - bits
        for position in serials.indices { place(serials[position], at: position) }
    }
}
