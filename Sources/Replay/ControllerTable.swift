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
///
/// A value type with copy-on-write storage (`ControllerTable.Storage`, one allocation holding the serials, the
/// records and the index): a copy shares the storage until one side writes. The fold reaches records through
/// `subscript(at:)` (in place, one uniqueness check per write, no per-field array access) or through a
/// `FoldAccess` snapshot of the storage's pointers, taken once per run of events.
public struct ControllerTable: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// The serials, records and index; shared between copies until one of them writes.
    private var storage: Storage

    /// An empty table.
    public init() {
        storage = Storage(capacity: 0, bucketCount: 0)
    }

    public init(dictionaryLiteral elements: (UInt32, ControllerState)...) {
        self.init()
        for (serial, state) in elements { self[serial] = state }
    }

    /// How many records the table holds.
    public var count: Int { storage.count }
    public var isEmpty: Bool { storage.count == 0 }
    /// The serials, in the table's (unspecified) order.
    public var keys: [UInt32] { Array(UnsafeBufferPointer(start: storage.serials, count: storage.count)) }
    /// The records, in the same order as `keys`.
    public var values: [ControllerState] { Array(UnsafeBufferPointer(start: storage.states, count: storage.count)) }

    /// The record of `serial`; setting `nil` removes it.
    public subscript(serial: UInt32) -> ControllerState? {
        get {
            guard let position = position(of: serial) else { return nil }
            return storage.states[position]
        }
        set {
            if let newValue {
                if let position = position(of: serial) {
                    self[at: position] = newValue
                } else {
                    _ = insert(newValue, serial: serial)
                }
            } else {
                remove(serial)
            }
        }
    }

    /// `body` run on the record of `serial`; `nil` when there is none.
    @inline(__always)
    public func withState<R>(of serial: UInt32, _ body: (ControllerState) -> R) -> R? {
        guard let position = position(of: serial) else { return nil }
        return body(self[at: position])
    }

    /// The `ref` of the record of `serial`, read in place (`withState` copies the whole record into its
    /// closure); `nil` when there is none.
    public func ref(of serial: UInt32) -> ControllerRef? {
        guard let position = position(of: serial) else { return nil }
        return storage.states[position].ref
    }

    /// The `appearance` of the record of `serial`, read in place; `nil` when there is none.
    public func appearance(of serial: UInt32) -> Appearance? {
        guard let position = position(of: serial) else { return nil }
        return storage.states[position].appearance
    }

    /// Whether the table holds a record for `serial`.
    public func contains(_ serial: UInt32) -> Bool { position(of: serial) != nil }

    /// Makes room for `capacity` records without growing the index.
    public mutating func reserveCapacity(_ capacity: Int) {
        guard capacity > storage.capacity || storage.bucketCount < capacity * 2 else { return }
        let unique = isKnownUniquelyReferenced(&storage)
        storage = storage.copy(capacity: Swift.max(capacity, storage.capacity), minimumBuckets: capacity * 2, moving: unique)
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
            guard position < table.storage.count else { return nil }
            defer { position += 1 }
            return (table.storage.serials[position], table.storage.states[position])
        }
    }

    public static func == (lhs: ControllerTable, rhs: ControllerTable) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.storage === rhs.storage { return true }
        for position in 0..<lhs.count {
            guard let other = rhs.position(of: lhs.storage.serials[position]), rhs.storage.states[other] == lhs.storage.states[position] else {
                return false
            }
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        // Order-independent, as `==` is: the serials' sum and count.
        hasher.combine(count)
        var sum: UInt64 = 0
        for position in 0..<count { sum &+= UInt64(storage.serials[position]) }
        hasher.combine(sum)
    }

    // MARK: - Internals for the fold

    /// The record at dense position `position` (`0..<count`, as `position(of:)` returns), read and written in
    /// place; a write first makes the storage unique (copy-on-write).
    subscript(at position: Int) -> ControllerState {
        @inline(__always)
        unsafeAddress {
            precondition(position >= 0 && position < storage.count, "ControllerTable position out of range")
            return UnsafePointer(storage.states + position)
        }
        @inline(__always)
        mutating unsafeMutableAddress {
            precondition(position >= 0 && position < storage.count, "ControllerTable position out of range")
            makeUnique()
            return storage.states + position
        }
    }

    /// The serial of the record at dense position `position`.
    func serial(at position: Int) -> UInt32 {
        precondition(position >= 0 && position < storage.count, "ControllerTable position out of range")
        return storage.serials[position]
    }

    @inline(__always)
    private mutating func makeUnique() {
        let unique = isKnownUniquelyReferenced(&storage)
        if !unique { storage = storage.copy(capacity: storage.capacity, minimumBuckets: 0, moving: false) }
    }

    /// Runs `body` on `serial`'s record in place; `nil` (and `body` not run) when there is none.
    @inline(__always)
    mutating func update<R>(_ serial: UInt32, _ body: (inout ControllerState) -> R) -> R? {
        guard let position = position(of: serial) else { return nil }
        return body(&self[at: position])
    }

    /// The dense position of `serial`'s record, or `nil`.
    @inline(__always)
    func position(of serial: UInt32) -> Int? {
        storage.position(of: serial)
    }

    /// A snapshot of the storage's pointers for the fold's fast path: lookups without bounds checks and records
    /// updated in place without a uniqueness check per write. Makes the storage unique first. The snapshot is
    /// valid until the table is next changed by anything but a write through it (an insertion, a removal, a
    /// write through `subscript(at:)` or `subscript(serial)` after a copy of the table was made, or the table's
    /// end); its user must not keep it past such a change.
    @inline(__always)
    mutating func foldAccess() -> FoldAccess {
        makeUnique()
        let storage = self.storage
        return FoldAccess(
            serials: storage.serials, buckets: storage.buckets, mask: storage.bucketCount &- 1, shift: storage.shift,
            states: storage.states, count: storage.count
        )
    }

    /// The table as the fold's fast path reads it (`foldAccess()`): valid only until the table changes shape.
    struct FoldAccess {
        let serials: UnsafeMutablePointer<UInt32>
        let buckets: UnsafeMutablePointer<Int32>
        let mask: Int
        let shift: UInt32
        /// The records, by dense position.
        let states: UnsafeMutablePointer<ControllerState>
        /// How many records there are (positions `0..<count`).
        let count: Int

        /// The dense position of `serial`'s record, or `nil` (the same probe as `ControllerTable.position(of:)`).
        @inline(__always)
        func position(of serial: UInt32) -> Int? {
            if count == 0 { return nil }
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
        let position = makeRoomForOne()
        (storage.serials + position).initialize(to: serial)
        (storage.states + position).initialize(to: state)
        storage.count = position + 1
        storage.place(serial, at: position)
        return position
    }

    /// `insert(ControllerState(ref:firstSeen:ordinal:), serial:)` with the new record built where it is stored
    /// (built apart and passed in, it was copied — a retain of each of its buffers — and the temporary destroyed).
    ///
    /// When the storage keeps a spare record (one a removal set aside, `Storage.spareCapacity` at most), the new
    /// record is that one reset field by field, its arrays emptied with their capacity kept: destroying a removed
    /// record freed its buffers and the next controller allocated them again (≈ 500 instructions per death).
    mutating func insertNew(_ ref: consuming ControllerRef, firstSeen time: UInt64, ordinal: UInt64, serial: UInt32) -> Int {
        let position = makeRoomForOne()
        (storage.serials + position).initialize(to: serial)
        if storage.spareCount > 0 {
            storage.spareCount -= 1
            let state = storage.states + position
            state.moveInitialize(from: storage.spares + storage.spareCount, count: 1)
            state.pointee.reset(ref: ref, firstSeen: time, ordinal: ordinal)
        } else {
            (storage.states + position).initialize(to: ControllerState(ref: ref, firstSeen: time, ordinal: ordinal))
        }
        storage.count = position + 1
        storage.place(serial, at: position)
        return position
    }

    /// Makes the storage unique with room for one more record (and its bucket); returns the position the record
    /// will take (the record count, not yet incremented; the serial not yet initialized there).
    private mutating func makeRoomForOne() -> Int {
        let needed = storage.count + 1
        let unique = isKnownUniquelyReferenced(&storage)
        if needed > storage.capacity || needed * 2 > storage.bucketCount || !unique {
            let capacity = needed > storage.capacity ? Swift.max(8, storage.capacity * 2) : storage.capacity
            let buckets = needed * 2 > storage.bucketCount ? Swift.max(16, needed * 2) : 0
            storage = storage.copy(capacity: capacity, minimumBuckets: buckets, moving: unique)
        }
        return storage.count
    }

    /// Removes `serial`'s record, if any.
    mutating func remove(_ serial: UInt32) {
        guard position(of: serial) != nil else { return }
        makeUnique()
        storage.remove(serial)
    }
}

