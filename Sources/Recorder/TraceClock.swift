/// A source of timestamps for the recorder: `UInt64` nanoseconds on a monotonic clock.
///
/// The recorder calls `now()` on the recording thread for every event, so an implementation must be cheap,
/// must not allocate and must not block. Values must never go backwards for a single caller; the recorder
/// additionally makes the recorded sequence non-decreasing across threads (see `Recorder`).
public protocol TraceClock: Sendable {
    /// Nanoseconds since an arbitrary fixed origin (for `MonotonicClock`: the boot of the machine).
    func now() -> UInt64
}
