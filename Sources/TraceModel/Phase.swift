/// Where an event stands in the interval it belongs to.
///
/// Callbacks are recorded as intervals so that a mark can be attributed to the callback it happened in and
/// durations can be measured. Sources that only know instants (imported console logs) record `instant`, which
/// every consumer treats as a zero-length interval (a `begin` immediately followed by its `end`).
public enum Phase: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case begin = 0
    case end = 1
    case instant = 2

    public var description: String {
        switch self {
        case .begin: "begin"
        case .end: "end"
        case .instant: "instant"
        }
    }

    /// Parses `begin`, `end` or `instant`.
    public init?(name: String) {
        switch name {
        case "begin": self = .begin
        case "end": self = .end
        case "instant": self = .instant
        default: return nil
        }
    }
}
