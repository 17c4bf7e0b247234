import TraceLog
import TraceModel

/// Appends events to a trace through a `TraceWriter`, folds each one, and writes a checkpoint frame every
/// `Policy.eventInterval` events or `Policy.timeInterval` nanoseconds of trace time (once
/// `Policy.minimumEventsForTimeTrigger` events accumulated), whichever comes first.
///
/// The recorder's writer thread, the simulator and the importers write through this so their traces seek fast.
/// Not thread-safe (one owner, like `TraceWriter`).
public final class CheckpointingWriter {
    /// When to write checkpoints.
    public struct Policy: Sendable, Equatable {
        /// A checkpoint after this many events since the previous one (0 disables the event trigger).
        public var eventInterval: UInt64
        /// A checkpoint once the trace clock advanced this many nanoseconds since the previous one, at the next
        /// event (0 disables the time trigger).
        public var timeInterval: UInt64

        /// - Parameters:
        ///   - eventInterval: Default 65 536 events. Measured with `lifetrace-bench checkpoints` (docs/REPLAY.md):
        ///     a seek then decodes at most one interval, which keeps `state(at:)` far under 1 % of a full replay
        ///     on 10^7 events, while the checkpoints add well under 1 % to the file for sessions with tens of live
        ///     controllers (a checkpoint is a few KiB; the trace is a few bytes per event).
        ///   - timeInterval: Default 0: off. Measured (docs/REPLAY.md): a seek's cost depends on the events it
        ///     decodes, not on trace time, so the event trigger alone bounds it; on the 10^7-event simulator session
        ///     (about 78 ms of trace time per event) a 600 s trigger wrote 1 119 checkpoints instead of 152, +18 %
        ///     file size, for no seek the event trigger did not already make fast. Set it for traces where you want
        ///     checkpoints by trace time as well (it still waits for `minimumEventsForTimeTrigger` events).
        public init(eventInterval: UInt64 = 65_536, timeInterval: UInt64 = 0) {
            self.eventInterval = eventInterval
            self.timeInterval = timeInterval
        }

        /// The time trigger waits for at least this many events since the previous checkpoint (or the event
        /// interval, when smaller).
        public static let minimumEventsForTimeTrigger: UInt64 = 4_096

        /// Never write checkpoints (except on explicit `writeCheckpoint()`).
        public static let never = Policy(eventInterval: 0, timeInterval: 0)
    }

    public let writer: TraceWriter
    public let policy: Policy
    /// The state after every event appended so far. This and the counters below are `@exclusivity(unchecked)`,
    /// as `TraceWriter`'s per-event properties: one owner, never lent out overlapping.
    @exclusivity(unchecked) public private(set) var state: ReplayState
    /// Checkpoints written by this writer.
    @exclusivity(unchecked) public private(set) var checkpointCount = 0
    @exclusivity(unchecked) private var eventsSinceCheckpoint: UInt64 = 0
    @exclusivity(unchecked) private var lastCheckpointTime: UInt64?

    /// Wraps `writer`, whose file must be new or end exactly where `state` ends.
    ///
    /// - Parameters:
    ///   - initialState: The state of the events already in the file (empty for a new file); see
    ///     `openForAppend(path:policy:options:)`.
    public init(writer: TraceWriter, policy: Policy = .init(), initialState: ReplayState = ReplayState()) {
        self.writer = writer
        self.policy = policy
        self.state = initialState
        self.lastCheckpointTime = initialState.time
    }

    /// Opens an existing trace for append, rebuilding the state of its events from its last good checkpoint.
    ///
    /// - Throws: `TraceError` as `TraceWriter.openForAppend(path:options:)` and `Replayer.finalState()`.
    public static func openForAppend(path: String, policy: Policy = .init(), options: TraceWriter.Options = .init()) throws -> CheckpointingWriter {
        let writer = try TraceWriter.openForAppend(path: path, options: options)
        do {
            let state = try Replayer(path: path).finalState()
            return CheckpointingWriter(writer: writer, policy: policy, initialState: state)
        } catch {
            try? writer.close()
            throw error
        }
    }

    /// Appends `event`, folds it, and writes a checkpoint when the policy says so.
    ///
    /// - Throws: `TraceError` from `TraceWriter.append(_:)` (the event is then neither written nor folded) or
    ///   from writing the checkpoint.
    public func append(_ event: Event) throws {
        let ordinal = writer.eventCount
        try writer.append(event)
        state.apply(event, ordinal: ordinal)
        eventsSinceCheckpoint += 1
        if lastCheckpointTime == nil { lastCheckpointTime = event.timestamp }
        let byCount = policy.eventInterval > 0 && eventsSinceCheckpoint >= policy.eventInterval
        let minimum = policy.eventInterval > 0 ? min(policy.eventInterval, Policy.minimumEventsForTimeTrigger) : Policy.minimumEventsForTimeTrigger
        let byTime = policy.timeInterval > 0 && eventsSinceCheckpoint >= minimum
            && event.timestamp &- (lastCheckpointTime ?? event.timestamp) >= policy.timeInterval
        if byCount || byTime {
            let payload = state.checkpointPayload()
            // A state too large for one frame (millions of live controllers) gets no checkpoint: checkpoints are an
            // optimisation, and a reader would refuse the frame (docs/FORMAT.md §3).
            if payload.count <= TraceWriter.maximumFramePayload {
                try writer.writeCheckpoint(payload)
                checkpointCount += 1
            }
            eventsSinceCheckpoint = 0
            lastCheckpointTime = state.time
        }
    }

    /// Appends every event of `events` in order; stops at the first that throws.
    public func append<S: Sequence>(contentsOf events: S) throws where S.Element == Event {
        for event in events { try append(event) }
    }

    /// Writes a checkpoint of the current state now (after flushing pending events).
    public func writeCheckpoint() throws {
        try writer.writeCheckpoint(state.checkpointPayload())
        checkpointCount += 1
        eventsSinceCheckpoint = 0
        lastCheckpointTime = state.time
    }

    /// Flushes pending events (see `TraceWriter.flush()`).
    public func flush() throws {
        try writer.flush()
    }

    /// Closes the trace (index and footer). No checkpoint is added: the events since the last one replay fast.
    public func close() throws {
        try writer.close()
    }
}

@available(*, unavailable)
extension CheckpointingWriter: Sendable {}
