import TraceModel

/// A run of consecutive events of one frame, decoded together by `FrameCursor.decode(into:limit:)`: the
/// columnar form of the fast path, so that a consumer folds many events in one tight loop instead of calling the
/// decoder once per event.
///
/// The batch is laid out by columns (one array per group of fields), so that the decoder writes only what an
/// event has and a consumer loads only what it reads: the timestamps are the frame's own (the decoder's times
/// buffer, not copied); a callback writes one 64-bit word (its controller's serial and slot, its code and its flags
/// byte as stored); a parent argument naming a controller writes one more column.
/// `withEntries` (or `self[index]`) gives each event as an `Entry` gathered from the columns; a consumer that reads
/// a few fields of an entry loads only those columns.
///
/// The timestamps of a batch's entries never decrease: they are its frame's, the sums of the frame's unsigned time
/// deltas (an event whose sum would overflow is not decoded).
///
/// A callback without a source or size argument (the common event) is an entry of its own; any other event is an
/// entry whose `record` indexes `records` (the full `EventRecord`, read through the cursor's tables like any
/// record) and, for a record of kind `.other`, `events` (its `Event`). Buffers are reused from call to call; what
/// `withEntries` hands out is valid during the call only.
public struct RecordBatch {
    /// One event of the batch.
    public struct Entry: Sendable, Hashable {
        /// Nanoseconds on the trace's monotonic clock.
        public var timestamp: UInt64
        /// The controller's serial and its slot in the frame's controller table (callback entries; 0 for records).
        public var serial: UInt32
        public var slot: UInt32
        /// The parent argument's controller serial and slot, when `parentKind` is `.controller` (else 0).
        public var parentSerial: UInt32
        public var parentSlot: UInt32
        /// The `Callback` raw value (callback entries; 0 for records).
        public var callbackCode: UInt8
        /// `Phase` raw value (callback entries; 0 for records).
        public var phaseCode: UInt8
        /// The `animated` argument as stored: 0 absent, 1 false, 2 true (callback entries; 0 for records).
        public var animatedCode: UInt8
        /// `EventRecord.Parent` raw value (callback entries; 0 for records).
        public var parentCode: UInt8
        /// `true` when the event is in `records` at index `record`; `false` for a callback entry.
        public var isRecord: Bool
        /// Index in `records` (and `events`) when `isRecord` (else 0).
        public var record: UInt32

        @inlinable @inline(__always)
        public init(
            timestamp: UInt64, serial: UInt32, slot: UInt32, parentSerial: UInt32, parentSlot: UInt32, callbackCode: UInt8,
            phaseCode: UInt8, animatedCode: UInt8, parentCode: UInt8, isRecord: Bool, record: UInt32
        ) {
            self.timestamp = timestamp
            self.serial = serial
            self.slot = slot
            self.parentSerial = parentSerial
            self.parentSlot = parentSlot
            self.callbackCode = callbackCode
            self.phaseCode = phaseCode
            self.animatedCode = animatedCode
            self.parentCode = parentCode
            self.isRecord = isRecord
            self.record = record
        }

        public var callback: Callback { Callback(rawValue: callbackCode) ?? .initialize }
        public var phase: Phase { Phase(rawValue: phaseCode) ?? .instant }
        public var parent: EventRecord.Parent { EventRecord.Parent(rawValue: parentCode) ?? .absent }
        public var animated: Bool? { animatedCode == 0 ? nil : animatedCode == 2 }
    }

    /// The word of a record entry: bit 63 (the flags byte's reserved bit 7, which no callback entry has) and the
    /// record index.
    @usableFromInline static let recordBit: UInt64 = 1 << 63
    /// The slot field of a callback word whose slot is ≥ 0xFFFF (then in `wideSlots`).
    @usableFromInline static let wideSlot: UInt64 = 0xFFFF

