import TraceModel

/// Forwards every event to `primary` and keeps a copy in `copy`; controllers are registered with `primary`
/// only, so serials are the primary's. Used by `lifetrace simulate -o TRACE --print`.
public final class TeeSink: LifecycleSink {
    public let primary: any LifecycleSink
    public let copy: EventCollector

    public init(primary: any LifecycleSink, copy: EventCollector) {
        self.primary = primary
        self.copy = copy
    }

    public func registerController(typeName: String, at timestamp: UInt64) -> ControllerRef {
        primary.registerController(typeName: typeName, at: timestamp)
    }

    public func record(_ event: Event) {
        primary.record(event)
        copy.record(event)
    }
}

@available(*, unavailable)
extension TeeSink: Sendable {}
