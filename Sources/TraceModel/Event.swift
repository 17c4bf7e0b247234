/// One recorded event: a timestamp and what happened.
///
/// Events are plain values. Timestamps are `UInt64` nanoseconds on the trace's monotonic clock (see
/// `TraceLog`'s header for the clock domain and the wall-clock anchor); within a trace they never decrease.
public struct Event: Sendable, Hashable {
    /// Nanoseconds on the trace's monotonic clock.
    public var timestamp: UInt64
    public var payload: EventPayload
    /// Where the event came from, when known: the raw console line it was imported from, or the source location
    /// of the instrumented call.
    public var source: EventSource?

    public init(timestamp: UInt64, _ payload: EventPayload, source: EventSource? = nil) {
        self.timestamp = timestamp
        self.payload = payload
        self.source = source
    }

    public static func callback(_ event: CallbackEvent, at timestamp: UInt64) -> Event {
        Event(timestamp: timestamp, .callback(event))
    }

    public static func container(_ event: ContainerEvent, at timestamp: UInt64) -> Event {
        Event(timestamp: timestamp, .container(event))
    }

    public static func app(_ event: AppEvent, at timestamp: UInt64) -> Event {
        Event(timestamp: timestamp, .app(event))
    }

    public static func mark(_ event: MarkEvent, at timestamp: UInt64) -> Event {
        Event(timestamp: timestamp, .mark(event))
    }

    /// The controller the event is about: the callback's controller, the container's first subject (or the
    /// container itself when it has none), the mark's controller, the SwiftUI host; `nil` for app events.
    public var controller: ControllerRef? {
        switch payload {
        case .callback(let event): event.controller
        case .container(let event): event.controllers.first ?? event.container
        case .mark(let event): event.controller
        case .swiftUI(let event): event.host
        case .app, .recorder, .unknown: nil
        }
    }

    /// Every controller the event names, in a stable order without duplicates.
    public var controllers: [ControllerRef] {
        var result: [ControllerRef] = []
        func add(_ ref: ControllerRef?) {
            if let ref, !result.contains(ref) { result.append(ref) }
        }
        switch payload {
        case .callback(let event):
            add(event.controller)
            add(event.parent?.controller)
        case .container(let event):
            add(event.container)
            event.controllers.forEach { add($0) }
        case .mark(let event): add(event.controller)
        case .swiftUI(let event): add(event.host)
        case .app, .recorder, .unknown: break
        }
        return result
    }

    /// The interval phase of the event (`instant` for kinds that have none).
    public var phase: Phase {
        switch payload {
        case .callback(let event): event.phase
        case .container(let event): event.phase
        case .app(let event): event.phase
        case .mark(let event): event.phase
        case .swiftUI, .recorder, .unknown: .instant
        }
    }
}

/// What happened.
public enum EventPayload: Sendable, Hashable {
    case callback(CallbackEvent)
    case container(ContainerEvent)
    case app(AppEvent)
    case swiftUI(SwiftUIEvent)
    case mark(MarkEvent)
    case recorder(RecorderEvent)
    /// An event of a kind this version does not know, kept byte for byte so it survives a round trip.
    case unknown(UnknownEvent)
}

/// An event written by a newer version: its kind tag and its encoded body, skipped by meaning but kept.
public struct UnknownEvent: Sendable, Hashable {
    public var tag: UInt8
    public var body: [UInt8]

    public init(tag: UInt8, body: [UInt8]) {
        self.tag = tag
        self.body = body
    }
}

/// Where an event came from.
public struct EventSource: Sendable, Hashable {
    /// The raw text it was imported from (a console line), if any.
    public var text: String?
    /// A file path: the imported log, or the source file of the instrumented call.
    public var file: String?
    /// 1-based line in `file`.
    public var line: UInt32?

    public init(text: String? = nil, file: String? = nil, line: UInt32? = nil) {
        self.text = text
        self.file = file
        self.line = line
    }
}
