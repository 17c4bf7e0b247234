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
    let events: RecordBatch.OtherEvents
    /// Folds `entries[index ..< end]` into the state and leaves `index` at `end`
    /// (`ReplayState.fold(_:_:end:first:records:events:from:sceneIndexes:)` with the batch's records, events, cursor
    /// and scene cache, which the closure holds for the batch: a call from here retains none of them).
    let fold: (inout ReplayState, inout Int, Int) -> Void
    /// The first entry not folded yet.
    var index = 0
    /// One past the entry being dispatched: what a catch-up folds up to.
    var end = 0

    init(entries: RecordBatch.Entries, first: UInt64, events: RecordBatch.OtherEvents, fold: @escaping (inout ReplayState, inout Int, Int) -> Void) {
        self.entries = entries
        self.first = first
        self.events = events
        self.fold = fold
    }
}
