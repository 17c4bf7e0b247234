import TraceLog
import TraceModel

/// One event as the fact engine takes it, after the fold applied it: a callback as numbers (no names built), the
/// other kinds as their `TraceModel` values.
enum EngineEvent {
    case callback(CallbackFact)
    case mark(MarkEvent)
    case container(ContainerEvent)
    case app(AppEvent)
    case swiftUI(SwiftUIEvent)
    case recorder(RecorderEvent)

    /// `event` as the engine takes it (`nil` for an event of a kind this version does not know).
    init?(_ event: Event) {
        self.init(event.payload)
    }

    /// An event's payload as the engine takes it.
    init?(_ payload: consuming EventPayload) {
        switch consume payload {
        case .callback(let callback): self = .callback(CallbackFact(callback))
        case .mark(let mark): self = .mark(mark)
        case .container(let container): self = .container(container)
        case .app(let app): self = .app(app)
        case .swiftUI(let swiftUI): self = .swiftUI(swiftUI)
        case .recorder(let recorder): self = .recorder(recorder)
        case .unknown: return nil
        }
    }
}

extension CallbackFact {
    /// A callback event.
    init(_ event: CallbackEvent) {
        self.init(
            controller: event.controller.serial, callback: event.callback, phase: event.phase, animated: event.animated,
            parent: event.parent.map { $0.controller?.serial }, parentRef: event.parent?.controller)
    }

    /// A callback record (of kind `.callback`).
    init(_ record: EventRecord) {
        self.init(
            controller: record.controller, callback: record.callback, phase: record.phase, animated: record.animated,
            parent: Self.parent(record.parent, record.parentSerial))
    }

    /// A callback entry of a record batch.
    init(_ entry: RecordBatch.Entry) {
        self.init(controller: entry.serial, callback: entry.callback, phase: entry.phase, animated: entry.animated, parent: Self.parent(entry.parent, entry.parentSerial))
    }

    private static func parent(_ parent: EventRecord.Parent, _ serial: UInt32) -> UInt32?? {
        switch parent {
        case .absent: nil
        case .none: .some(nil)
        case .controller: .some(serial)
        }
    }
}
