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
    unowned(unsafe) let replay: ReplayBox

    init(ordinal: UInt64, traceStart: UInt64, previousTimestamp: UInt64? = nil, replay: ReplayBox) {
        self.ordinal = ordinal
        self.traceStart = traceStart
        self.previousTimestamp = previousTimestamp
        self.replay = replay
    }

    /// Whether `state`, `attribution` and `enclosingCallback(of:)` show the replayed state after this event: always
    /// (the engine folds the events it has dispatched but not folded yet when a monitor first reads the state at an
    /// event: `AuditSession.observeRest(of:batch:)`). Kept for monitors written for the engine that called
    /// state-free monitors before folding (and `deferUntilFolded()`).
    public var isFolded: Bool { true }

    /// Asked to be called again for this event once the state is folded through it, where `isFolded` was `false`.
    /// `isFolded` is always `true` now (the state is folded on demand), so this does nothing.
    public func deferUntilFolded() {}

    /// Which callbacks are executing, after the event was applied (read from the replayed state).
    public var attribution: CallbackAttribution { CallbackAttribution(replay: replay) }

    /// The replayed state of the whole trace after this event (`Replay`'s fold). Lent, not copied (a `_read`
    /// accessor): `context.state[controller]` copies one controller's record, not the whole state.
    public var state: ReplayState {
        _read {
            replay.catchUp()
            yield replay.state
        }
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

    // MARK: The record being observed

    /// Where the controller at `slot` of the record being observed (`EventRecord.controllerSlot`, `parentSlot`) is
    /// named: the first ordinal of the record's frame and the slot in its controller table. Two records of one trace
    /// with the same place name the same controller by the same name (a frame's table entry does not change), so a
    /// monitor that kept a name seen at a place can tell it sees it again without building the `ControllerRef`.
    /// `nil` for an event fed as an `Event` (its slots are not a frame's).
    public func place(ofSlot slot: UInt32) -> (frame: UInt64, slot: UInt32)? {
        guard !replay.isEvent, let cursor = replay.cursor else { return nil }
        return (cursor.pointee.frame.firstOrdinal, slot)
    }

    /// The controller of `record`, the record being observed: a callback's controller, a container event's
    /// container, a SwiftUI event's host, a mark's controller (for the last three only when `record.hasController`).
    public func controller(of record: EventRecord) -> ControllerRef {
        replay.controllerRef(slot: record.controllerSlot, serial: record.controller, kind: record.kind)
    }

    /// The controller named by `record`'s `parent` argument, or `nil` when it has none or it is UIKit's `nil`.
    public func parent(of record: EventRecord) -> ControllerRef? {
        record.parent == .controller ? replay.controllerRef(slot: record.parentSlot, serial: record.parentSerial, kind: .callback) : nil
    }

    /// The `parent` argument of `record` as `CallbackEvent.parent` holds it.
    public func parentArgument(of record: EventRecord) -> ParentArgument? {
        switch record.parent {
        case .absent: nil
        case .none: ParentArgument.none
        case .controller: .controller(replay.controllerRef(slot: record.parentSlot, serial: record.parentSerial, kind: .callback))
        }
    }

    /// The serial of the controller at `index` (0-based, below `record.listCount`) of the container event
    /// `record` (`ContainerEvent.controllers`).
    public func listSerial(_ index: Int, of record: EventRecord) -> UInt32 {
        if replay.isEvent, case .container(let container)? = replay.event?.event.payload { return container.controllers[index].serial }
        guard let cursor = replay.cursor else { return 0 }
        return cursor.serial(atSlot: cursor.listSlot(record.listStart &+ UInt32(index)))
    }

    /// The controller at `index` (0-based, below `record.listCount`) of the container event `record`.
    public func listController(_ index: Int, of record: EventRecord) -> ControllerRef {
        if replay.isEvent, case .container(let container)? = replay.event?.event.payload { return container.controllers[index] }
        guard let cursor = replay.cursor else { return ControllerRef(serial: 0, typeName: "") }
        return cursor.controller(atSlot: cursor.listSlot(record.listStart &+ UInt32(index)))
    }

    /// The string of `record`: a mark's name, a SwiftUI event's view, an app event's scene (`nil` when it has
    /// none, or for another kind).
    public func string(of record: EventRecord) -> String? {
        if replay.isEvent, let event = replay.event?.event {
            switch event.payload {
            case .mark(let mark): return mark.name
            case .swiftUI(let swiftUI): return swiftUI.view
            case .app(let app): return app.scene
            default: return nil
            }
        }
        guard let cursor = replay.cursor, record.stringSlot != EventRecord.noString, record.kind != .callback, record.kind != .container else { return nil }
        return cursor.string(atSlot: record.stringSlot)
    }

    /// The value of the first field of the mark `record` whose name has the code `name` (`nil` when it has none).
    public func field(_ name: KnownName, of record: EventRecord) -> FieldValue? {
        if replay.isEvent { return eventField(name) }
        guard let cursor = replay.cursor, record.kind == .mark else { return nil }
        return cursor.firstFieldValue(named: name.rawValue, start: record.listStart, count: record.listCount)
    }

    /// Where the string value of the mark `record`'s first field named `name` (or, when it has none, of its first
    /// field named `otherwise`) is in its frame's string table, as `place(ofSlot:)` gives a slot: two marks of one
    /// trace with the same place have the same value (`field(name, of:) ?? field(otherwise, of:)`), so a monitor
    /// that kept what it made of a value seen at a place can reuse it without reading the string. `nil` when that
    /// field is missing or not a string, or for an event fed as an `Event`.
    public func stringFieldPlace(_ name: KnownName, otherwise: KnownName, of record: EventRecord) -> (frame: UInt64, slot: UInt32)? {
        guard !replay.isEvent, let cursor = replay.cursor, record.kind == .mark else { return nil }
        let end = record.listStart &+ record.listCount
        var chosen: MarkFieldRecord?
        var index = record.listStart
        while index < end {
            let field = cursor.field(index)
            if field.nameCode == name.rawValue {
                chosen = field
                break
            }
            if chosen == nil, field.nameCode == otherwise.rawValue { chosen = field }
            index &+= 1
        }
        guard let chosen, chosen.type == .string else { return nil }
        return (cursor.pointee.frame.firstOrdinal, UInt32(truncatingIfNeeded: chosen.bits))
    }

    /// `field(_:of:)` for an event fed as an `Event` (kept out of the record path, whose frame it made bigger).
    @inline(never)
    private func eventField(_ name: KnownName) -> FieldValue? {
        guard case .mark(let mark)? = replay.event?.event.payload, let string = name.string else { return nil }
        return mark[field: string]
    }

    /// The recorded source of the event being observed (`nil` for a record: an event with a source reaches the
    /// engine as an `Event`, whose source this is).
    public var source: EventSource? {
        // The record path (no source) inlines to a test; the `Event` path is a call (it copies the source out).
        if !replay.isEvent { return nil }
        return eventSource()
    }

    @inline(never)
    private func eventSource() -> EventSource? { replay.event?.event.source }

    /// Whether `source` is not `nil`, asked without copying the source out (a record has none: one test).
    @inline(__always)
    public var hasSource: Bool { replay.isEvent && replay.event?.event.source != nil }

    /// The event being observed, as an `Event`: the one the session was fed, else built from the record and its
    /// frame (once per event, whichever monitor asks first).
    public func event(of record: EventRecord) -> Event {
        if record.kind == .callback, !replay.isEvent {
            var callback = CallbackEvent(record.callback, record.phase, controller: controller(of: record), animated: record.animated)
            callback.parent = parentArgument(of: record)
            return Event(timestamp: record.timestamp, .callback(callback))
        }
        return eventBox(of: record).event
    }

    /// `body` with the event being observed (`event(of:)`), lent rather than copied.
    public func withEvent<R>(of record: EventRecord, _ body: (Event) -> R) -> R {
        if record.kind == .callback, !replay.isEvent { return body(event(of: record)) }
        let box = eventBox(of: record)
        return body(box.event)
    }

    /// The box of the event being observed: the fed one, or the one built from `record` on the first call.
    private func eventBox(of record: EventRecord) -> EventBox {
        if let box = replay.event { return box }
        guard let cursor = replay.cursor else { return EventBox(Event(timestamp: record.timestamp, .unknown(UnknownEvent(tag: 0, body: [])))) }
        let box = EventBox(cursor.event(of: record))
        replay.event = box
        return box
    }

    /// The mark `record` stands for (built from the frame; `nil` for another kind).
    public func mark(of record: EventRecord) -> MarkEvent? {
        guard case .mark(let mark) = event(of: record).payload else { return nil }
        return mark
    }

    /// A related-event entry for the record being observed.
    public func related(_ record: EventRecord, _ message: String) -> RelatedEvent {
        RelatedEvent(ordinal: ordinal, timestamp: record.timestamp, message: message, source: source)
    }
}