    /// The word of a callback entry: its serial, its slot (`wideSlot` when it does not fit in 16 bits), and its
    /// code and flags as stored (`code | flags << 8`: phase in bits 0–1 of the flags, animated 2–3, parent
    /// presence 4–5).
    @inline(__always)
    static func callbackWord(serial: UInt32, slot: UInt64, codeAndFlags: UInt16) -> UInt64 {
        UInt64(serial) | slot << 32 | UInt64(codeAndFlags) << 48
    }

    /// An entry's 64-bit word as stored in the batch (`Entries.word(at:)`): the fields of `Entry` it holds, each
    /// decoded by a shift and a mask. For a callback entry: the controller's serial, the callback code, the phase,
    /// and the parent presence; for a record entry: `isRecord` and the record index (the callback fields are then
    /// not meaningful). The slot and the parent's serial and slot are in other columns (`Entries`' subscript).
    @frozen
    public struct Word: Sendable, Hashable {
        /// The word: serial in bits 0–31, slot in 32–47 (`0xFFFF` when wider), callback code in 48–55, the flags
        /// byte as stored in 56–63 (phase in bits 0–1, animated 2–3, parent presence 4–5); a record: its index in
        /// bits 0–31 and bit 63 set.
        public let raw: UInt64

        @inlinable @inline(__always)
        public init(raw: UInt64) { self.raw = raw }

        /// `Entry.isRecord`.
        @inlinable public var isRecord: Bool { @inline(__always) get { raw & RecordBatch.recordBit != 0 } }
        /// `Entry.serial` of a callback entry.
        @inlinable public var serial: UInt32 { @inline(__always) get { UInt32(truncatingIfNeeded: raw) } }
        /// `Entry.record` of a record entry.
        @inlinable public var record: UInt32 { @inline(__always) get { UInt32(truncatingIfNeeded: raw) } }
        /// `Entry.callbackCode` of a callback entry.
        @inlinable public var callbackCode: UInt8 { @inline(__always) get { UInt8(truncatingIfNeeded: raw >> 48) } }
        /// `Entry.phaseCode` of a callback entry.
        @inlinable public var phaseCode: UInt8 { @inline(__always) get { UInt8(truncatingIfNeeded: raw >> 56) & 3 } }
        /// `Entry.parentCode` of a callback entry.
        @inlinable public var parentCode: UInt8 { @inline(__always) get { UInt8(truncatingIfNeeded: raw >> 60) & 3 } }

        /// Whether `other` is a callback entry with the same serial and callback code (its phase, arguments and
        /// slot aside) as this callback entry.
        @inlinable @inline(__always)
        public func isSameCallback(as other: Word) -> Bool {
            // Serial (bits 0–31), code (48–55) and the record bit (63).
            (raw ^ other.raw) & 0x80FF_0000_FFFF_FFFF == 0
        }
    }

    /// The batch's entries in place, by column (valid only during `withEntries`): `self[index]` gathers entry
    /// `index`; the column accessors (`timestamp(at:)`, …) load one field.
    ///
    /// Columns: the timestamps (the frame's times buffer from the batch's first event on); one 64-bit word per
    /// entry (a callback: serial in bits 0–31, slot in 32–47, callback code in 48–55, the flags byte as stored in
    /// 56–63; a record: its index in bits 0–31 and bit 63 set); the parent controller (serial | slot << 32) of a
    /// callback whose parent presence is 2 (other rows are not written); the slot of a callback whose slot field
    /// is `wideSlot` (other rows are not written).
    public struct Entries: RandomAccessCollection {
        public typealias Index = Int
        public typealias Indices = Range<Int>

        @usableFromInline let times: UnsafePointer<UInt64>
        @usableFromInline let words: UnsafePointer<UInt64>
        @usableFromInline let parents: UnsafePointer<UInt64>
        @usableFromInline let wideSlots: UnsafePointer<UInt32>
        /// How many entries.
        public let count: Int

        @usableFromInline @inline(__always)
        init(
            times: UnsafePointer<UInt64>, words: UnsafePointer<UInt64>, parents: UnsafePointer<UInt64>, wideSlots: UnsafePointer<UInt32>,
            count: Int
        ) {
            self.times = times
            self.words = words
            self.parents = parents
            self.wideSlots = wideSlots
            self.count = count
        }

