import Replay
import TraceModel

/// What a rule may read besides the fact: the replayed state after the event the fact comes from, where that
/// event is, and how to name controllers and times in a finding. Read-only, and valid only during the call it is
/// passed to. A trivial value (pointers and numbers): passing it to every rule copies no reference.
public struct ReplayView {
    private let pointer: UnsafePointer<ReplayState>
    private let sourcePointer: UnsafePointer<EventSource>?
    /// The ordinal (0-based) of the event the fact comes from; at `finish`, the last event's (0 for none).
    public let ordinal: UInt64
    /// Its timestamp: nanoseconds on the trace's monotonic clock.
    public let timestamp: UInt64
    /// Its recorded source location, when it has one.
    public var source: EventSource? { sourcePointer?.pointee }
    /// The first event's timestamp (nanoseconds); `time(_:)` measures from it.
    public let traceStart: UInt64

    init(_ pointer: UnsafePointer<ReplayState>, ordinal: UInt64, timestamp: UInt64, source: UnsafePointer<EventSource>?, traceStart: UInt64) {
        self.pointer = pointer
        self.ordinal = ordinal
        self.timestamp = timestamp
        sourcePointer = source
        self.traceStart = traceStart
    }

    /// The whole replayed state (lent, not copied: read what you need).
    public var state: ReplayState {
        _read { yield pointer.pointee }
    }

    /// The record of the controller `serial`, while the state keeps it (live, or among the most recent deaths).
    public func controller(_ serial: UInt32) -> ControllerState? {
        pointer.pointee.controllers[serial]
    }

    /// `body` run on the record of the controller `serial`; `nil` when the state has none.
    public func withController<R>(_ serial: UInt32, _ body: (ControllerState) -> R) -> R? {
        pointer.pointee.controllers.withState(of: serial, body)
    }

    /// The controller `serial` as the state names it (`ControllerRef`), `nil` when its record is gone.
    public func ref(of serial: UInt32) -> ControllerRef? {
        pointer.pointee.controllers.ref(of: serial)
    }

    /// `NoteEditorViewController#2` (`#7` when the record is gone).
    public func name(of serial: UInt32) -> String {
        ref(of: serial)?.displayName ?? "#\(serial)"
    }

    /// The appearance of the controller `serial` (`unknown` when not known).
    public func appearance(of serial: UInt32) -> Appearance {
        pointer.pointee.controllers.appearance(of: serial) ?? .unknown
    }

    /// The innermost open interval (begun, not ended) of `callback` of the controller `serial`, or `nil`.
    public func openCallback(_ callback: Callback, of serial: UInt32) -> ActiveCallback? {
        pointer.pointee.executing.last { $0.controllerSerial == serial && $0.callback == callback }
    }

    /// The callback a mark of the controller `serial` (of no controller: `nil`) would be attributed to now, as
    /// `MarkFact.enclosing` is; `nil` when none (or when it is a callback of a controller whose record is gone).
    public func enclosingCallback(of serial: UInt32?) -> ActiveCallback? {
        guard let active = pointer.pointee.enclosingCallback(ofSerial: serial) else { return nil }
        if let owner = active.controllerSerial, !pointer.pointee.controllers.contains(owner) { return nil }
        return active
    }

    /// The method name of `callback`: `viewWillAppear`, `applicationDidEnterBackground(_:)`, `sceneDidEnterBackground(_:)`.
    public static func methodName(of callback: ActiveCallback) -> String {
        switch callback.kind {
        case .controller(let callback): callback.name
        case .app(let transition): callback.scene == nil ? transition.applicationMethodName : transition.sceneMethodName
        }
    }

    /// The innermost open appearance-callback interval of a controller other than `serial` whose record is kept.
    public func innermostOpenAppearanceCallback(excluding serial: UInt32) -> ActiveCallback? {
        guard let active = pointer.pointee.executing.last(where: {
            $0.controllerSerial != nil && $0.controllerSerial != serial && ($0.callback?.isAppearanceCallback ?? false)
        }), let owner = active.controllerSerial, pointer.pointee.controllers.contains(owner) else { return nil }
        return active
    }

    /// `timestamp` as seconds since the first event, e.g. `5.904 s`.
    public func time(_ timestamp: UInt64) -> String {
        TimeText.seconds(timestamp >= traceStart ? timestamp - traceStart : 0)
    }

    /// A related-event entry for the event the fact comes from.
    public func related(_ message: String) -> RelatedEvent {
        RelatedEvent(ordinal: ordinal, timestamp: timestamp, message: message, source: source)
    }
}
