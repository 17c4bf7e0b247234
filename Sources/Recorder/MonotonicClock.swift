#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The default clock: a monotonic clock that keeps counting while the device sleeps.
///
/// - Linux: `clock_gettime(CLOCK_BOOTTIME)`, which is `CLOCK_MONOTONIC` plus the time the system spent
///   suspended (clock_gettime(2)); served from the vDSO, so no system call on current kernels.
/// - Apple platforms: `mach_continuous_time()` scaled by `mach_timebase_info`, which, unlike
///   `mach_absolute_time()`, keeps advancing while the device sleeps (Apple: "mach_continuous_time").
///
/// Why sleep counts: the audit's leak rule gives a removed controller a grace period in seconds before it
/// expects `deinit`. If the device slept in between, the wall time that passed is what a person reads on a
/// timeline, and a clock that stopped during sleep would both shrink the gap and misplace events against the
/// file header's wall-clock anchor. The trace header records the domain as `boottime` (Linux) or
/// `continuous` (Apple).
public struct MonotonicClock: TraceClock {
    #if canImport(Darwin)
    private let numerator: UInt64
    private let denominator: UInt64
    #endif

    public init() {
        #if canImport(Darwin)
        var info = mach_timebase_info_data_t()
        mach_timebase_info(&info)
        numerator = UInt64(info.numer)
        denominator = UInt64(max(info.denom, 1))
        #endif
    }

    /// The name of the underlying clock: `CLOCK_BOOTTIME` or `mach_continuous_time`.
    public static var clockName: String {
        #if canImport(Darwin)
        "mach_continuous_time"
        #else
        "CLOCK_BOOTTIME"
        #endif
    }

    @inline(__always)
    public func now() -> UInt64 {
        #if canImport(Darwin)
        let ticks = mach_continuous_time()
        return numerator == denominator ? ticks : ticks &* numerator / denominator
        #else
        var spec = timespec()
        clock_gettime(CLOCK_BOOTTIME, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
        #endif
    }
}
