/// What a command accepts and how it explains itself in `--help`.
public struct CommandSpec: Sendable {
    /// The command's name as typed, e.g. `events`.
    public var name: String
    /// One line saying what the command does.
    public var abstract: String
    /// The argument part of the usage line, e.g. `TRACE [--from T] [--to T]`.
    public var usage: String
    /// Paragraphs shown after the options in `--help` (examples, exit codes).
    public var discussion: String
    public var options: [OptionSpec]
    /// The smallest and largest number of positional arguments (`nil` for no upper bound).
    public var positionalCount: (min: Int, max: Int?)

    public init(
        name: String,
        abstract: String,
        usage: String,
        discussion: String = "",
        options: [OptionSpec] = [],
        positionalCount: (min: Int, max: Int?) = (0, 0)
    ) {
        self.name = name
        self.abstract = abstract
        self.usage = usage
        self.discussion = discussion
        self.options = options
        self.positionalCount = positionalCount
    }

    /// The full `--help` text for `lifetrace NAME`.
    public func helpText(program: String) -> String {
        var lines = ["OVERVIEW: \(abstract)", "", "USAGE: \(program) \(name) \(usage)".trimmingTrailingSpaces(), ""]
        let all = options + [OptionSpec("help", short: "h", help: "Show this help and exit.")]
        lines.append("OPTIONS:")
        let width = min(34, (all.map(\.synopsis.count).max() ?? 0) + 2)
        for option in all {
            let synopsis = option.synopsis
            let padding = String(repeating: " ", count: max(2, width - synopsis.count))
            // Say which options may be given again (values accumulate), unless the help already does.
            let repeats = option.isRepeatable && !option.help.lowercased().contains("repeat") ? " Repeatable." : ""
            lines.append("  \(synopsis)\(padding)\(option.help)\(repeats)")
        }
        if !discussion.isEmpty {
            lines.append("")
            lines.append(discussion)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Parses `arguments` (the words after the command's name).
    ///
    /// Accepts `--name value`, `--name=value`, `-o value`, flags, and `--` to end options.
    /// - Throws: `ValidationError` naming the unknown option, the option missing its value, a repeated
    ///   non-repeatable option, or a wrong number of positional arguments. `HelpRequested` for `-h`/`--help`.
    public func parse(_ arguments: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if optionsEnded || word == "-" || !word.hasPrefix("-") {
                parsed.positionals.append(word)
                continue
            }
            if word == "--" {
                optionsEnded = true
                continue
            }
            if word == "--help" || word == "-h" {
                throw HelpRequested()
            }
            var name: String
            var inlineValue: String?
            let spec: OptionSpec?
            if word.hasPrefix("--") {
                name = String(word.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                spec = options.first { $0.name == name }
            } else {
                name = String(word.dropFirst())
                if name.count > 1 {
                    inlineValue = String(name.dropFirst())
                    name = String(name.prefix(1))
                }
                spec = options.first { $0.short.map(String.init) == name }
            }
            guard let spec else {
                if word.count > 1, Double(word) != nil {
                    parsed.positionals.append(word)
                    continue
                }
                let suggestion = optionSuggestion(for: word)
                var error = ValidationError("unknown option '\(word)' for '\(self.name)'\(suggestion)")
                if suggestion.isEmpty, word.hasPrefix("--") { error.unknownOption = name }
                throw error
            }
            if spec.isFlag {
                if inlineValue != nil {
                    throw ValidationError("option '--\(spec.name)' takes no value")
                }
                parsed.flags.insert(spec.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw ValidationError("option '--\(spec.name)' needs a value (\(spec.valueName ?? "VALUE"))")
                }
                value = arguments[index]
                index += 1
            }
            if !spec.isRepeatable, parsed.values[spec.name] != nil {
                throw ValidationError("option '--\(spec.name)' given more than once")
            }
            parsed.values[spec.name, default: []].append(value)
        }
        if parsed.positionals.count < positionalCount.min {
            // The usage line follows the error (the CLI prints it), so name only what is missing.
            let expected = usage.split(separator: " ").filter { !$0.hasPrefix("[") && !$0.hasPrefix("-") }
            let missing = expected.dropFirst(parsed.positionals.count).first.map { " \($0)" } ?? ""
            throw ValidationError("missing argument\(missing)")
        }
        if let max = positionalCount.max, parsed.positionals.count > max {
            let extra = parsed.positionals[max]
            throw ValidationError("unexpected argument '\(extra)' (\(name) takes \(max == 0 ? "no" : "at most \(max)") positional argument\(max == 1 ? "" : "s"))")
        }
        return parsed
    }
}

extension CommandSpec {
    /// `" (did you mean '--controller'?)"` for an unknown option `word` (`--controler`, `--controler=X`, or the long
    /// name with one dash, `-controller`) near one of the command's long options (`Spelling`), else "".
    func optionSuggestion(for word: String) -> String {
        var name = Substring(word)
        while name.hasPrefix("-") { name = name.dropFirst() }
        if let equals = name.firstIndex(of: "=") { name = name[..<equals] }
        guard name.count > 1 else { return "" }
        let longNames = options.map(\.name) + ["help"]
        if longNames.contains(String(name)) { return " (did you mean '--\(name)'?)" }  // `-controller`
        return Spelling.nearest(to: String(name), among: longNames).map { " (did you mean '--\($0)'?)" } ?? ""
    }
}

/// Thrown by `CommandSpec.parse` when the arguments ask for help.
public struct HelpRequested: Error, Sendable {
    public init() {}
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
