import Replay
import TraceLog
import TraceModel

/// What a monitor knows about an event besides the event itself: its ordinal, where the trace started, which
/// callbacks are executing (`CallbackAttribution`), the replayed state (`ReplayState`, after the event), and for a
/// callback record the `ControllerRef`s and source of the event being observed.
///
/// A context (and its `attribution`) is valid while the `AuditSession` that made it lives: a monitor may keep
/// one until `finish`, not beyond the session.
public struct EventContext {
    /// The event's ordinal in the trace (0-based).
    public let ordinal: UInt64
    /// The first event's timestamp; human times in messages are measured from it.
    public let traceStart: UInt64
    /// The timestamp of the event before this one (of any kind), `nil` for the first event. At a
    /// `RecorderEvent.runStarted` it is the last event recorded by the previous run's process.
    public let previousTimestamp: UInt64?
    /// Unowned: the session that makes contexts owns the box for as long as its monitors (which may keep a
    /// context) live, and a context made per event then costs no retain/release.
    private unowned(unsafe) let replay: ReplayBox

    init(ordinal: UInt64, traceStart: UInt64, previousTimestamp: UInt64? = nil, replay: ReplayBox) {
        self.ordinal = ordinal
        self.traceStart = traceStart
        self.previousTimestamp = previousTimestamp
        self.replay = replay
    }

    /// Which callbacks are executing, after the event was applied (read from the replayed state).
    public var attribution: CallbackAttribution { CallbackAttribution(replay: replay) }

    /// The replayed state of the whole trace after this event (`Replay`'s fold). Lent, not copied (a `_read`
    /// accessor): `context.state[controller]` copies one controller's record, not the whole state.
    public var state: ReplayState {
        _read { yield replay.state }
    }

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

    // MARK: The callback record being observed

    /// The controller of `record`, the callback record being observed (`RuleMonitor.observe(callback:_:_:)`).
    public func controller(of record: EventRecord) -> ControllerRef {
        replay.controllerRef(slot: record.controllerSlot, serial: record.controller)
    }

    /// The controller named by `record`'s `parent` argument, or `nil` when it has none or it is UIKit's `nil`.
    public func parent(of record: EventRecord) -> ControllerRef? {
        record.parent == .controller ? replay.controllerRef(slot: record.parentSlot, serial: record.parentSerial) : nil
    }

    /// The `parent` argument of `record` as `CallbackEvent.parent` holds it.
    public func parentArgument(of record: EventRecord) -> ParentArgument? {
        switch record.parent {
        case .absent: nil
        case .none: ParentArgument.none
        case .controller: .controller(replay.controllerRef(slot: record.parentSlot, serial: record.parentSerial))
        }
    }

    /// The recorded source of the callback event being observed (`nil` for most: a callback with a source
    /// reaches the engine as an `Event`, whose source this is).
    public var source: EventSource? { replay.isEvent ? replay.currentSource : nil }

    /// The callback event being observed, as an `Event` (built from the frame when it came as a record).
    public func event(of record: EventRecord) -> Event {
        if replay.isEvent, let callback = replay.currentCallback {
            return Event(timestamp: record.timestamp, .callback(callback), source: replay.currentSource)
        }
        var callback = CallbackEvent(record.callback, record.phase, controller: controller(of: record), animated: record.animated)
        callback.parent = parentArgument(of: record)
        return Event(timestamp: record.timestamp, .callback(callback))
    }

    /// A related-event entry for the callback record being observed.
    public func related(_ record: EventRecord, _ message: String) -> RelatedEvent {
        RelatedEvent(ordinal: ordinal, timestamp: record.timestamp, message: message, source: source)
    }
}
