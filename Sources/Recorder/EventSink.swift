import TraceModel

/// Where the recorder's background thread delivers events: a trace file writer, or an in-memory sink in tests.
///
/// Every method is called on the recorder's background thread only, never concurrently and never from a
/// recording thread. Events arrive with non-decreasing timestamps.
public protocol EventSink: AnyObject {
    /// Adds one event to the sink's current (unwritten) batch.
    func append(_ event: Event) throws
    /// Writes the current batch out (for a file: one frame, one `write`).
    func flush() throws
    /// Makes written data durable (for a file: `fsync`).
    func sync() throws
    /// Flushes, syncs and releases the sink; no call follows.
    func close() throws
}
