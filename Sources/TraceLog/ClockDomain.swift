/// Which monotonic clock the trace's timestamps come from.
///
/// Whether time spent asleep counts matters for grace periods (a leak rule's "still alive 5 s after pop"):
/// `linuxBoottime` and `machContinuousTime` keep counting while the device sleeps; `linuxMonotonic` and
/// `machAbsoluteTime` stop. Recorders on Apple platforms should use `mach_continuous_time` (sleep counts), so
/// a trace's durations are wall-clock durations.
public enum ClockDomain: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Not known (an importer that cannot tell).
    case unknown = 0
    /// Linux `CLOCK_MONOTONIC`: does not count suspend.
    case linuxMonotonic = 1
    /// Linux `CLOCK_BOOTTIME`: counts suspend.
    case linuxBoottime = 2
    /// Apple `mach_continuous_time` converted to nanoseconds: counts sleep.
    case machContinuousTime = 3
    /// Apple `mach_absolute_time` converted to nanoseconds: does not count sleep.
    case machAbsoluteTime = 4
    /// Made-up times: a simulator's manual clock, or an importer that had to invent times.
    case synthetic = 5

    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .linuxMonotonic: "linuxMonotonic"
        case .linuxBoottime: "linuxBoottime"
        case .machContinuousTime: "machContinuousTime"
        case .machAbsoluteTime: "machAbsoluteTime"
        case .synthetic: "synthetic"
        }
    }

    public var description: String { name }

    /// Whether time asleep advances this clock (`nil` when unknown or synthetic).
    public var countsSleep: Bool? {
        switch self {
        case .linuxBoottime, .machContinuousTime: true
        case .linuxMonotonic, .machAbsoluteTime: false
        case .unknown, .synthetic: nil
        }
    }

    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }
}
