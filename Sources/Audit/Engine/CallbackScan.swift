import TraceLog
import TraceModel

/// The callback entries of a batch lent to a monitor that reads them itself (`RuleMonitor.scannedCallbacks`): the
/// batch loop lists, per scanning monitor, by index in `entries`, the callback entries whose (callback, phase) pair
/// the monitor scans, and lends the monitor those it has not read yet (`index(at:)` of `positions`): every entry
/// listed is one of its own pairs.
///
/// Why: the engine's call per delivered callback (filling the record, the context, the call through the table)
/// costs ≈ 100 instructions; a monitor that needs many callbacks and little per callback (a table probe and a
/// store) pays less reading the entry's word itself (`RecordBatch.Word`: serial, callback code, phase). Record
/// entries (containers, marks, app events, callbacks with a source) are not listed: they reach the monitor through
/// `observe(record:_:_:)` and `observe(_:_:_:)` as for any monitor, as do the callbacks of its `callbackFilter` it
/// does not scan (`observe(callback:_:_:)`). The engine lends a scanning monitor the entries listed for it before it
/// calls it for anything else (or asks its serial filter), at the end of each batch and before an event dispatched
/// as an `Event`, so the monitor sees all its events in trace order.
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

    /// The list positions lent, in trace order (`index(at:)`).
    @inline(__always)
    public var positions: Range<Int> { 0..<count }

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
