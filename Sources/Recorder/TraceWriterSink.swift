import TraceLog
import TraceModel

/// The recorder's file sink: events go to a `TraceWriter` (one frame per flush, fsync on sync).
final class TraceWriterSink: EventSink {
    let writer: TraceWriter

    init(_ writer: TraceWriter) {
        self.writer = writer
    }

    func append(_ event: Event) throws { try writer.append(event) }
    func flush() throws { try writer.flush() }
    func sync() throws { try writer.sync() }
    func close() throws { try writer.close() }
}
