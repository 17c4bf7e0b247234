import TraceLog
import TraceModel

/// Replays a `.lifetrace` file: streams its events through the fold, and answers "what was the state at t"
/// from the nearest checkpoint.
///
/// Memory: events are decoded one frame at a time; the state grows with the number of controllers (dead ones
/// keep a record) and diagnostics, never with the number of events.
///
/// Not `Sendable`-restricted: `TraceReader` is `Sendable` and this holds nothing else mutable.
public struct Replayer: Sendable {
    /// The trace being replayed.
    public let reader: TraceReader

    public init(reader: TraceReader) {
        self.reader = reader
    }

    /// Opens the trace at `path`.
    ///
    /// - Throws: `TraceError` from `TraceReader.init(path:)` (not a trace, a newer major version, unreadable).
    public init(path: String) throws {
        self.reader = try TraceReader(path: path)
    }

    /// How a `state(at:)` was answered.
    public struct Seek: Sendable {
        /// The state after every event with timestamp ≤ the instant.
        public var state: ReplayState
        /// The checkpoint the replay started from, or `nil` when it started at the beginning.
        public var checkpoint: FrameInfo?
        /// Checkpoints tried and rejected (CRC failure, undecodable, inconsistent), newest first.
        public var skippedCheckpoints: [any Error]
        /// Events decoded and applied after the checkpoint.
        public var eventsApplied: UInt64
    }

    /// Replays the whole trace from the start.
    ///
    /// - Throws: `TraceError` `.corruptFrame` when an events frame of the valid prefix fails to decode (the
    ///   visitor has seen every event before it); whatever the visitor throws.
    /// - Returns: The state after the last event of the valid prefix.
    @discardableResult
    public func replay<V: ReplayVisitor>(visitor: inout V) throws -> ReplayState {
        var state = ReplayState()
        try run(from: 0, state: &state, until: nil, visitor: &visitor)
        return state
    }

    /// Replays the whole trace from the start without a visitor: the fast path (`FrameCursor` records folded by
    /// `ReplayState.apply(_:from:)`, no `Event` built for a callback).
    ///
    /// - Throws: `TraceError` `.corruptFrame` when an events frame of the valid prefix fails to decode.
    /// - Returns: The state after the last event of the valid prefix.
    public func replay() throws -> ReplayState {
        var state = ReplayState()
        var visitor = NoVisitor()
        try run(from: 0, state: &state, until: nil, visitor: &visitor)
        return state
    }

    /// The state after the last event of the valid prefix, from the last good checkpoint.
    public func finalState() throws -> ReplayState {
        try seek(to: UInt64.max).state
    }

    /// The state after every event whose timestamp is ≤ `instant`.
    ///
    /// Starts from the last checkpoint at or before `instant` that decodes (falling back to earlier ones, then to
    /// the start of the trace), then applies the events after it: at most one checkpoint interval is decoded.
    ///
    /// - Parameter instant: Nanoseconds on the trace's monotonic clock (not relative to the first event; add
    ///   `reader.timeSpan?.lowerBound` for that).
    /// - Throws: `TraceError` `.corruptFrame` when an events frame needed after the checkpoint fails to decode.
    public func state(at instant: UInt64) throws -> ReplayState {
        try seek(to: instant).state
    }

    /// `state(at:)` with the details of how it was answered.
    public func seek(to instant: UInt64) throws -> Seek {
        var skipped: [any Error] = []
        // Checkpoints are found, and the frames after one are found, by event ordinals. In a file whose frames
        // are out of sequence (spliced from another trace, a header rewritten with a fresh CRC) the ordinals
        // cannot be trusted: a seek from a checkpoint skipped a relabelled frame's events. Such a file is
        // replayed from the start, in file order, like every other command reads it.
        var candidate = framesAreInSequence ? lastCheckpoint(atOrBefore: instant) : nil
        while let index = candidate {
            let frame = reader.checkpoints[index]
            do {
                var state = try decodeCheckpoint(frame)
                let before = state.eventCount
                var visitor = NoVisitor()
                try run(from: frame.firstOrdinal, state: &state, until: instant, visitor: &visitor)
                return Seek(state: state, checkpoint: frame, skippedCheckpoints: skipped, eventsApplied: state.eventCount - before)
            } catch let error as CheckpointError {
                skipped.append(error)
            } catch let error as TraceError where error.offset == frame.offset {
                skipped.append(error)
            }
            candidate = index > 0 ? index - 1 : nil
        }
        var state = ReplayState()
        var visitor = NoVisitor()
        try run(from: 0, state: &state, until: instant, visitor: &visitor)
        return Seek(state: state, checkpoint: nil, skippedCheckpoints: skipped, eventsApplied: state.eventCount)
    }

