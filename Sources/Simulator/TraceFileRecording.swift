import Recorder
import TraceLog
import TraceModel

/// Records a simulation into a `.lifetrace` file through the real Recorder, byte-identically for the same
/// input: a `ManualClock` carries the simulated time, the header has a fixed wall-clock anchor and a trace id
/// derived from `identity`, and frames are cut by the writer's own size policy (every 8192 events or 128 KiB),
/// never by the recorder's time-based flushes.
public enum TraceFileRecording {
    /// The wall-clock instant simulated time 0 stands for: 2026-01-01T00:00:00Z, in Unix nanoseconds.
    public static let anchorUnixNanoseconds: Int64 = 1_767_225_600_000_000_000
    /// The producer written in the header and in `RecorderEvent.runStarted`.
    public static let producer = "lifetrace simulate"

    /// Creates (or replaces) `path`, runs `body` with a sink that records into it, and closes the file.
    ///
    /// If `body` throws, everything it recorded before is still written and the file is closed cleanly; the
    /// error is then rethrown.
    /// - Parameters:
    ///   - identity: Bytes that identify the input (the scenario text, or the generator's seed); the trace id
    ///     is a 128-bit FNV-1a hash of them.
    /// - Throws: `TraceError` when the file cannot be created or written, `RecorderError` when the recorder's
    ///   writer failed, or what `body` throws.
    @discardableResult
    public static func record<Result>(
        to path: String,
        identity: [UInt8],
        body: (any LifecycleSink) throws -> Result
    ) throws -> Result {
        let header = TraceHeader(
            clockDomain: .synthetic,
            wallClockAnchor: WallClockAnchor(unixNanoseconds: anchorUnixNanoseconds, monotonicNanoseconds: 0),
            producer: producer,
            traceID: traceID(for: identity)
        )
        let writer = try TraceWriter(creating: path, header: header)
        var options = RecorderOptions()
        options.processDescription = producer
        let clock = ManualClock(start: 0)
        let recorder = Recorder(sink: WriterSink(writer), options: options, clock: clock)
        let sink = RecorderSink(recorder: recorder, clock: clock, flushEvery: options.capacity / 2)
        let result: Result
        do {
            result = try body(sink)
        } catch {
            try? recorder.close()
            throw error
        }
        try recorder.close()
        return result
    }

    /// 16 bytes: FNV-1a 64 of `identity`, twice with different offsets.
    public static func traceID(for identity: [UInt8]) -> [UInt8] {
        func fnv(_ basis: UInt64) -> UInt64 {
            var hash = basis
            for byte in identity {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
            return hash
        }
        let high = fnv(0xCBF2_9CE4_8422_2325)
        let low = fnv(0x6C62_272E_07BB_0142)
        return (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
    }
}

/// Feeds the recorder's events to a `TraceWriter`, ignoring the recorder's flush requests so that frame
/// boundaries depend on the events only (the writer still cuts frames by size). Used on the recorder's
/// background thread only.
final class WriterSink: EventSink {
    private let writer: TraceWriter

    init(_ writer: TraceWriter) {
        self.writer = writer
    }

    func append(_ event: Event) throws {
        try writer.append(event)
    }

    func flush() throws {}

    func sync() throws {}

    func close() throws {
        try writer.close()
    }
}
