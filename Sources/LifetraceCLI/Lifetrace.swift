import ArgumentParsing

/// The `lifetrace` command line: dispatches to a subcommand and maps errors to exit codes.
///
/// Nothing below this module prints or exits; `run(arguments:output:)` returns the exit code and the
/// executable's `main.swift` exits with it.
public enum Lifetrace {
    static let program = "lifetrace"
    static let version = "0.1.0"

    /// Every subcommand, in the order `lifetrace --help` lists them.
    static let commands: [any Command.Type] = [
        ImportCommand.self,
        InfoCommand.self,
        VerifyCommand.self,
        EventsCommand.self,
        ExportCommand.self,
        SimulateCommand.self,
        StateCommand.self,
        TimelineCommand.self,
        AuditCommand.self,
        ReportCommand.self,
        RulesCommand.self,
        CompletionsCommand.self,
    ]

    /// Runs `lifetrace` with `arguments` (without the program name).
    ///
    /// - Returns: 0 success, 1 problem found, 2 usage error or unreadable input.
    public static func run(arguments: [String], output: CommandOutput) -> ExitCode {
        guard let first = arguments.first else {
            // Like git and other tools with subcommands: a missing command is a usage error, and the usage goes
            // to standard error so a script that captures standard output gets nothing it could mistake for a result.
            output.errorLine("\(program): error: missing command")
            output.write(toStandardError: overview)
            return .usageOrInput
        }
        switch first {
        case "--help", "-h", "help":
            guard arguments.count > 1 else {
                output.write(overview)
                return .success
            }
            if arguments[1] == "--man" {
                guard arguments.count == 2 else {
                    output.errorLine("\(program): error: 'help --man' takes nothing more; got '\(arguments[2])'")
                    return .usageOrInput
                }
                output.write(ManPage.render())
                return .success
            }
            guard let command = command(named: arguments[1]) else {
                output.errorLine("\(program): error: no help for unknown command '\(arguments[1])'\(suggestion(for: arguments[1])); see '\(program) --help'")
                return .usageOrInput
            }
            output.write(command.spec.helpText(program: program))
            return .success
        case "--version", "-V":
            output.line("\(program) \(version)")
            return .success
        default:
            break
        }
        guard let command = command(named: first) else {
            let what = first.hasPrefix("-") && first != "-" ? "unknown option" : "unknown command"
            output.errorLine("\(program): error: \(what) '\(first)'\(suggestion(for: first))")
            output.write(toStandardError: overview)
            return .usageOrInput
        }
        let spec = command.spec
        do {
            let parsed = try spec.parse(Array(arguments.dropFirst()))
            return try command.run(parsed, output: output)
        } catch is HelpRequested {
            output.write(spec.helpText(program: program))
            return .success
        } catch let error as ValidationError {
            output.errorLine("\(program) \(spec.name): error: \(error.message)\(otherCommands(taking: error.unknownOption))")
            output.errorLine("usage: \(program) \(spec.name) \(spec.usage)")
            return .usageOrInput
        } catch {
            output.errorLine("\(program) \(spec.name): error: \(error)")
            return .usageOrInput
        }
    }

    /// How messages about running `arguments` begin: `lifetrace events` for a command (every error, warning and
    /// note of a command names it), `lifetrace` without one.
    public static func messagePrefix(arguments: [String]) -> String {
        guard let first = arguments.first, let command = command(named: first) else { return program }
        return "\(program) \(command.spec.name)"
    }

    /// Commands that work but are not listed in `--help`: test helpers.
    static let hiddenCommands: [any Command.Type] = [RecordStressCommand.self]

    static func command(named name: String) -> (any Command.Type)? {
        (commands + hiddenCommands).first { $0.spec.name == name }
    }

    /// `" (did you mean 'audit'?)"` when `word` (without leading dashes) is at most two edits from a listed
    /// command's name, else "" (`Spelling`, as for options).
    /// For a word that starts with a dash, `--help` and `--version` come first (`--verison`), then the commands
    /// (`--adit`).
    static func suggestion(for word: String) -> String {
        var name = Substring(word)
        while name.hasPrefix("-") { name = name.dropFirst() }
        guard !name.isEmpty else { return "" }
        let options = ["help", "version"]
        if word.hasPrefix("-"), let option = options.contains(String(name)) ? String(name) : Spelling.nearest(to: String(name), among: options) {
            return " (did you mean '--\(option)'?)"  // `-version`, `--verison`
        }
        return Spelling.suggestion(for: String(name), among: commands.map { $0.spec.name })
    }

    /// `" (an option of 'audit' and 'import')"` when commands other than the one run take option `--name`, else "".
    static func otherCommands(taking name: String?) -> String {
        guard let name else { return "" }
        let owners = commands.filter { command in command.spec.options.contains { $0.name == name } }.map { "'\($0.spec.name)'" }
        guard let last = owners.last else { return "" }
        let list = owners.count == 1 ? last : owners.dropLast().joined(separator: ", ") + " and " + last
        return " (an option of \(list))"
    }

    static var overview: String {
        var lines = [
            "OVERVIEW: Record, replay and audit UIViewController lifecycle traces.",
            "",
            "USAGE: \(program) <command> [options]",
            "       \(program) --help | -h | help [<command>]",
            "       \(program) help --man                 the manual page (roff: man -l <(\(program) help --man))",
            "       \(program) --version | -V",
            "",
            "COMMANDS:",
        ]
        let width = (commands.map { $0.spec.name.count }.max() ?? 0) + 2
        for command in commands {
            let name = command.spec.name
            lines.append("  \(name)\(String(repeating: " ", count: width - name.count))\(command.spec.abstract)")
        }
        lines += [
            "",
            "Run '\(program) <command> --help' (or '\(program) help <command>') for a command's options and examples.",
            "Without a command, or with a mistyped one, \(program) prints this on standard error and exits 2.",
            "Every command that reads a TRACE reads a .lifetrace file or a JSON Lines export of one (told apart by content).",
            "",
            "Examples:",
            "  \(program) audit                                  audit every trace under traces/",
            "  \(program) import console.log -o app.lifetrace    a console log of print()/NSLog lines into a trace",
            "  \(program) state app.lifetrace --at 6s            every controller's state 6 s after the first event",
            "",
            "Exit codes (every command): 0 success; 1 problem found (error-level findings, a damaged trace, failed verification, or",
            "'events' or 'timeline' that selects nothing, as grep); 2 usage error or unreadable input (not a trace, a frame or",
            "JSON line that does not decode), or standard output that cannot be written (a full disk; a reader that went away,",
            "as in '| head', only stops the output).",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
