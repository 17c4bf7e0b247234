import Foundation
import TraceLog
import TraceModel

/// A trace written to a temporary file in small frames, for the tests that compare the audit's record-batch paths
/// with its event-by-event path: frames of at most `frameEvents` events give many batch boundaries.
enum BatchedTraceFile {
    /// Writes `events` to a new file in the temporary directory (`lifetrace-NAME-UUID.lifetrace`; the caller removes
    /// it) with a synthetic clock and the trace id `traceIDByte` × 16, and opens it.
    ///
    /// - Throws: what `TraceWriter` or `TraceReader` throws.
    static func write(_ events: [Event], frameEvents: Int, name: String, traceIDByte: UInt8) throws -> (path: String, reader: TraceReader) {
        let path = FileManager.default.temporaryDirectory.path + "/lifetrace-\(name)-\(UUID().uuidString).lifetrace"
        var options = TraceWriter.Options()
        options.maxEventsPerFrame = frameEvents
        let writer = try TraceWriter(
            creating: path,
            header: TraceHeader(
                clockDomain: .synthetic, wallClockAnchor: .none, producer: "AuditTests", hasSyntheticTimes: true,
                traceID: Array(repeating: traceIDByte, count: 16)),
            options: options)
        try writer.append(contentsOf: events)
        try writer.close()
        return (path, try TraceReader(path: path))
    }
}
