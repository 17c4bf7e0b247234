import TraceModel

/// Where the simulator delivers what it simulates: the controllers it creates and the events they produce.
///
/// The simulator drives controllers the way an app's UIKit adapters do: it registers each controller once
/// (at `init`) and then reports callbacks (as begin/end intervals), container operations, app and scene
/// transitions, SwiftUI actions and marks, each stamped with the simulated time. `RecorderSink` forwards
/// them to the Recorder's instrumentation entry points; `EventCollector` keeps them in memory for tests.
///
/// Timestamps are `UInt64` nanoseconds on the simulated monotonic clock and never decrease.
public protocol LifecycleSink: AnyObject {
    /// Registers a new controller instance of `typeName` and returns its identity.
    ///
    /// - Parameter timestamp: The simulated time of the controller's creation (its `init` begins then).
    func registerController(typeName: String, at timestamp: UInt64) -> ControllerRef

    /// Records one event. Events arrive in non-decreasing timestamp order.
    func record(_ event: Event)
}
