import ArgumentParsing
import TraceModel

/// The names a rule may use for callbacks, app events, container operations, SwiftUI actions and the standard
/// marks and their fields, with near-miss suggestions (`Spelling`, the command line's measure).
enum Vocabulary {
    /// Callback names: UIKit's spelling (`Callback.name`) and the forms without argument labels.
    static let callbacks: [String: Callback] = {
        var names: [String: Callback] = [:]
        for callback in Callback.allCases { names[callback.name] = callback }
        names["willMoveToParent"] = .willMoveToParent
        names["willMove"] = .willMoveToParent
        names["didMoveToParent"] = .didMoveToParent
        names["didMove"] = .didMoveToParent
        names["viewWillTransition"] = .viewWillTransition
        return names
    }()

    /// App and scene delegate events: `didEnterBackground` (either), `applicationDidEnterBackground` (the app
    /// delegate only), `sceneDidEnterBackground` (a scene only).
    static let appEvents: [String: (transition: AppTransition, scene: Bool?)] = {
        var names: [String: (AppTransition, Bool?)] = [:]
        for transition in AppTransition.allCases {
            names[transition.name] = (transition, nil)
            let capitalized = transition.name.prefix(1).uppercased() + transition.name.dropFirst()
            names["application" + capitalized] = (transition, false)
            names["scene" + capitalized] = (transition, true)
        }
        return names
    }()

    /// Container operations: `ContainerOperation.name`, and `push`/`pop`.
    static let containerOperations: [String: ContainerOperation] = {
        var names: [String: ContainerOperation] = [:]
        for operation in ContainerOperation.allCases { names[operation.name] = operation }
        names["push"] = .push
        names["pop"] = .pop
        return names
    }()

    static let swiftUIActions: [String: SwiftUIEvent.Action] = ["onAppear": .onAppear, "onDisappear": .onDisappear]

    /// The fields the standard marks carry (docs/RULES.md, "Marks").
    static let markFields: [String: [String]] = [
        MarkName.save: ["key", "critical"],
        MarkName.edit: ["key"],
        MarkName.timerStart: ["id", "name", "interval"],
        MarkName.timerStop: ["id", "name"],
        MarkName.observerAdd: ["name", "id"],
        MarkName.observerRemove: ["name", "id"],
        MarkName.taskStart: ["id", "name"],
        MarkName.taskCancel: ["id", "name"],
        MarkName.requestStart: ["id", "url", "name"],
        MarkName.requestCancel: ["id", "url", "name"],
        MarkName.geometryRead: ["width", "height"],
        MarkName.animationStart: ["id", "name"],
        MarkName.analyticsScreen: ["name"],
        MarkName.teardown: ["name", "id"],
        MarkName.work: ["label"],
    ]

    /// The other words an event term can start with.
    static let eventWords = ["mark", "cancellation", "removed", "exit", "app", "application", "scene"]

    /// Every word that can start an event term (for suggestions).
    static var eventStarts: [String] {
        Array(callbacks.keys) + Array(appEvents.keys) + Array(containerOperations.keys) + Array(swiftUIActions.keys) + eventWords
    }

    /// Callback names and app events, for `in X`.
    static var enclosingNames: [String] { Array(callbacks.keys) + Array(appEvents.keys) }

    /// A standard mark name near `name` (a misspelling), or `nil` when `name` is standard or near none.
    static func markSuggestion(for name: String) -> String? {
        Spelling.nearest(to: name, among: MarkName.standard)
    }

    /// `" (did you mean 'viewDidLoad'?)"` for the nearest of `known`, sorted for a stable answer on ties.
    static func suggestion(_ word: String, among known: [String]) -> String {
        Spelling.suggestion(for: word, among: known.sorted())
    }
}