        @inlinable public var startIndex: Int { 0 }
        @inlinable public var endIndex: Int { count }
        @inlinable public func index(after index: Int) -> Int { index + 1 }
        @inlinable public func index(before index: Int) -> Int { index - 1 }

        /// Entry `index` (`0 ..< count`, checked in debug builds only, as `UnsafeBufferPointer` does). Always inlined,
        /// so that a reader that uses a few fields loads only their columns.
        @inlinable @inline(__always)
        public subscript(index: Int) -> Entry {
            assert(index >= 0 && index < count, "entry index out of range")
            let word = words[index]
            let isRecord = word & RecordBatch.recordBit != 0
            let bits = UInt8(truncatingIfNeeded: word >> 56)
            let parentCode = (bits >> 4) & 3
            let parent = parentCode == 2 ? parents[index] : 0
            let slotField = (word >> 32) & RecordBatch.wideSlot
            let slot = slotField == RecordBatch.wideSlot ? wideSlots[index] : UInt32(truncatingIfNeeded: slotField)
            return Entry(
                timestamp: times[index], serial: isRecord ? 0 : UInt32(truncatingIfNeeded: word), slot: isRecord ? 0 : slot,
                parentSerial: UInt32(truncatingIfNeeded: parent), parentSlot: UInt32(truncatingIfNeeded: parent >> 32),
                callbackCode: UInt8(truncatingIfNeeded: word >> 48), phaseCode: bits & 3, animatedCode: (bits >> 2) & 3, parentCode: parentCode,
                isRecord: isRecord, record: isRecord ? UInt32(truncatingIfNeeded: word) : 0
            )
        }

        /// The first `end` entries (`end` ≤ `count`).
        @inlinable
        public func truncated(to end: Int) -> Entries {
            precondition(end >= 0 && end <= count, "entry count out of range")
            return Entries(times: times, words: words, parents: parents, wideSlots: wideSlots, count: end)
        }

        /// Entry `index`'s word (one load; `Word`'s accessors decode it): what a fold loop that reads a few fields
        /// of an entry tests first.
        @inlinable @inline(__always) public func word(at index: Int) -> Word { Word(raw: words[index]) }
        /// `self[index].parentSerial` of a callback entry whose `parentCode` is `EventRecord.Parent.controller`'s
        /// (the column is not written for other entries: their value is unspecified).
        @inlinable @inline(__always) public func parentSerial(at index: Int) -> UInt32 { UInt32(truncatingIfNeeded: parents[index]) }
        /// The parent column of a callback entry whose `parentCode` is `EventRecord.Parent.controller`'s, whole:
        /// `parentSerial | parentSlot << 32` (one load, for comparing two entries' parents).
        @inlinable @inline(__always) public func parentWord(at index: Int) -> UInt64 { parents[index] }
        /// `self[index].timestamp`, loading only the timestamp.
        @inlinable @inline(__always) public func timestamp(at index: Int) -> UInt64 { times[index] }
        /// `self[index].isRecord`, loading only the entry's word.
        @inlinable @inline(__always) public func isRecord(at index: Int) -> Bool { words[index] & RecordBatch.recordBit != 0 }
    }

    /// The columns, reused from call to call (grown when a call asks for more), and the frame storage that holds
    /// the timestamps the batch points into.
    final class Storage {
        private(set) var words: UnsafeMutablePointer<UInt64>
        private(set) var parents: UnsafeMutablePointer<UInt64>
        private(set) var wideSlots: UnsafeMutablePointer<UInt32>
        private(set) var capacity: Int
        /// The batch's first timestamp in `timesOwner`'s buffer.
        private(set) var times: UnsafePointer<UInt64>
        private var timesOwner: StreamReader.Storage?

        init(capacity: Int) {
            self.capacity = Swift.max(1, capacity)
            words = .allocate(capacity: self.capacity)
            parents = .allocate(capacity: self.capacity)
            wideSlots = .allocate(capacity: self.capacity)
            // Read only for entries, and a batch with entries points it at its frame's times first.
            times = UnsafePointer(parents)
        }