extension ControllerTable {
    /// The storage of a `ControllerTable`: `capacity` serials and records (the first `count` initialized) and an
    /// open-addressed index of `bucketCount` buckets (a power of two, at least twice `count`; 0 while empty),
    /// each a dense position or -1. Mutated only by a table that holds the only reference to it.
    ///
    /// Every stored property is a `let` (a class's `var` would cost a dynamic exclusivity check per access); the
    /// record count lives behind a pointer. Growing the records or the index makes a new storage (`copy`).
    final class Storage: @unchecked Sendable {
        /// Where `count` (`header[0]`) and `spareCount` (`header[1]`) are kept.
        private let header: UnsafeMutablePointer<Int>
        /// Records removed from the table and kept for `insertNew` to reuse (their buffers with them): at most
        /// `spareCapacity`, the first `spareCount` initialized. Not part of the table's value (never compared,
        /// hashed or copied).
        let spares: UnsafeMutablePointer<ControllerState>
        /// How many removed records a storage keeps for reuse.
        static let spareCapacity = 32
        let capacity: Int
        let serials: UnsafeMutablePointer<UInt32>
        let states: UnsafeMutablePointer<ControllerState>
        let buckets: UnsafeMutablePointer<Int32>
        let bucketCount: Int
        /// `32 - log2(bucketCount)`: the hash is the high bits of `serial × 2654435769`.
        let shift: UInt32

