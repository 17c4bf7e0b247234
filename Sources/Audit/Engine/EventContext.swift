import Replay
import TraceModel

/// What a monitor knows about an event besides the event itself: its ordinal, where the trace started, which
/// callbacks are executing (`CallbackAttribution`), and the replayed state (`ReplayState`, after the event).
public struct EventContext {
    /// The event's ordinal in the trace (0-based).
    public let ordinal: UInt64
    /// The first event's timestamp; human times in messages are measured from it.
    public let traceStart: UInt64
    /// The timestamp of the event before this one (of any kind), `nil` for the first event. At a
    /// `RecorderEvent.runStarted` it is the last event recorded by the previous run's process.
    public let previousTimestamp: UInt64?
    private let replay: ReplayBox

    init(ordinal: UInt64, traceStart: UInt64, previousTimestamp: UInt64? = nil, replay: ReplayBox) {
        self.ordinal = ordinal
        self.traceStart = traceStart
        self.previousTimestamp = previousTimestamp
        self.replay = replay
    }

    /// Which callbacks are executing, after the event was applied (read from the replayed state).
    public var attribution: CallbackAttribution { CallbackAttribution(replay: replay) }

    /// The replayed state of the whole trace after this event (`Replay`'s fold).
    public var state: ReplayState { replay.state }

    /// `timestamp` as seconds since the first event of the trace, e.g. `5.904 s`.
    public func time(_ timestamp: UInt64) -> String {
        TimeText.seconds(timestamp >= traceStart ? timestamp - traceStart : 0)
    }

    /// The callback `event` belongs to: the callback itself for a callback event, the delegate callback for an
    /// app event, the attributed callback (`CallbackAttribution`) for anything else.
    public func enclosingCallback(of event: Event) -> EnclosingCallback? {
        switch event.payload {
        case .callback(let callback):
            EnclosingCallback(subject: .controller(callback.controller, callback.callback), ordinal: ordinal, timestamp: event.timestamp, isInstantWindow: callback.phase == .instant)
        case .app(let app):
            EnclosingCallback(subject: .app(app), ordinal: ordinal, timestamp: event.timestamp, isInstantWindow: app.phase == .instant)
        default:
            attribution.enclosing(of: event.controller)
        }
    }

    /// A related-event entry for `event` at this context's ordinal.
    public func related(_ event: Event, _ message: String) -> RelatedEvent {
        RelatedEvent(ordinal: ordinal, timestamp: event.timestamp, message: message, source: event.source)
    }
}
