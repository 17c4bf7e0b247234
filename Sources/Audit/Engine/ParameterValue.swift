import TraceModel

/// The value of a rule parameter.
public enum ParameterValue: Sendable, Hashable, CustomStringConvertible {
    /// A duration in nanoseconds (on the trace's monotonic clock). Written `"5s"`, `"1500ms"` or a number of
    /// seconds in the configuration file.
    case duration(UInt64)
    /// A non-negative whole number.
    case count(Int)
    /// On or off.
    case flag(Bool)
    /// Names (mark names, type names), in the order given; written as a JSON array of strings.
    case names([String])

    /// `5.000 s`, `3`, `true`, `timer.start, request.start` (`none` for an empty list).
    public var description: String {
        switch self {
        case .duration(let nanoseconds): TimeText.duration(nanoseconds)
        case .count(let value): String(value)
        case .flag(let value): value ? "true" : "false"
        case .names(let names): names.isEmpty ? "none" : names.joined(separator: ", ")
        }
    }
}