    /// Decodes the checkpoint `frame` and checks it covers exactly the events before `frame.firstOrdinal`.
    ///
    /// - Throws: `TraceError` (CRC failure, with the frame's offset) or `CheckpointError`.
    public func decodeCheckpoint(_ frame: FrameInfo) throws -> ReplayState {
        let payload = try reader.checkpointPayload(frame)
        let state = try ReplayState(checkpointPayload: payload)
        guard state.eventCount == frame.firstOrdinal else {
            throw CheckpointError(.inconsistent, "checkpoint at offset \(frame.offset) covers \(state.eventCount) events, its frame says \(frame.firstOrdinal)")
        }
        if frame.firstOrdinal > 0, state.time != frame.firstTimestamp {
            throw CheckpointError(.inconsistent, "checkpoint at offset \(frame.offset) ends at \(state.time ?? 0) ns, its frame says \(frame.firstTimestamp) ns")
        }
        return state
    }

    /// Whether the reader found the frames' sequence numbers, ordinals and times in order (no `.sequenceGap` or
    /// `.timestampWentBackwards` problem), so that checkpoints can be used.
    var framesAreInSequence: Bool {
        !reader.problems.contains { $0.code == .sequenceGap || $0.code == .timestampWentBackwards }
    }

    /// The last checkpoint whose covered events all have timestamps ≤ `instant`.
    func lastCheckpoint(atOrBefore instant: UInt64) -> Int? {
        let checkpoints = reader.checkpoints
        var low = 0
        var high = checkpoints.count
        while low < high {
            let middle = (low + high) / 2
            // A checkpoint's timestamps are its last covered event's; one covering no events is always usable.
            if checkpoints[middle].firstOrdinal == 0 || checkpoints[middle].firstTimestamp <= instant {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low > 0 ? low - 1 : nil
    }

    /// Applies the events with ordinal ≥ `ordinal` (and timestamp ≤ `instant`, when given) to `state`.
    private func run<V: ReplayVisitor>(from ordinal: UInt64, state: inout ReplayState, until instant: UInt64?, visitor: inout V) throws {
        let frames = reader.frames
        // The first events frame that holds `ordinal` (frames are contiguous in ordinals).
        var low = 0
        var high = frames.count
        while low < high {
            let middle = (low + high) / 2
            if frames[middle].firstOrdinal + UInt64(frames[middle].eventCount) <= ordinal {
                low = middle + 1
            } else {
                high = middle
            }
        }
        var batch = RecordBatch()
        for position in low..<frames.count {
            let frame = frames[position]
            if let instant, frame.firstTimestamp > instant { return }
            var cursor = try reader.cursor(for: frame)
            if V.self == NoVisitor.self {
                if try !state.applyRest(of: &cursor, from: ordinal, until: instant, batch: &batch) { return }
                continue
            }
            while let record = try cursor.next() {
                if record.ordinal < ordinal { continue }
                if let instant, record.timestamp > instant { return }
                let event = cursor.event(of: record)
                try visitor.willApply(event, ordinal: record.ordinal, to: state)
                state.apply(event, ordinal: record.ordinal)
                try visitor.didApply(event, ordinal: record.ordinal, giving: state)
            }
        }
    }
}

/// The visitor that does nothing (fast path for seeking).
struct NoVisitor: ReplayVisitor {}
