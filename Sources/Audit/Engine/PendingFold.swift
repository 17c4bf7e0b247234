import Replay
import TraceLog

/// The part of a batch the audit session has dispatched but not yet folded into its `ReplayState`: entries
/// `index ..< end` (`end` is the entry being dispatched, plus one). The session scans a batch and calls the
/// monitors as it goes; the fold catches up only when a monitor reads the state (`ReplayBox.catchUp()`, from
/// `EventContext.state` and `CallbackAttribution`), so a run of events nobody reads the state at is folded in one
/// `ReplayState.fold` call, however many monitors were called in it.
///
/// Lives on the stack of the batch loop for one batch (`ReplayBox.pending` points to it meanwhile).
struct PendingFold {
    let entries: RecordBatch.Entries
    let first: UInt64
    let records: [EventRecord]
    let events: RecordBatch.OtherEvents
    let cursor: UnsafePointer<FrameCursor>
    let sceneIndexes: UnsafeMutablePointer<[UInt32]>
    /// The first entry not folded yet.
    var index = 0
    /// One past the entry being dispatched: what a catch-up folds up to.
    var end = 0

    init(
        entries: RecordBatch.Entries, first: UInt64, records: [EventRecord], events: RecordBatch.OtherEvents,
        cursor: UnsafePointer<FrameCursor>, sceneIndexes: UnsafeMutablePointer<[UInt32]>
    ) {
        self.entries = entries
        self.first = first
        self.records = records
        self.events = events
        self.cursor = cursor
        self.sceneIndexes = sceneIndexes
    }
}
