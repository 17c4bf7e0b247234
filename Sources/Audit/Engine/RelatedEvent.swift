import TraceModel

/// Another event that explains a finding: where the save happened, where the pop was cancelled, where the
/// controller was removed.
public struct RelatedEvent: Sendable, Hashable {
    /// The event's ordinal in its trace (0-based: the first event is 0).
    public var ordinal: UInt64
    /// Nanoseconds on the trace's monotonic clock.
    public var timestamp: UInt64
    /// What this event is to the finding, e.g. `disappearance cancelled: NoteEditorViewController#2 viewWillAppear`.
    public var message: String
    /// The event's recorded source location, when it has one.
    public var source: EventSource?

    public init(ordinal: UInt64, timestamp: UInt64, message: String, source: EventSource? = nil) {
        self.ordinal = ordinal
        self.timestamp = timestamp
        self.message = message
        self.source = source
    }
}
