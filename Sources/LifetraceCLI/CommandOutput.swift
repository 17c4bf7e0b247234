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
    ///   - environment: The environment variables commands read (`GITHUB_STEP_SUMMARY`); the process's by default.
    public init(
        standardOutput: @escaping (String) -> Void, standardError: @escaping (String) -> Void,
        isStandardOutputClosed: @escaping () -> Bool = { false }, environment: [String: String]? = nil
    ) {
        self.environment = environment ?? ProcessInfo.processInfo.environment
        self.writeOut = standardOutput
        self.writeError = standardError
        self.outputClosed = isStandardOutputClosed
    }

    /// The environment variables commands read (`GITHUB_STEP_SUMMARY`): the process's, or a test's own.
    public let environment: [String: String]

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

    /// Writes `text` as it is to standard error.
    public func write(toStandardError text: String) {
        writeError(text)
    }

    /// Writes `text` as one line to standard error: control characters in it (a newline or an escape sequence in
    /// a file name the user gave, which errors and warnings quote) and invisible format characters (a
    /// right-to-left override) are written out (`String.displayEscaped`), so every error and warning stays one
    /// line, as docs/CLI.md promises, reads in the order its bytes hold, and nothing reaches the terminal raw.
    public func errorLine(_ text: String) {
        writeError(text.displayEscaped + "\n")
    }

    /// An output that collects both streams in memory, for tests, with an empty environment.
    public static func capturing() -> (output: CommandOutput, captured: CapturedOutput) {
        let captured = CapturedOutput()
        let output = CommandOutput(
            standardOutput: { captured.standardOutput += $0 },
            standardError: { captured.standardError += $0 },
            environment: [:]
        )
        return (output, captured)
    }
}

/// What a capturing `CommandOutput` received.
public final class CapturedOutput: @unchecked Sendable {
    public var standardOutput = ""
    public var standardError = ""
}
