/// What a trace file says about itself: format version, clock, wall-clock anchor, identity and producer.
///
/// Stored at offset 0 of every `.lifetrace` file; see docs/FORMAT.md §2 for the bytes.
public struct TraceHeader: Sendable, Equatable {
    /// The format major version this library writes. A reader refuses files with a larger major and reads 1.x
    /// files too (docs/FORMAT.md §9).
    public static let currentMajor: UInt16 = 2
    /// The format minor version this library writes. Readers read files of any minor of their major.
    public static let currentMinor: UInt16 = 0

    public var formatMajor: UInt16
    public var formatMinor: UInt16
    /// The monotonic clock the timestamps come from.
    public var clockDomain: ClockDomain
    /// A monotonic instant and the wall-clock time it happened at, so times can be shown as dates.
    public var wallClockAnchor: WallClockAnchor
    /// 16 random bytes identifying the trace (kept across reopen-for-append).
    public var traceID: [UInt8]
    /// The program that created the file, e.g. `lifetrace-import 0.1.0` (UTF-8, at most 65535 bytes).
    public var producer: String
    /// Whether the timestamps were invented (an imported log had none); durations then mean nothing.
    public var hasSyntheticTimes: Bool

    /// - Parameters:
    ///   - clockDomain: Where the timestamps come from.
    ///   - wallClockAnchor: A monotonic instant and its wall-clock time.
    ///   - producer: Name and version of the writing program.
    ///   - hasSyntheticTimes: `true` when the times were made up.
    ///   - traceID: 16 bytes; a fresh random id by default.
    public init(
        clockDomain: ClockDomain,
        wallClockAnchor: WallClockAnchor,
        producer: String,
        hasSyntheticTimes: Bool = false,
        traceID: [UInt8] = TraceHeader.randomTraceID()
    ) {
        self.formatMajor = Self.currentMajor
        self.formatMinor = Self.currentMinor
        self.clockDomain = clockDomain
        self.wallClockAnchor = wallClockAnchor
        self.traceID = traceID
        self.producer = producer
        self.hasSyntheticTimes = hasSyntheticTimes
    }

    /// 16 bytes from the system's random number generator.
    public static func randomTraceID() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// The trace id as 32 lowercase hex digits.
    public var traceIDHex: String {
        traceID.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
        }.joined()
    }
}
