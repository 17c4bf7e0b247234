/// Ties the trace's monotonic clock to wall-clock time: the monotonic instant `monotonicNanoseconds` happened
/// at `unixNanoseconds` (nanoseconds since 1970-01-01T00:00:00Z, UTC).
///
/// A timestamp `t` shows as the date `unixNanoseconds + (t - monotonicNanoseconds)`. The anchor is read once,
/// when the trace is created; later clock adjustments (NTP, the user changing the time) do not move it.
public struct WallClockAnchor: Sendable, Hashable {
    public var unixNanoseconds: Int64
    public var monotonicNanoseconds: UInt64

    public init(unixNanoseconds: Int64, monotonicNanoseconds: UInt64) {
        self.unixNanoseconds = unixNanoseconds
        self.monotonicNanoseconds = monotonicNanoseconds
    }

    /// The Unix time in nanoseconds of monotonic instant `timestamp`.
    public func unixNanoseconds(at timestamp: UInt64) -> Int64 {
        if timestamp >= monotonicNanoseconds {
            return unixNanoseconds &+ Int64(truncatingIfNeeded: timestamp - monotonicNanoseconds)
        }
        return unixNanoseconds &- Int64(truncatingIfNeeded: monotonicNanoseconds - timestamp)
    }

    /// No anchor: Unix time 0 at monotonic 0.
    public static let none = WallClockAnchor(unixNanoseconds: 0, monotonicNanoseconds: 0)
}
