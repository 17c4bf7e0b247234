import Replay
import TraceLog
import TraceModel

/// The recorder's file sink: events go through Replay's `CheckpointingWriter`, which folds them and writes a
/// checkpoint frame every so many events or seconds (so `lifetrace state --at T` decodes at most one interval),
/// to a `TraceWriter` (one frame per flush; fsync on sync).
final class TraceWriterSink: EventSink {
    let writer: CheckpointingWriter

    init(_ writer: CheckpointingWriter) {
        self.writer = writer
    }

    func append(_ event: Event) throws { try writer.append(event) }
    func flush() throws { try writer.flush() }
    func sync() throws { try writer.writer.sync() }
    func close() throws { try writer.close() }
}
