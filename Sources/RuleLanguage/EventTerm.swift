import Audit
import TraceModel

/// One event term of a rule: the kind of fact it matches and what must hold of it (docs/RULE_LANGUAGE.md,
/// "Event terms"). Written, for example, `mark save(critical: true, key: $key) in viewWillDisappear of the same
/// controller` or `viewDidLayoutSubviews end where duration > budget`.
struct EventTerm: Sendable {
    /// Which phases of a callback, mark or app event match: `start` (begin or instant, the default), `end` (end or
    /// instant), or `any`.
    enum PhaseFilter: Sendable, Hashable {
        case start, end, any

        func accepts(_ phase: Phase) -> Bool {
            switch self {
            case .start: phase != .end
            case .end: phase != .begin
            case .any: true
            }
        }
    }

    /// What kind of fact.
    enum Subject: Sendable {
        case callback(Callback, PhaseFilter)
        case mark(String, PhaseFilter)
        case container(ContainerOperation)
        /// `app X` (application or scene delegate), `application X`, `scene X`: `scene` is `nil` for either.
        case app(AppTransition, scene: Bool?, PhaseFilter)
        case swiftUI(SwiftUIEvent.Action, view: String?)
        case cancellation
        case removed
        case exit
    }

    /// A mark field that must have a value, or that binds a variable.
    struct FieldConstraint: Sendable {
        enum Value: Sendable {
            case literal(FieldValue)
            case variable(String)
        }
        var name: String
        var value: Value
        var location: SourceLocation
    }

    /// `in CALLBACK [of the same controller]`.
    struct Enclosing: Sendable {
        enum Kind: Sendable, Hashable {
            case callback(Callback)
            case app(AppTransition)
        }
        var kind: Kind
        var sameController: Bool
    }

    /// `where LEFT OP RIGHT`.
    struct Guard: Sendable {
        enum Operand: Sendable {
            /// A mark field of the event.
            case field(String)
            /// A callback end's duration (nanoseconds since its begin).
            case duration
            case variable(String)
            case number(Double)
            case text(String)
            case flag(Bool)
            /// Nanoseconds.
            case nanoseconds(UInt64)
            /// A rule parameter (`parameter budget = 8ms`).
            case parameter(String)
        }
        enum Comparison: String, Sendable {
            case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        }
        var left: Operand
        var comparison: Comparison
        var right: Operand
        var location: SourceLocation
    }

    var subject: Subject
    var fields: [FieldConstraint] = []
    var enclosing: Enclosing?
    /// `of TYPE`: the controller's type name, with `*` matching any run of characters.
    var typePattern: String?
    /// `with parent` (`true`) or `with nil parent` (`false`), for willMove/didMove(toParent:).
    var parent: Bool?
    var guards: [Guard] = []
    var location: SourceLocation

    /// The variables the term binds (`$key`), in order of appearance.
    var variables: [String] {
        var names: [String] = []
        for field in fields {
            if case .variable(let name) = field.value, !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The fact kinds the term can match (what the compiled rule subscribes to).
    var factKinds: [FactKind] {
        switch subject {
        case .callback(let callback, _): [.callback(callback)]
        case .mark(let name, _): [.mark(name)]
        case .container: [.container]
        case .app: [.app]
        case .swiftUI: [.swiftUI]
        case .cancellation: [.disappearanceCancelled]
        case .removed: [.removed]
        case .exit: [.exitCompleted]
        }
    }
}

/// Terms joined by `or`: a fact matches when any of them does.
struct Term: Sendable {
    var alternatives: [EventTerm]
    /// The term as written (for the rule's reference text).
    var text: String

    var variables: [String] {
        var names: [String] = []
        for alternative in alternatives { for name in alternative.variables where !names.contains(name) { names.append(name) } }
        return names
    }

    var factKinds: [FactKind] { alternatives.flatMap(\.factKinds) }
}

/// An event term held by reference, with its `code`: the compiled rule walks these for every fact it gets, and a
/// reference is passed on without copying the term's arrays and strings.
final class EventMatcher: Sendable {
    let code: UInt16
    let subject: EventTerm.Subject
    let fields: [EventTerm.FieldConstraint]
    let enclosing: EventTerm.Enclosing?
    let typePattern: String?
    let parent: Bool?
    let guards: [EventTerm.Guard]

    init(_ term: EventTerm) {
        code = term.code
        subject = term.subject
        fields = term.fields
        enclosing = term.enclosing
        typePattern = term.typePattern
        parent = term.parent
        guards = term.guards
    }
}
