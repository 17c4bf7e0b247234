/// A rule: a reducer over lifecycle facts.
///
/// The engine folds each event once (`Replay`), derives the facts (`Fact`) in one place, and hands each fact to
/// the rules whose `facts` list its kind, in trace order. A rule keeps its own state in its stored properties;
/// `reduce` reads the fact and a read-only view of the replayed state and appends findings; `finish` reports
/// what is still pending when the trace ends. docs/ADDING_A_RULE.md walks through one.
///
/// ```swift
/// struct MyRule: AuditRule {
///     static let descriptor = RuleDescriptor(id: "my_rule", …)
///     let facts: [FactKind] = [.mark(MarkName.save)]
///     mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) { … }
/// }
/// // registered as: Rule(MyRule.self) { settings in MyRule(settings: settings) }
/// ```
///
/// A rule value is made per trace and used on one thread; it need not be `Sendable`.
public protocol AuditRule: SendableMetatype {
    /// Id, severity, parameters (with units), explanation, fix and examples.
    static var descriptor: RuleDescriptor { get }
    /// The kinds of facts the rule wants: the only filter (read once, when the engine starts on a trace).
    var facts: [FactKind] { get }
    /// Takes one fact, in trace order. `replay` shows the state after the event the fact comes from.
    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding])
    /// Called once after the last event (default: nothing). `replay` shows the state at the end of the trace.
    mutating func finish(_ replay: ReplayView, _ findings: inout [Finding])
}

extension AuditRule {
    public mutating func finish(_ replay: ReplayView, _ findings: inout [Finding]) {}
}
