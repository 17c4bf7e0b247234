import Audit
import TraceModel

/// A rule as parsed from its file, before it is checked and compiled (`CompiledRule`).
struct RuleSyntax: Sendable {
    /// The temporal pattern (Dwyer, Avrunin and Corbett's specification patterns).
    enum Pattern: Sendable {
        /// Absence: `never P`.
        case never(Term)
        /// Existence: `eventually P`.
        case eventually(Term)
        /// Precedence: `P requires earlier S`.
        case precedence(Term, requires: Term)
        /// Response: `P leads to S [within D] [unless G]`.
        case response(Term, leadsTo: Term, within: Limit?, unless: Term?)
    }

    /// A duration: written, or a rule parameter's value.
    enum Limit: Sendable {
        case nanoseconds(UInt64)
        case parameter(String)
    }

    /// Where the pattern must hold, per slice.
    enum Scope: Sendable {
        case globally
        case before(Term)
        case after(Term)
        case between(Term, and: Term)
        case afterUntil(Term, until: Term)
    }

    /// One monitor per what (`per controller`, `per controller type`, `per app`), and per value of each variable.
    enum Slicing: String, Sendable {
        case controller = "controller"
        case controllerType = "controller type"
        case app = "app"
    }

    /// `once` (one finding per slice) or `once per callback` (one per callback run the trigger happened in).
    enum Once: Sendable {
        case perSlice
        case perCallback
    }

    /// `severity warning, error if followed by X before Y`: the finding is raised to `severity` when, on the same
    /// controller, X comes after the trigger and before any Y.
    struct Escalation: Sendable {
        var severity: Severity
        var followedBy: Term
        var before: Term?
    }

    /// `parameter NAME = VALUE "summary"`.
    struct Parameter: Sendable {
        var name: String
        var value: ParameterValue
        var summary: String
        var location: SourceLocation
    }

    var id: String
    var location: SourceLocation
    var summary: String?
    var explanation: String?
    var severity: Severity = .warning
    var severityLocation: SourceLocation?
    var escalation: Escalation?
    var message: String?
    var messageLocation: SourceLocation?
    var fix: String?
    var slicing: Slicing = .controller
    var parameters: [Parameter] = []
    var pattern: Pattern
    var patternText: String
    var scope: Scope = .globally
    var once: Once?
    var anywhere: Term?
    var examples: [ExampleSyntax] = []
    /// The rule's lines as written (without examples), for `lifetrace rules ID`.
    var sourceText: String
}

/// `example "title" fires [N] [as SEVERITY] [inconclusive]` or `example "title" passes`, with its events.
struct ExampleSyntax: Sendable {
    var title: String
    var expectedFindings: Int
    var verdict: Verdict
    var severity: Severity?
    var lines: [(number: Int, text: String)]
    var location: SourceLocation
}
