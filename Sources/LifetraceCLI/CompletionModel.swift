import ArgumentParsing
import Audit

/// What a shell completes for `lifetrace`, taken from the commands' `CommandSpec`s (the data `--help` prints), so
/// the completion scripts (`ShellCompletionScript`) and the man page (`ManPage`) say what the parser accepts.
struct CompletionModel {
    /// What an option's value is.
    enum Value: Equatable {
        /// A flag: no value.
        case none
        /// One of a fixed set (`--format text|json`).
        case choices([String])
        /// A path (`FILE`, `TRACE`, `-o`).
        case file
        /// Anything (`--at T`, `--jobs N`).
        case free
    }

    struct Option {
        var spec: OptionSpec
        var value: Value
        /// The help without its final period, for the shells' descriptions.
        var summary: String
    }

    /// What the positional arguments are.
    enum Positional: Equatable {
        /// None.
        case none
        /// Paths (a TRACE, LOG, SCENARIO).
        case files
        /// One of a fixed set (`rules ID`).
        case words([String])
    }

    struct Command {
        var name: String
        var abstract: String
        var options: [Option]
        var positional: Positional
    }

    let program: String
    let commands: [Command]

    /// The model of `lifetrace`'s listed commands.
    static var lifetrace: CompletionModel {
        CompletionModel(program: Lifetrace.program, specs: Lifetrace.commands.map { $0.spec })
    }

    init(program: String, specs: [CommandSpec]) {
        self.program = program
        commands = specs.map { spec in
            var options = spec.options.map { option in
                Option(spec: option, value: Self.value(of: option, usage: spec.usage), summary: Self.summary(option.help))
            }
            options.append(Option(spec: OptionSpec("help", short: "h", help: "Show this help and exit."), value: .none, summary: "Show this help and exit"))
            let positional: Positional
            if spec.positionalCount.max == 0 {
                positional = .none
            } else if spec.name == "rules" {
                positional = .words(BuiltinRules.all.map(\.descriptor.id))
            } else if spec.name == "completions" {
                positional = .words(ShellCompletionScript.Shell.allCases.map(\.rawValue))
            } else {
                positional = .files
            }
            return Command(name: spec.name, abstract: spec.abstract, options: options, positional: positional)
        }
    }

    /// The value an option takes: its `choices`, else the choices the usage line writes after it
    /// (`--format text|json`, lowercase words only: `--process NAME|PID` is free), else a path for a `FILE`,
    /// `TRACE`, `LOG` or `DIR`, else anything.
    static func value(of option: OptionSpec, usage: String) -> Value {
        guard let valueName = option.valueName else { return .none }
        if let choices = option.choices { return .choices(choices) }
        let words = usage.split(whereSeparator: { $0 == " " || $0 == "[" || $0 == "]" }).map(String.init)
        if let index = words.firstIndex(of: "--\(option.name)"), index + 1 < words.count {
            let alternatives = words[index + 1].split(separator: "|").map(String.init)
            if alternatives.count > 1, alternatives.allSatisfy({ $0.allSatisfy { $0.isLowercase || $0 == "-" } }) {
                return .choices(alternatives)
            }
        }
        return ["FILE", "TRACE", "LOG", "DIR", "SCENARIO"].contains(valueName) ? .file : .free
    }

    /// The help without its final period.
    static func summary(_ help: String) -> String {
        var text = help
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
