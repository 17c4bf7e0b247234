import ArgumentParsing
import Audit
import TraceModel

/// `lifetrace rules [ID] [--markdown] [--check] [--rules PATH]…`
struct RulesCommand: Command {
    static let spec = CommandSpec(
        name: "rules",
        abstract: "List the audit rules, or explain one with its examples.",
        usage: "[ID] [--markdown] [--check] [--rules PATH]…",
        discussion: """
            Examples:
              lifetrace rules
              lifetrace rules critical_save_placement
              lifetrace rules --markdown > docs/RULES.md
              lifetrace rules --check --rules lifetrace-rules/

            The list includes the project's own rules: every *.rule file of --rules PATH, else of the nearest
            lifetrace-rules/ directory upwards (docs/RULE_LANGUAGE.md). --check runs every example of the rules
            (or of rule ID) through the audit and reports those that do not give what they say (exit 1).

            An unknown rule id is exit 2; so is a bad rule file, naming FILE:LINE:COLUMN.
            """,
        options: [
            OptionSpec("markdown", help: "Print the rules reference (docs/RULES.md) as Markdown."),
            OptionSpec("check", help: "Run the rules' examples and report any that do not give what they say."),
            CustomRules.option,
        ],
        positionalCount: (0, 1)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        let custom = try CustomRules.load(arguments)
        let all = BuiltinRules.all + custom
        var selected = all
        if let id = arguments.positionals.first {
            guard let rule = all.first(where: { $0.id == id }) else {
                let ids = all.map(\.id)
                throw ValidationError("unknown rule '\(id)'\(Spelling.suggestion(for: id, among: ids)); rules: \(ids.joined(separator: ", "))")
            }
            selected = [rule]
        }
        if arguments.flag("check") {
            var failed = 0
            var examples = 0
            for rule in selected {
                let failures = RuleExampleCheck.failures(of: rule)
                examples += rule.descriptor.examples.count
                failed += failures.count
                for failure in failures { output.line("FAIL \(failure)") }
            }
            output.line("\(examples) example\(examples == 1 ? "" : "s") of \(selected.count) rule\(selected.count == 1 ? "" : "s"): \(failed == 0 ? "all give what they say" : "\(failed) failed")")
            return failed == 0 ? .success : .problemFound
        }
        if let rule = selected.first, arguments.positionals.first != nil {
            output.write(arguments.flag("markdown") ? RulesDocumentation.markdown(of: rule.descriptor) : RulesDocumentation.text(of: rule.descriptor))
            return .success
        }
        if arguments.flag("markdown") {
            output.write(RulesDocumentation.markdown(all.map(\.descriptor)))
            return .success
        }
        output.write(RulesDocumentation.list(all.map(\.descriptor)))
        return .success
    }
}
