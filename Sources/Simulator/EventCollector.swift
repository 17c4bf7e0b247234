import TraceModel

/// An in-memory `LifecycleSink`: hands out serials 1, 2, 3, … and keeps every event in order.
///
/// Not `Sendable`: a simulation runs on one thread, and the collector is read after it finishes.
public final class EventCollector: LifecycleSink {
    /// Every recorded event, in the order recorded.
    public private(set) var events: [Event] = []
    /// Every registered controller, in registration order (index = serial - 1).
    public private(set) var controllers: [ControllerRef] = []

    public init() {}

    public func registerController(typeName: String, at timestamp: UInt64) -> ControllerRef {
        let ref = ControllerRef(serial: UInt32(controllers.count + 1), typeName: typeName)
        controllers.append(ref)
        return ref
    }

    public func record(_ event: Event) {
        events.append(event)
    }

    /// Forgets the events recorded so far (controllers stay registered); the generator uses this to stream.
    public func removeAllEvents() {
        events.removeAll(keepingCapacity: true)
    }
}

@available(*, unavailable)
extension EventCollector: Sendable {}
