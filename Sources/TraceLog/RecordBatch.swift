import TraceModel

/// A run of consecutive events of one frame, decoded together by `FrameCursor.decode(into:limit:)`: the
/// columnar form of the fast path, so that a consumer folds many events in one tight loop instead of calling the
/// decoder once per event.
///
/// `entries` holds one `Entry` per event, in order. A callback without a source or size argument (the common
/// event) is an entry of its own; any other event is an entry whose `record` indexes `records` (the full
/// `EventRecord`, read through the cursor's tables like any record) and, for a record of kind `.other`,
/// `events` (its `Event`). Buffers are reused from call to call.
public struct RecordBatch {
    /// One event of the batch.
    public struct Entry: Sendable, Hashable {
        /// Nanoseconds on the trace's monotonic clock.
        public var timestamp: UInt64
        /// The controller's serial and its slot in the frame's controller table (callback entries).
        public var serial: UInt32
        public var slot: UInt32
        /// The parent argument's controller serial and slot, when `parentKind` is `.controller`.
        public var parentSerial: UInt32
        public var parentSlot: UInt32
        /// The `Callback` raw value (callback entries).
        public var callbackCode: UInt8
        /// `Phase` raw value (callback entries).
        public var phaseCode: UInt8
        /// The `animated` argument as stored: 0 absent, 1 false, 2 true (callback entries).
        public var animatedCode: UInt8
        /// `EventRecord.Parent` raw value (callback entries).
        public var parentCode: UInt8
        /// `true` when the event is in `records` at index `record`; `false` for a callback entry.
        public var isRecord: Bool
        /// Index in `records` (and `events`) when `isRecord`.
        public var record: UInt32

        public var callback: Callback { Callback(rawValue: callbackCode) ?? .initialize }
        public var phase: Phase { Phase(rawValue: phaseCode) ?? .instant }
        public var parent: EventRecord.Parent { EventRecord.Parent(rawValue: parentCode) ?? .absent }
        public var animated: Bool? { animatedCode == 0 ? nil : animatedCode == 2 }
    }

    /// Storage for the entries, reused from call to call (grown when a call asks for more).
    final class Storage {
        private(set) var base: UnsafeMutablePointer<Entry>
        private(set) var capacity: Int

        init(capacity: Int) {
            self.capacity = Swift.max(1, capacity)
            base = .allocate(capacity: self.capacity)
        }

        func reserve(_ needed: Int) {
            guard needed > capacity else { return }
            base.deallocate()
            capacity = needed
            base = .allocate(capacity: needed)
        }

        deinit { base.deallocate() }
    }

    var storage = Storage(capacity: 1024)
    /// How many entries the batch holds.
    public internal(set) var count = 0

    /// Entry `index` (`0 ..< count`), in event order.
    public subscript(index: Int) -> Entry {
        precondition(index >= 0 && index < count, "entry index out of range")
        return storage.base[index]
    }

    /// The batch's events, in order.
    public var entries: [Entry] { Array(UnsafeBufferPointer(start: storage.base, count: count)) }

    /// Calls `body` with the entries in place (valid only during the call): what a fold loop reads.
    public func withEntries<R>(_ body: (UnsafeBufferPointer<Entry>) throws -> R) rethrows -> R {
        try withExtendedLifetime(storage) { try body(UnsafeBufferPointer(start: storage.base, count: count)) }
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
        if !records.isEmpty { records.removeAll(keepingCapacity: true) }
        events.removeAll()
        self.firstOrdinal = firstOrdinal
        error = nil
        isFinished = false
    }
}