        func reserve(_ needed: Int) {
            guard needed > capacity else { return }
            words.deallocate()
            parents.deallocate()
            wideSlots.deallocate()
            capacity = needed
            words = .allocate(capacity: needed)
            parents = .allocate(capacity: needed)
            wideSlots = .allocate(capacity: needed)
            if timesOwner == nil { times = UnsafePointer(parents) }
        }

        /// Points the batch's timestamps at `times` (kept alive by `owner`).
        func setTimes(_ times: UnsafePointer<UInt64>, owner: StreamReader.Storage) {
            self.times = times
            if timesOwner !== owner { timesOwner = owner }
        }

        deinit {
            words.deallocate()
            parents.deallocate()
            wideSlots.deallocate()
        }
    }

    var storage = Storage(capacity: 1024)
    /// How many entries the batch holds.
    public internal(set) var count = 0

    /// Entry `index` (`0 ..< count`), in event order.
    public subscript(index: Int) -> Entry {
        precondition(index >= 0 && index < count, "entry index out of range")
        return withEntries { $0[index] }
    }

    /// The batch's events, in order.
    public var entries: [Entry] { withEntries { Array($0) } }

    /// Calls `body` with the entries in place (valid only during the call): what a fold loop reads.
    public func withEntries<R>(_ body: (Entries) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) {
            try body(Entries(times: storage.times, words: storage.words, parents: storage.parents, wideSlots: storage.wideSlots, count: count))
        }
    }

    /// The events that are not callback entries, as records (`Entry.record`).
    public internal(set) var records: [EventRecord] = []
    /// For each of `records` (subscript by record index): the `Event` of a record of kind `.other`, `nil` for the
    /// others.
    public internal(set) var events = OtherEvents()

    /// The `Event`s of a batch's records of kind `.other`, by record index (kept apart: most batches have none,
    /// and an `Event?` per record cost more than the record).
    public struct OtherEvents {
        /// The record indices that have an event, ascending, and their events.
        private var indices: [Int] = []
        private var values: [Event] = []

        /// The event of record `index`, or `nil` when it has none.
        public subscript(index: Int) -> Event? {
            if indices.isEmpty { return nil }
            var low = 0
            var high = indices.count
            while low < high {
                let middle = (low + high) / 2
                if indices[middle] < index { low = middle + 1 } else { high = middle }
            }
            return low < indices.count && indices[low] == index ? values[low] : nil
        }

        /// Adds the event of record `index` (greater than every index added since the last `removeAll()`).
        mutating func append(_ event: Event, at index: Int) {
            indices.append(index)
            values.append(event)
        }

        mutating func removeAll() {
            guard !indices.isEmpty else { return }
            indices.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
        }
    }
    /// Ordinal of the first entry.
    public internal(set) var firstOrdinal: UInt64 = 0
    /// The error that stopped decoding after the entries (`TraceError`, located like `FrameCursor.next()`'s);
    /// `nil` when the batch ended at its limit or at the end of the frame.
    public internal(set) var error: (any Error)?
    /// The frame has no events left (its end was checked), or decoding stopped at `error`.
    public internal(set) var isFinished = false

    public init() {}

    /// The record an entry stands for (a callback record built from a callback entry).
    public func record(of index: Int) -> EventRecord {
        let entry = self[index]
        if entry.isRecord { return records[Int(entry.record)] }
        var record = EventRecord(
            timestamp: entry.timestamp, ordinal: firstOrdinal + UInt64(index), callback: entry.callback, phase: entry.phase,
            animated: entry.animated, controller: entry.serial, controllerSlot: entry.slot
        )
        record.parent = entry.parent
        record.parentSerial = entry.parentSerial
        record.parentSlot = entry.parentSlot
        return record
    }

    mutating func reset(firstOrdinal: UInt64) {
        count = 0
        // The decoder writes a new array of records in place (`EventDecoder.decode(into:limit:)`).
        records = []
        events.removeAll()
        self.firstOrdinal = firstOrdinal
        error = nil
        isFinished = false
    }
}
