import Simulator
import TraceModel

/// A `LifecycleSink` that forwards every event and shows how many of the session's events are done on a
/// `ProgressLine` (`lifetrace simulate --generate N` of millions of events).
final class ProgressSink: LifecycleSink {
    private let sink: any LifecycleSink
    private let line: ProgressLine
    private let total: UInt64
    private var recorded: UInt64 = 0

    init(forwardingTo sink: any LifecycleSink, line: ProgressLine, total: Int) {
        self.sink = sink
        self.line = line
        self.total = UInt64(total)
    }

    func registerController(typeName: String, at timestamp: UInt64) -> ControllerRef {
        sink.registerController(typeName: typeName, at: timestamp)
    }

    func record(_ event: Event) {
        sink.record(event)
        recorded += 1
        if recorded & 0xFFF == 0 {
            let (recorded, total) = (recorded, total)
            line.update("lifetrace simulate: \(ProgressLine.fraction(recorded, of: total, "events"))")
        }
    }
}
