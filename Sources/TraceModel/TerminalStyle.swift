/// Colour for text a person reads on a terminal: ANSI SGR sequences around a severity, a rule id, an "ok".
///
/// Whether to colour is the command line's choice (`--color auto|always|never`, `NO_COLOR`, `TERM`); the
/// reporters only mark which words carry which role. A disabled style (`plain`) returns the text unchanged, so
/// a report rendered with it is byte for byte the uncoloured one.
public struct TerminalStyle: Sendable, Equatable {
    /// What a word is, and so its colour.
    public enum Role: Sendable, CaseIterable {
        /// `error`, `FAILED`: bold red.
        case error
        /// `warning`: bold yellow.
        case warning
        /// `note`: bold cyan.
        case note
        /// `ok`: bold green.
        case success
        /// A rule id, `(critical_save_placement)`: magenta.
        case identifier

        /// The SGR parameters.
        var parameters: String {
            switch self {
            case .error: "1;31"
            case .warning: "1;33"
            case .note: "1;36"
            case .success: "1;32"
            case .identifier: "35"
            }
        }
    }

    /// Whether `apply` adds colour.
    public var isEnabled: Bool

    public init(isEnabled: Bool) {
        self.isEnabled = isEnabled
    }

    /// No colour.
    public static let plain = TerminalStyle(isEnabled: false)

    /// `text` in the colour of `role` (followed by a reset), or `text` itself when disabled or empty.
    public func apply(_ role: Role, to text: String) -> String {
        guard isEnabled, !text.isEmpty else { return text }
        return "\u{1B}[\(role.parameters)m\(text)\u{1B}[0m"
    }

    /// The parameters of the sequences `apply` writes: the roles' and the reset's.
    private static let parameters = Set(Role.allCases.map(\.parameters) + ["0"])

    /// `text` with `transform` applied to everything but the colour sequences `apply` writes, which stay as they
    /// are: a caller writes coloured text for people with the rest escaped (`displayEscaped`), so that only
    /// those sequences, and no other escape sequence a name from a trace might hold, reach the terminal.
    public static func mappingText(of text: String, _ transform: (String) -> String) -> String {
        var out = ""
        var rest = Substring(text)
        while let start = rest.firstIndex(of: "\u{1B}") {
            let after = rest[rest.index(after: start)...]
            let body = after.dropFirst().prefix { $0 == ";" || ("0"..."9").contains($0) }
            if after.first == "[", body.endIndex < after.endIndex, after[body.endIndex] == "m", parameters.contains(String(body)) {
                out += transform(String(rest[..<start])) + "\u{1B}[\(body)m"
                rest = after[after.index(after: body.endIndex)...]
            } else {
                out += transform(String(rest[...start]))
                rest = after
            }
        }
        return out + transform(String(rest))
    }
}
