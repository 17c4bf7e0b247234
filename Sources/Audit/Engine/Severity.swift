/// How much a finding matters. Ordered: `note < warning < error`.
///
/// `lifetrace audit` exits with 1 when any finding is `error` (or `warning` with `--strict`). SARIF maps the
/// three to its `level` values of the same names.
public enum Severity: String, Sendable, Hashable, CaseIterable, Comparable, CustomStringConvertible {
    case note
    case warning
    case error

    public var description: String { rawValue }

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}
