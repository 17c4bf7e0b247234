import TraceLog

/// What an audited input says about itself, carried on every line of the NDJSON report so a line read alone
/// (in a fleet job, a log pipeline) still says which trace it is about.
public struct TraceIdentity: Sendable, Hashable {
    /// The input's path as the user gave it (or as found under a directory).
    public var path: String
    /// The trace id from the file header (32 lowercase hex digits), or `nil` when the input has no header (a
    /// JSON Lines file without a header line) or could not be opened.
    public var traceID: String?
    /// The program that wrote the trace, from the header (`lifetrace-import 0.1.0`), or `nil` as for `traceID`.
    public var producer: String?
    /// The header's wall-clock anchor, which maps the trace's monotonic nanoseconds to Unix time (the NDJSON
    /// `unix_ns` of a finding), or `nil` when the input has no header, no anchor (`WallClockAnchor.none`), could not
    /// be opened, or has synthetic times (an imported log without times: durations and dates then mean nothing).
    public var wallClockAnchor: WallClockAnchor?

    public init(
        path: String, traceID: String? = nil, producer: String? = nil, wallClockAnchor: WallClockAnchor? = nil
    ) {
        self.path = path
        self.traceID = traceID
        self.producer = producer
        self.wallClockAnchor = wallClockAnchor
    }

    /// The Unix time, in nanoseconds since 1970-01-01T00:00:00Z, of `timestamp` (nanoseconds on the trace's
    /// monotonic clock), or `nil` without a wall-clock anchor.
    public func unixNanoseconds(at timestamp: UInt64) -> Int64? {
        wallClockAnchor?.unixNanoseconds(at: timestamp)
    }
}
