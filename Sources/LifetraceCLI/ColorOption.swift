import ArgumentParsing
import TraceModel

/// `--color auto|always|never`: whether a command's text output on standard output is coloured
/// (`TerminalStyle`).
///
/// `auto` (the default) colours only when standard output is a terminal, `NO_COLOR` is unset or empty
/// (no-color.org: any non-empty value turns colour off) and `TERM` is not `dumb`. `always` colours whatever
/// standard output is (`lifetrace audit --color always | less -R`); `never` never does. Colour never goes into a
/// file written with `-o`, nor into a machine format.
enum ColorOption {
    static let choices = ["auto", "always", "never"]

    /// The option, as every command that colours lists it.
    static let spec = OptionSpec(
        "color", value: "WHEN",
        help: "Colour on standard output: auto (default: on a terminal, unless NO_COLOR is set or TERM=dumb), always or never.",
        choices: choices)

    /// The style `--color` (and, for `auto`, the terminal and the environment) asks for.
    ///
    /// - Throws: `ValidationError` for a value other than `auto`, `always` or `never`.
    static func style(_ arguments: ParsedArguments, output: CommandOutput) throws -> TerminalStyle {
        switch try arguments.choice("color", among: choices, default: "auto") {
        case "always": return TerminalStyle(isEnabled: true)
        case "never": return .plain
        default: return TerminalStyle(isEnabled: isAutomaticallyEnabled(output))
        }
    }

    /// `--color auto`: standard output is a terminal, `NO_COLOR` is unset or empty, and `TERM` is not `dumb`.
    static func isAutomaticallyEnabled(_ output: CommandOutput) -> Bool {
        guard output.isStandardOutputTerminal else { return false }
        if let noColor = output.environment["NO_COLOR"], !noColor.isEmpty { return false }
        return output.environment["TERM"] != "dumb"
    }
}
