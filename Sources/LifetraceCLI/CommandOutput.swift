import Foundation
import TraceModel

/// Where a command writes: standard output for results, standard error for diagnostics and progress.
///
/// The CLI's `main` passes the process's streams; tests pass buffers and read them back.
public final class CommandOutput: @unchecked Sendable {
    private let writeOut: (String) -> Void
    private let writeError: (String) -> Void
    private let outputClosed: () -> Bool

    /// - Parameters:
    ///   - standardOutput: Receives results, exactly as they should appear (newlines included).
    ///   - standardError: Receives diagnostics and progress.
    ///   - isStandardOutputClosed: Whether nobody reads standard output any more (the reader of a pipe went away,
    ///     as with `lifetrace events T | head`); commands that print one line per event then stop reading.
    ///   - environment: The environment variables commands read (`GITHUB_STEP_SUMMARY`, `NO_COLOR`, `TERM`); the
    ///     process's by default.
    ///   - isStandardOutputTerminal: Whether standard output is a terminal (`--color auto` colours only then).
    ///   - isStandardErrorTerminal: Whether standard error is a terminal (progress lines are shown only then).
    public init(
        standardOutput: @escaping (String) -> Void, standardError: @escaping (String) -> Void,
        isStandardOutputClosed: @escaping () -> Bool = { false }, environment: [String: String]? = nil,
        isStandardOutputTerminal: Bool = false, isStandardErrorTerminal: Bool = false
    ) {
        self.environment = environment ?? ProcessInfo.processInfo.environment
        self.writeOut = standardOutput
        self.writeError = standardError
        self.outputClosed = isStandardOutputClosed
        self.isStandardOutputTerminal = isStandardOutputTerminal
        self.isStandardErrorTerminal = isStandardErrorTerminal
    }

    /// The environment variables commands read (`GITHUB_STEP_SUMMARY`, `NO_COLOR`, `TERM`): the process's, or a
    /// test's own.
    public let environment: [String: String]

    /// Whether standard output is a terminal: `--color auto` colours only then.
    public let isStandardOutputTerminal: Bool

    /// Whether standard error is a terminal: progress lines (`ProgressLine`) are shown only then, never on a pipe
    /// or in a file.
    public let isStandardErrorTerminal: Bool

    /// How long a long task runs before its first progress line (one second; tests set 0).
    public var progressDelay: UInt64 = 1_000_000_000

    /// Whether a progress line is on the terminal now (written by `showProgress`, not yet erased).
    private var progressShown = false

    /// Whether standard output's reader has gone away: what is written from now on is lost, so a command that
    /// streams results can stop early (its exit status stays what it found so far).
    public var isStandardOutputClosed: Bool { outputClosed() }

    /// Whether standard output is text a person reads (a command's text format): then `line` and `write` write
    /// out the control characters other than the line feed and the invisible format characters (bidirectional
    /// overrides, zero-width characters) that names from a trace may hold (`String.displayEscapedKeepingLineFeeds`).
    /// Off (the default) for machine formats (JSON, JSON Lines, SARIF, JUnit XML), which are written exactly.
    /// A command sets it once, before writing, when it has chosen a text format.
    public var isHumanReadable = false

    /// Writes `text` followed by a newline to standard output.
    public func line(_ text: String = "") {
        writeOut((isHumanReadable ? text.displayEscapedKeepingLineFeeds : text) + "\n")
    }

    /// Writes `text` as it is to standard output (escaped as `isHumanReadable` says).
    public func write(_ text: String) {
        writeOut(isHumanReadable ? text.displayEscapedKeepingLineFeeds : text)
    }

    /// Writes coloured text (`TerminalStyle`) to standard output: the colour sequences as they are, the rest
    /// escaped as `isHumanReadable` says (as `write(_:)` does), so no other escape sequence reaches the terminal.
    public func write(styled text: String) {
        guard isHumanReadable else { return writeOut(text) }
        writeOut(TerminalStyle.mappingText(of: text) { $0.displayEscapedKeepingLineFeeds })
    }

    /// Writes `text` to standard output exactly as it is: text that another output escaped already (`HeldOutput`).
    func write(escaped text: String) {
        writeOut(text)
    }

    /// Writes `text` as it is to standard error (erasing a progress line first).
    public func write(toStandardError text: String) {
        eraseProgress()
        writeError(text)
    }

    /// Shows `text` as the progress line on standard error, in place of the one before (`\r`, then erase to the
    /// end of the line); nothing unless standard error is a terminal. `ProgressLine` decides when.
    func showProgress(_ text: String) {
        guard isStandardErrorTerminal else { return }
        writeError("\r" + text.displayEscaped + "\u{1B}[K")
        progressShown = true
    }

    /// Erases the progress line, if one is shown; every other write to standard error does this first, so a
    /// warning never lands at the end of a progress line.
    func eraseProgress() {
        guard progressShown else { return }
        progressShown = false
        writeError("\r\u{1B}[K")
    }

    /// Writes `text` as one line to standard error: control characters in it (a newline or an escape sequence in
    /// a file name the user gave, which errors and warnings quote) and invisible format characters (a
    /// right-to-left override) are written out (`String.displayEscaped`), so every error and warning stays one
    /// line, as docs/CLI.md promises, reads in the order its bytes hold, and nothing reaches the terminal raw.
    public func errorLine(_ text: String) {
        eraseProgress()
        writeError(text.displayEscaped + "\n")
    }

    /// An output that collects both streams in memory, for tests, with an empty environment (or `environment`),
    /// its streams pipes unless said to be terminals.
    public static func capturing(
        environment: [String: String] = [:], isStandardOutputTerminal: Bool = false, isStandardErrorTerminal: Bool = false
    ) -> (output: CommandOutput, captured: CapturedOutput) {
        let captured = CapturedOutput()
        let output = CommandOutput(
            standardOutput: { captured.standardOutput += $0 },
            standardError: { captured.standardError += $0 },
            environment: environment,
            isStandardOutputTerminal: isStandardOutputTerminal,
            isStandardErrorTerminal: isStandardErrorTerminal
        )
        return (output, captured)
    }
}

/// What a capturing `CommandOutput` received.
public final class CapturedOutput: @unchecked Sendable {
    public var standardOutput = ""
    public var standardError = ""
}
