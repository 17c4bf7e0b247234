/// A typed, documented parameter of a rule, such as `leaked_controller`'s `grace`.
public struct RuleParameter: Sendable, Hashable {
    /// What kind of value the parameter takes; decides how the configuration file is read.
    public enum Kind: String, Sendable, Hashable {
        /// Nanoseconds; configured as `"5s"`, `"250ms"`, or a number of seconds.
        case duration
        /// A non-negative integer.
        case count
        /// `true` or `false`.
        case flag
        /// A list of names (mark names, type names), matched exactly; configured as a JSON array of strings.
        case names
    }

    /// The snake_case name used in the configuration file.
    public var name: String
    public var kind: Kind
    public var defaultValue: ParameterValue
    /// The unit as a reader should see it (`s (trace clock)`, `events`), or empty for flags.
    public var unit: String
    /// One sentence: what the parameter changes.
    public var summary: String

    public init(name: String, kind: Kind, defaultValue: ParameterValue, unit: String, summary: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.unit = unit
        self.summary = summary
    }
}
