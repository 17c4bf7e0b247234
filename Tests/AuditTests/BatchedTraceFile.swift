import Foundation
import TraceLog
import TraceModel

@testable import Audit

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

    /// Gives every event of `reader` to `session` one at a time (the `Event` path, `observe(_:ordinal:)`), without
    /// finishing it.
    ///
    /// - Throws: what decoding the trace throws.
    static func observeByEvents(_ reader: TraceReader, _ session: AuditSession) throws {
        try reader.forEachEvent { ordinal, event in session.observe(event, ordinal: ordinal) }
    }

    /// Gives every events frame of `reader` to `session` in record batches (the fast path,
    /// `observeRest(of:batch:)`), without finishing it.
    ///
    /// - Throws: what decoding the trace throws.
    static func observeByBatches(_ reader: TraceReader, _ session: AuditSession) throws {
        var batch = RecordBatch()
        for frame in reader.frames {
            var cursor = try reader.cursor(for: frame)
            try session.observeRest(of: &cursor, batch: &batch)
        }
    }
}
