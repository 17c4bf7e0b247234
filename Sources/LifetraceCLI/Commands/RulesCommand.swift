import ArgumentParsing
import Audit
import TraceModel

/// `lifetrace rules [ID] [--markdown]`
struct RulesCommand: Command {
    static let spec = CommandSpec(
        name: "rules",
        abstract: "List the audit rules, or explain one with its examples.",
        usage: "[ID] [--markdown]",
        discussion: """
            Examples:
              lifetrace rules
              lifetrace rules critical_save_placement
              lifetrace rules --markdown > docs/RULES.md

            An unknown rule id is exit 2.
            """,
        options: [
            OptionSpec("markdown", help: "Print the rules reference (docs/RULES.md) as Markdown."),
        ],
        positionalCount: (0, 1)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        if let id = arguments.positionals.first {
            guard let rule = BuiltinRules.rule(id) else {
                let ids = BuiltinRules.all.map(\.id)
                throw ValidationError("unknown rule '\(id)'\(Spelling.suggestion(for: id, among: ids)); rules: \(ids.joined(separator: ", "))")
            }
            output.write(arguments.flag("markdown") ? RulesDocumentation.markdown(of: rule.descriptor) : RulesDocumentation.text(of: rule.descriptor))
            return .success
        }
        if arguments.flag("markdown") {
            output.write(RulesDocumentation.markdown(BuiltinRules.all.map(\.descriptor)))
            return .success
        }
        output.write(RulesDocumentation.list(BuiltinRules.all.map(\.descriptor)))
        return .success
    }
}
