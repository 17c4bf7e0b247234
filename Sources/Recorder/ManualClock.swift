import Synchronization

/// A clock that only moves when told to: for tests and for the simulator's virtual time.
///
/// Thread-safe. `now()` returns the current value; `advance(by:)` and `set(_:)` move it.
public final class ManualClock: TraceClock {
    private let value: Atomic<UInt64>

    /// - Parameter start: The first value `now()` returns, in nanoseconds.
    public init(start: UInt64 = 0) {
        value = Atomic(start)
    }

    public func now() -> UInt64 {
        value.load(ordering: .acquiring)
    }

    /// Moves the clock forward by `nanoseconds`.
    public func advance(by nanoseconds: UInt64) {
        value.add(nanoseconds, ordering: .acquiringAndReleasing)
    }

    /// Sets the clock to `nanoseconds`. Setting it backwards is allowed (to test the recorder's ordering); the
    /// recorder still writes non-decreasing timestamps.
    public func set(_ nanoseconds: UInt64) {
        value.store(nanoseconds, ordering: .releasing)
    }
}
