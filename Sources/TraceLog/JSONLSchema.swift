import TraceModel

/// The JSON Lines interchange schema shared by `JSONLWriter` and `JSONLReader` (docs/JSONL.md is the
/// contract in prose).
///
/// One JSON object per line per event. Every event line has `t_ns` (UInt64 nanoseconds on the trace's
/// monotonic clock), `event` (the callback, operation, transition or action name, or `mark`, `runStarted`,
/// `eventsDropped`, `note`, `unknown`), `phase` (`begin`, `end`, `instant`) and `kind`; `controller` (a
/// `ControllerRef.displayName`) when the event has one; then the fields of its kind. The first line may be a
/// header object `{"lifetrace": {…}}`.
public enum JSONLSchema {
    /// The value of the header's `format` member.
    public static let formatName = "lifetrace-jsonl"
    /// The schema version written in the header; readers accept this version and older ones.
    public static let version = 1

    /// The event kinds, as written in the `kind` member and accepted by `lifetrace events --kind`.
    public enum Kind: String, Sendable, CaseIterable, CustomStringConvertible {
        case callback
        case container
        case app
        case swiftUI = "swiftui"
        case mark
        case recorder
        case unknown

        public var description: String { rawValue }

        /// The kind of `payload`.
        public init(of payload: EventPayload) {
            switch payload {
            case .callback: self = .callback
            case .container: self = .container
            case .app: self = .app
            case .swiftUI: self = .swiftUI
            case .mark: self = .mark
            case .recorder: self = .recorder
            case .unknown: self = .unknown
            }
        }
    }

    /// The `event` member written for `payload`: `viewWillDisappear`, `didMove(toParent:)`,
    /// `pushViewController`, `didEnterBackground`, `onAppear`, `mark`, `runStarted`, `eventsDropped`, `note`,
    /// `unknown`.
    public static func eventName(of payload: EventPayload) -> String {
        switch payload {
        case .callback(let event): event.callback.name
        case .container(let event): event.operation.name
        case .app(let event): event.transition.name
        case .swiftUI(let event): event.action.description
        case .mark: "mark"
        case .recorder(.runStarted): "runStarted"
        case .recorder(.eventsDropped): "eventsDropped"
        case .recorder(.note): "note"
        case .unknown: "unknown"
        }
    }

    /// The kinds an `event` name can belong to, in the order the reader tries them when a line has no `kind`
    /// (`didReceiveMemoryWarning` is both a controller callback and an app transition).
    public static func kinds(forEventName name: String) -> [Kind] {
        var kinds: [Kind] = []
        if Callback(name: name) != nil { kinds.append(.callback) }
        if ContainerOperation(name: name) != nil { kinds.append(.container) }
        if AppTransition(name: name) != nil { kinds.append(.app) }
        if SwiftUIEvent.Action(name: name) != nil { kinds.append(.swiftUI) }
        switch name {
        case "mark": kinds.append(.mark)
        case "runStarted", "eventsDropped", "note": kinds.append(.recorder)
        case "unknown": kinds.append(.unknown)
        default: break
        }
        return kinds
    }

    /// Every `event` name the schema defines, grouped by kind (for help texts and docs).
    public static var eventNames: [(kind: Kind, names: [String])] {
        [
            (.callback, Callback.allCases.map(\.name)),
            (.container, ContainerOperation.allCases.map(\.name)),
            (.app, AppTransition.allCases.map(\.name)),
            (.swiftUI, SwiftUIEvent.Action.allCases.map(\.description)),
            (.mark, ["mark"]),
            (.recorder, ["runStarted", "eventsDropped", "note"]),
            (.unknown, ["unknown"]),
        ]
    }

    /// Member names.
    enum Key {
        static let header = "lifetrace"
        static let time = "t_ns"
        static let event = "event"
        static let phase = "phase"
        static let kind = "kind"
        static let controller = "controller"
        static let serial = "serial"
        static let type = "type"
        static let label = "label"
        static let name = "name"
        static let animated = "animated"
        static let parent = "parent"
        static let size = "size"
        static let width = "width"
        static let height = "height"
        static let container = "container"
        static let controllers = "controllers"
        static let style = "style"
        static let index = "index"
        static let scene = "scene"
        static let view = "view"
        static let fields = "fields"
        static let process = "process"
        static let count = "count"
        static let text = "text"
        static let tag = "tag"
        static let body = "body"
        static let source = "source"
        static let file = "file"
        static let line = "line"
        static let double = "double"
    }
}
