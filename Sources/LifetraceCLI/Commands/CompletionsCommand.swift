import ArgumentParsing

/// `lifetrace completions bash|zsh|fish`: prints a shell completion script (`ShellCompletionScript`).
struct CompletionsCommand: Command {
    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print a shell completion script for bash, zsh or fish.",
        usage: "bash|zsh|fish",
        discussion: """
            The script completes commands, each command's options, the values of options that take one of a fixed
            set (--format, --color), file names where a file is expected, and rule ids for 'lifetrace rules'. It is
            written from the same help data as --help, so it stays in step with the commands. 'lifetrace help --man'
            prints the manual page from the same data.

            Examples:
              lifetrace completions bash > ~/.local/share/bash-completion/completions/lifetrace
              source <(lifetrace completions bash)                     (in ~/.bashrc)
              lifetrace completions zsh > ~/.zfunc/_lifetrace          (a directory of $fpath)
              lifetrace completions fish > ~/.config/fish/completions/lifetrace.fish
            """,
        positionalCount: (1, 1)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        let name = arguments.positionals[0]
        guard let shell = ShellCompletionScript.Shell(rawValue: name) else {
            let shells = ShellCompletionScript.Shell.allCases.map(\.rawValue)
            throw ValidationError("unknown shell '\(name)'\(Spelling.suggestion(for: name, among: shells)); give one of \(shells.joined(separator: ", "))")
        }
        output.write(ShellCompletionScript.script(for: shell))
        return .success
    }
}
