import TraceModel

/// A `LifecycleSink` that writes each event as a `CallbackOrderStream` line as it arrives, and forwards it to
/// `primary` (when given). Holds no events: for printing long generated sessions.
///
/// Without a primary, controllers get serials 1, 2, 3, … like `EventCollector`.
public final class PrintingSink: LifecycleSink {
    private let primary: (any LifecycleSink)?
    private let write: (String) -> Void
    private var stream: CallbackOrderStream
    private var nextSerial: UInt32 = 1

    /// - Parameter write: Receives each line, without a newline.
    public init(forwardingTo primary: (any LifecycleSink)? = nil, timeWidth: Int = 10, write: @escaping (String) -> Void) {
        self.primary = primary
        self.write = write
        self.stream = CallbackOrderStream(timeWidth: timeWidth)
    }

    public func registerController(typeName: String, at timestamp: UInt64) -> ControllerRef {
        if let primary { return primary.registerController(typeName: typeName, at: timestamp) }
        defer { nextSerial += 1 }
        return ControllerRef(serial: nextSerial, typeName: typeName)
    }

    public func record(_ event: Event) {
        primary?.record(event)
        if let line = stream.line(for: event) { write(line) }
    }
}

@available(*, unavailable)
extension PrintingSink: Sendable {}
