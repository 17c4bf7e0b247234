import Audit
import TraceModel

/// A checked rule, ready to run: the terms of each role, the scope, the slicing and the message
/// (`RuleCompiler` makes it; `LanguageRule` runs it on one trace).
struct CompiledRule: Sendable {
    /// What a term does in the rule.
    enum Role: Int, CaseIterable, Sendable {
        /// The pattern's first term: what is reported (`never P`, `P requires earlier`, `P leads to`).
        case trigger
        /// What the trigger waits for or needs: `requires earlier S`, `leads to S`, and `eventually S`'s `S`.
        case answer
        /// `unless G` of a response: ends the obligation silently.
        case discharge
        /// The scope's opening event (`after Q`, `between Q and`).
        case open
        /// The scope's closing event (`before R`, `and R`, `until R`).
        case close
        /// `unless anywhere T`: a slice in which T happens anywhere in the trace is not reported.
        case anywhere
        /// `error if followed by X`: raises the trigger's finding.
        case escalate
        /// `… before Y`: after Y the trigger can no longer be raised.
        case settle
    }

    enum PatternKind: Sendable {
        case never, eventually, precedence, response
    }

    enum ScopeKind: Sendable {
        case globally, before, after, between, afterUntil
    }

    var id: String
    var pattern: PatternKind
    var scope: ScopeKind
    var slicing: RuleSyntax.Slicing
    /// Terms by role (`Role.rawValue`); `nil` where the rule has none.
    var terms: [Term?]
    var variables: [String]
    var within: RuleSyntax.Limit?
    var once: RuleSyntax.Once?
    var escalation: Severity?
    var message: MessageTemplate
    var facts: [FactKind]

    func term(_ role: Role) -> Term? { terms[role.rawValue] }
}
