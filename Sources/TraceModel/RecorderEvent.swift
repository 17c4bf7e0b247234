/// Events the recording machinery writes about itself.
public enum RecorderEvent: Sendable, Hashable {
    /// A recording run started (a process opened the trace for writing). `process` is a free-form description
    /// such as `Notes[2231]`.
    case runStarted(process: String)
    /// The recorder dropped `count` events because the writer fell behind (bounded memory: it never blocks the app).
    case eventsDropped(count: UInt64)
    /// A free-form note from a tool (an importer's summary, for example).
    case note(String)
}
