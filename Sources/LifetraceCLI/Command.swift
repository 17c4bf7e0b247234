import ArgumentParsing

/// One `lifetrace` subcommand. Each lives in its own file under `Commands/` and is listed in
/// `Lifetrace.commands`.
protocol Command: Sendable {
    /// Name, abstract, usage, options and help text.
    static var spec: CommandSpec { get }

    /// Runs the command with parsed arguments, writing to `output`.
    ///
    /// - Returns: The exit code (see `ExitCode`).
    /// - Throws: `ValidationError` for bad arguments (exit 2, usage printed); any other error is printed as
    ///   `lifetrace: error: …` with exit 2 (unreadable input).
    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode
}
