/// Whether a finding is proven by the trace or only suspected because the trace ended first.
public enum Verdict: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The trace shows the rule broken.
    case violation
    /// A monitor was still waiting when the trace ended (for example a removed controller whose leak grace had
    /// not yet run out). Reported with the configuration's `inconclusive_severity` (a note by default).
    case inconclusive

    public var description: String { rawValue }
}
