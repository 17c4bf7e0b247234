/// How the recorder buffers and flushes.
public struct RecorderOptions: Sendable {
    /// Events each recording thread's ring holds (rounded up to a power of two, at least 64); each event takes
    /// 32 bytes, and a thread gets its ring on its first event. When a thread's ring is full, its new events are
    /// dropped, counted, and the count is recorded as `RecorderEvent.eventsDropped`. Default 32 768 (1 MiB per
    /// recording thread).
    public var capacity: Int = 32_768
    /// The longest an event waits in memory before it is written, in nanoseconds. Default 1 s.
    public var flushInterval: UInt64 = 1_000_000_000
    /// Write a frame once this many events are waiting. Default 8192 (the trace writer's frame size).
    public var flushEventCount: Int = 8192
    /// How often the background thread looks for new events while busy, in nanoseconds; when idle it backs
    /// off up to 8× this. Default 5 ms.
    public var pollInterval: UInt64 = 5_000_000
    /// Whether `didEnterBackground` and `willTerminate` wait (on the calling thread) until everything recorded
    /// so far is written and fsynced. Default `true`: the recorder follows the lesson it audits — critical data
    /// is saved on background, while the app still has time (Apple: about 5 seconds in didEnterBackground).
    public var syncFlushOnBackground: Bool = true
    /// The process description written in `RecorderEvent.runStarted`; default `name[pid]`.
    public var processDescription: String?

    public init() {}
}
