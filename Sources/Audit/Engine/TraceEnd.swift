import TraceModel

/// What a monitor knows when the trace ends.
public struct TraceEnd: Sendable, Hashable {
    /// The number of events in the trace.
    public var eventCount: UInt64
    /// The first and the last event's timestamps (nanoseconds, trace clock); both 0 for an empty trace.
    public var firstTimestamp: UInt64
    public var lastTimestamp: UInt64

    public init(eventCount: UInt64, firstTimestamp: UInt64, lastTimestamp: UInt64) {
        self.eventCount = eventCount
        self.firstTimestamp = firstTimestamp
        self.lastTimestamp = lastTimestamp
    }

    /// The last event's ordinal, or `nil` for an empty trace.
    public var lastOrdinal: UInt64? { eventCount == 0 ? nil : eventCount - 1 }

    /// `timestamp` as seconds since the first event, e.g. `30.001 s`.
    public func time(_ timestamp: UInt64) -> String {
        TimeText.seconds(timestamp >= firstTimestamp ? timestamp - firstTimestamp : 0)
    }
}
