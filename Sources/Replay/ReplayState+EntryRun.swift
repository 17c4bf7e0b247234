import TraceLog
import TraceModel

/// Folding part of a `RecordBatch` (added for the audit engine, which folds the events no rule looks at in runs
/// and stops at each event a rule looks at).
extension ReplayState {
    /// Folds the entries `entries[index..<end]` of a batch decoded from the frame `cursor` points to, in order, and
    /// leaves `index` at `end`: the same state as `apply(callback:ordinal:from:)` for each callback entry and
    /// `apply(_:from:)` for each record (the event of a record of kind `.other`, `apply(_:ordinal:)`), by the fast
    /// paths `Replayer` takes (runs of common callbacks through the controller table's pointers; app records with
    /// their scene interned once per frame string slot).
    ///
    /// - Parameters:
    ///   - entries: The batch's entries (`RecordBatch.withEntries`); `first` is the ordinal of `entries[0]`.
    ///   - records: The batch's `records`, `events` its `events` (read for record entries).
    ///   - sceneIndexes: A cache of interned scene names by string slot, valid for one frame: start each frame
    ///     with an empty array and pass the same one for all of that frame's runs.
    public mutating func fold(
        _ entries: RecordBatch.Entries, _ index: inout Int, end: Int, first: UInt64, records: [EventRecord],
        events: RecordBatch.OtherEvents, from cursor: UnsafePointer<FrameCursor>, sceneIndexes: inout [UInt32]
    ) {
        // The quiet path never looks past `end` (it pairs a begin with the very next entry only within the run).
        let run = entries.truncated(to: end)
        let refs = CursorRefs(cursor: cursor)
        while index < end {
            _ = foldQuietCallbacks(run, records, sceneIndexes: &sceneIndexes, &index, first: first, until: nil, refs)
            if index >= end { return }
            let entry = run[index]
            let ordinal = first &+ UInt64(index)
            index += 1
            if !entry.isRecord {
                apply(callback: entry, ordinal: ordinal, from: cursor)
                continue
            }
            applyBatchRecord(Int(entry.record), records, events, ordinal: ordinal, refs, sceneIndexes: &sceneIndexes)
        }
    }
}
