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
    /// What the fold reads of the batch, held for the batch by the loop (a class reached unmanaged: a catch-up
    /// passes its buffers without retaining them, nor a closure context).
    final class Inputs {
        let entries: RecordBatch.Entries
        let first: UInt64
        let records: [EventRecord]
        let events: RecordBatch.OtherEvents
        let cursor: UnsafePointer<FrameCursor>
        /// `applyAppRecord`'s scene cache for the frame (`ReplayState.fold`'s `sceneIndexes`).
        let sceneIndexes: UnsafeMutablePointer<[UInt32]>

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

        /// Folds `entries[index ..< end]` into `state` and leaves `index` at `end`
        /// (`ReplayState.fold(_:_:end:first:records:events:from:sceneIndexes:)`).
        func fold(_ state: inout ReplayState, _ index: inout Int, end: Int) {
            state.fold(entries, &index, end: end, first: first, records: records, events: events, from: cursor, sceneIndexes: &sceneIndexes.pointee)
        }
    }

    let entries: RecordBatch.Entries
    let first: UInt64
    /// The batch's inputs; the batch loop keeps them alive while this exists.
    let inputs: Unmanaged<Inputs>
    /// The first entry not folded yet.
    var index = 0
    /// One past the entry being dispatched: what a catch-up folds up to.
    var end = 0
    /// The batch's records' storage (`nil` when it has none; valid for the batch): what
    /// `ReplayBox.openBeginBeforeMark(_:_:)` reads record entries' kinds from.
    var recordBase: UnsafePointer<EventRecord>?

    init(_ inputs: Inputs) {
        entries = inputs.entries
        first = inputs.first
        self.inputs = .passUnretained(inputs)
    }
}