        /// How many records are initialized (positions `0..<count`).
        var count: Int {
            @inline(__always) get { header.pointee }
            @inline(__always) set { header.pointee = newValue }
        }

        /// How many spare records are initialized (positions `0..<spareCount` of `spares`).
        var spareCount: Int {
            @inline(__always) get { header[1] }
            @inline(__always) set { header[1] = newValue }
        }

        init(capacity: Int, bucketCount: Int) {
            header = .allocate(capacity: 2)
            header.initialize(repeating: 0, count: 2)
            spares = .allocate(capacity: Self.spareCapacity)
            self.capacity = capacity
            serials = .allocate(capacity: Swift.max(capacity, 1))
            states = .allocate(capacity: Swift.max(capacity, 1))
            self.bucketCount = bucketCount
            buckets = .allocate(capacity: Swift.max(bucketCount, 1))
            buckets.initialize(repeating: -1, count: Swift.max(bucketCount, 1))
            var bits: UInt32 = 0
            while (1 << bits) < bucketCount { bits += 1 }
            shift = 32 - bits
        }

        deinit {
            states.deinitialize(count: count)
            states.deallocate()
            spares.deinitialize(count: spareCount)
            spares.deallocate()
            serials.deallocate()
            buckets.deallocate()
            header.deallocate()
        }

        /// A storage with the same records, room for `capacity` of them and at least `minimumBuckets` buckets;
        /// `moving`: this storage is uniquely referenced and is left empty (records moved, not copied).
        func copy(capacity: Int, minimumBuckets: Int, moving: Bool) -> Storage {
            var size = bucketCount
            if minimumBuckets > size {
                size = 16
                while size < minimumBuckets { size *= 2 }
            }
            let copy = Storage(capacity: Swift.max(capacity, count), bucketCount: size)
            copy.serials.initialize(from: serials, count: count)
            if moving {
                copy.states.moveInitialize(from: states, count: count)
            } else {
                copy.states.initialize(from: states, count: count)
            }
            copy.count = count
            if moving {
                count = 0
                copy.spares.moveInitialize(from: spares, count: spareCount)
                copy.spareCount = spareCount
                spareCount = 0
            }
            if size == bucketCount, size > 0 {
                copy.buckets.update(from: buckets, count: size)
            } else {
                for position in 0..<copy.count { copy.place(copy.serials[position], at: position) }
            }
            return copy
        }

        @inline(__always)
        func bucket(of serial: UInt32) -> Int {
            Int(truncatingIfNeeded: (serial &* 2_654_435_769) >> shift)
        }

        @inline(__always)
        func position(of serial: UInt32) -> Int? {
            if count == 0 { return nil }
            let mask = bucketCount &- 1
            var bucket = bucket(of: serial)
            while true {
                let entry = buckets[bucket]
                if entry < 0 { return nil }
                if serials[Int(entry)] == serial { return Int(entry) }
                bucket = (bucket + 1) & mask
            }
        }

        func place(_ serial: UInt32, at position: Int) {
            let mask = bucketCount - 1
            var bucket = bucket(of: serial)
            while buckets[bucket] >= 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = Int32(position)
        }

        /// Removes `serial`'s record (which must be present).
        func remove(_ serial: UInt32) {
            let mask = bucketCount - 1
            var hole = bucket(of: serial)
            while serials[Int(buckets[hole])] != serial { hole = (hole + 1) & mask }
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
            // Keep the records dense: the last one moves into the freed position (moved, not copied).
            let last = count - 1
            let spare = spareCount
            if spare < Self.spareCapacity {
                // Kept for `insertNew` (moved, not copied): its buffers are reused rather than freed.
                (spares + spare).moveInitialize(from: states + position, count: 1)
                spareCount = spare + 1
            } else {
                (states + position).deinitialize(count: 1)
            }
            if position != last {
                let moved = serials[last]
                serials[position] = moved
                (states + position).moveInitialize(from: states + last, count: 1)
                var bucket = bucket(of: moved)
                while buckets[bucket] != Int32(last) { bucket = (bucket + 1) & mask }
                buckets[bucket] = Int32(position)
            }
            count = last
        }
    }
}
