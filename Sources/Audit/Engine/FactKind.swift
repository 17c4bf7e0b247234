import TraceModel

/// What a rule subscribes to (`AuditRule.facts`): the engine hands a rule only the facts of the kinds it lists.
public enum FactKind: Sendable, Hashable {
    /// Begins, ends and instants of one callback.
    case callback(Callback)
    /// Marks of one name (`MarkName.save`, …).
    case mark(String)
    /// Every mark.
    case anyMark
    case disappearanceCancelled
    case exitCompleted
    case removed
    case deinitialized
    case resourceStarted
    case resourceStopped
    case container
    case app
    case swiftUI
    case runStarted

    /// The callback kinds of `callbacks`.
    public static func callbacks(_ callbacks: Callback...) -> [FactKind] {
        callbacks.map { .callback($0) }
    }

    /// Every callback kind.
    public static var allCallbacks: [FactKind] {
        Callback.allCases.map { .callback($0) }
    }

    /// The kinds other than callbacks and marks, numbered for the engine's tables (`otherIndex`).
    static let otherCount = 10

    /// `0..<otherCount` for a kind other than `callback`, `mark` and `anyMark`; `nil` for those.
    var otherIndex: Int? {
        switch self {
        case .callback, .mark, .anyMark: nil
        case .disappearanceCancelled: 0
        case .exitCompleted: 1
        case .removed: 2
        case .deinitialized: 3
        case .resourceStarted: 4
        case .resourceStopped: 5
        case .container: 6
        case .app: 7
        case .swiftUI: 8
        case .runStarted: 9
        }
    }

    /// How a report names the kind when a trace has none of it: `save marks`, `viewDidLoad callbacks`.
    public var plural: String {
        switch self {
        case .callback(let callback): "\(callback.name) callbacks"
        case .mark(let name): "\(name) marks"
        case .anyMark: "marks"
        case .disappearanceCancelled: "cancelled disappearances"
        case .exitCompleted: "exits"
        case .removed: "removals"
        case .deinitialized: "deinits"
        case .resourceStarted: "resource starts"
        case .resourceStopped: "resource stops"
        case .container: "container events"
        case .app: "app events"
        case .swiftUI: "SwiftUI events"
        case .runStarted: "recording runs after the first"
        }
    }
}
