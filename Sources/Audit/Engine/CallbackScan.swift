import TraceLog
import TraceModel

/// The callback entries of a batch lent to a monitor that reads them itself (`RuleMonitor.scansCallbacks`): the
/// batch loop lists, by index in `entries`, the callback entries whose (callback, phase) pair some scanning
/// monitor's `callbackFilter` holds (the union of the scanners' filters: a monitor tests each listed entry's word
/// against its own); `index(at:)` of list positions `unread(_:)`.
///
/// Why: the engine's call per delivered callback (filling the record, the context, the call through the table)
/// costs ≈ 100 instructions; a monitor that needs many callbacks and little per callback (a table probe and a
/// store) pays less reading the entry's word itself (`RecordBatch.Word`: serial, callback code, phase). Record
/// entries (containers, marks, app events, callbacks with a source) are not listed: they reach the monitor through
/// `observe(record:_:_:)` and `observe(_:_:_:)` as for any monitor, and a monitor that gets both pulls the
/// callbacks listed before such a record first (`EventContext.callbackScan()`), so it sees its events in trace
/// order.
///
/// Valid during the call it is lent to. A scan must not read the replayed state (`EventContext.state`,
/// `attribution`): the fold is not at the entry scanned.
public struct CallbackScan {
    public let entries: RecordBatch.Entries
    /// The ordinal of `entries`' first entry.
    public let firstOrdinal: UInt64
    /// The listed entries' indexes in `entries`, ascending; `count` of them.
    let indexes: UnsafePointer<UInt32>
    public let count: Int
    let traceStart: UInt64
    /// The timestamp of the event before the batch (`nil` before the first event of the trace).
    let batchPrevious: UInt64?
    unowned(unsafe) let replay: ReplayBox

    init(
        entries: RecordBatch.Entries, firstOrdinal: UInt64, indexes: UnsafePointer<UInt32>, count: Int, traceStart: UInt64, batchPrevious: UInt64?,
        replay: ReplayBox
    ) {
        self.entries = entries
        self.firstOrdinal = firstOrdinal
        self.indexes = indexes
        self.count = count
        self.traceStart = traceStart
        self.batchPrevious = batchPrevious
        self.replay = replay
    }

    /// Where a monitor has read the list to: the batch (its first ordinal) and the list position.
    public struct Mark {
        var batch: UInt64 = .max
        var position = 0

        public init() {}
    }

    /// The list positions the monitor that read up to `mark` has not read (all of them in a new batch); `mark` then
    /// stands after them.
    @inline(__always)
    public func unread(_ mark: inout Mark) -> Range<Int> {
        let start = mark.batch == firstOrdinal ? min(mark.position, count) : 0
        mark.batch = firstOrdinal
        mark.position = count
        return start..<count
    }

    /// The index in `entries` of the listed entry at `position`.
    @inline(__always)
    public func index(at position: Int) -> Int {
        Int(truncatingIfNeeded: indexes[position])
    }

    /// The ordinal of entry `index`.
    @inline(__always)
    public func ordinal(at index: Int) -> UInt64 {
        firstOrdinal &+ UInt64(index)
    }

    /// The context of entry `index` (what `observe(callback:_:_:)` would get for it; for a finding: names, times).
    public func context(at index: Int) -> EventContext {
        EventContext(
            ordinal: ordinal(at: index), traceStart: traceStart,
            previousTimestamp: index > 0 ? entries.timestamp(at: index &- 1) : batchPrevious, replay: replay)
    }

    /// The record of the callback entry `index` (what `observe(callback:_:_:)` would get for it).
    public func record(at index: Int) -> EventRecord {
        var record = EventRecord(timestamp: 0, ordinal: 0, callback: .initialize, phase: .instant, animated: nil, controller: 0, controllerSlot: 0)
        AuditSession.fill(&record, from: entries[index], ordinal: ordinal(at: index))
        return record
    }
}

extension EventContext {
    /// Whether `callbackScan()` would list callbacks that a monitor that read up to `mark` has not read (`true`
    /// when in doubt): one comparison, asked before `callbackScan()` builds its scan.
    @inline(__always)
    public func hasUnreadCallbacks(after mark: CallbackScan.Mark) -> Bool {
        guard replay.pending != nil, !replay.isEvent else { return false }
        return mark.batch != replay.pending.unsafelyUnwrapped.pointee.first || mark.position < replay.scanCount
    }

    /// For a monitor that scans its callbacks (`RuleMonitor.scansCallbacks`), called for a record while the engine
    /// scans a batch: the callback entries listed before this record, so that the monitor reads those it has not
    /// read yet before it handles this one (`CallbackScan.unread(_:)`). `nil` when the record did not come in a
    /// batch (the monitor then got every callback through `observe(callback:_:_:)`).
    public func callbackScan() -> CallbackScan? {
        guard !replay.isEvent, let pending = replay.pending, let indexes = replay.scanIndexes else { return nil }
        return CallbackScan(
            entries: pending.pointee.entries, firstOrdinal: pending.pointee.first, indexes: indexes, count: replay.scanCount, traceStart: traceStart,
            batchPrevious: replay.batchPrevious, replay: replay)
    }
}
