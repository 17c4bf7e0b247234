import Foundation
import Testing

@testable import LifetraceCLI

/// A newcomer's pass over errors and help (fourth session): the same words for the same mistake on every command,
/// and a reason for every file that cannot be read.
@Suite("newcomer pass: time options, unreadable scenarios, help")
struct NewcomerPassTests {
    @Test("a bad, negative or huge time gets the same message from state --at and events --from/--to; exit 2 with the usage line",
          arguments: [
            ["state", "x.lifetrace", "--at"], ["events", "x.lifetrace", "--from"], ["events", "x.lifetrace", "--to"],
          ])
    func timeOptions(prefix: [String]) {
        let option = prefix[2]
        let command = prefix[0]
        let cases = [
            ("abc", "\(option) must be a duration such as 12.48s, 1500ms, 2m or 1h (units ns, us, µs, ms, s, m, h; a bare number is seconds); got 'abc'"),
            ("0x10", "\(option) must be a duration such as 12.48s, 1500ms, 2m or 1h (units ns, us, µs, ms, s, m, h; a bare number is seconds); got '0x10'"),
            ("-1s", "\(option) '-1s' is negative; times count from the trace's first event (0s)"),
            ("-250ms", "\(option) '-250ms' is negative; times count from the trace's first event (0s)"),
            ("99999999999s", "\(option) '99999999999s' is too large: times are nanoseconds in 64 bits, at most 18446744073.7s (about 584 years)"),
        ]
        for (value, message) in cases {
            let result = runCLI(prefix + [value])
            #expect(result.code == .usageOrInput)
            let lines = result.err.split(separator: "\n")
            #expect(lines.first.map(String.init) == "lifetrace \(command): error: \(message)", "\(result.err)")
            #expect(lines.last?.hasPrefix("usage: lifetrace \(command) ") == true)
        }
    }

    @Test("a scenario that cannot be read says why: missing, or a directory; exit 2")
    func unreadableScenario() throws {
        let scratch = try CLIScratch("newcomer-scenario")
        let missing = runCLI(["simulate", scratch.path("none.scenario")])
        #expect(missing.code == .usageOrInput)
        #expect(missing.err == "lifetrace simulate: error: cannot read scenario '\(scratch.path("none.scenario"))': No such file or directory (errno 2)\n")
        let directory = runCLI(["simulate", scratch.url.path])
        #expect(directory.code == .usageOrInput)
        #expect(directory.err == "lifetrace simulate: error: cannot read scenario '\(scratch.url.path)': is a directory\n")
    }

    @Test("every command's help: examples, no copy of the exit-code paragraph, repeatable options marked, lines of sane width")
    func helpTexts() {
        for command in Lifetrace.commands {
            let help = runCLI([command.spec.name, "--help"]).out
            #expect(!help.contains("EXAMPLES:") && !help.contains("EXIT CODES:"), "\(command.spec.name)")
            #expect(help.contains("Examples:\n  lifetrace \(command.spec.name)"), "\(command.spec.name) help shows examples")
            #expect(!help.contains("Exit codes: 0"), "\(command.spec.name): the exit codes are given once, in 'lifetrace --help'")
            for option in command.spec.options where option.isRepeatable {
                #expect(help.split(separator: "\n").contains { $0.contains("--\(option.name) ") && $0.hasSuffix("Repeatable.") },
                        "\(command.spec.name) --\(option.name)")
            }
            // The discussion (after OPTIONS) wraps at a readable width.
            let discussion = help.components(separatedBy: "-h, --help").last ?? ""
            for line in discussion.split(separator: "\n") {
                #expect(line.count <= 112, "\(command.spec.name): \(line)")
            }
        }
    }
}

/// `import --mark` rules are held to the scenario language's mark vocabulary: before, a typo in a standard mark's
/// name, field or value imported silently and the audit then found nothing.
@Suite("import --mark: standard marks checked as in scenarios")
struct ImportMarkCheckTests {
    static let log: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent("Tests/Fixtures/cases/09-background-draft-lost.log").path
    }()

    @Test("a misspelt standard name, field or value, or a missing required field: exit 2 naming the rule; nothing written",
          arguments: [
            ("composerTextChanged=edti,key=draft", "unknown mark 'edti' (did you mean 'edit'?)"),
            ("composerTextChanged=save,critical=maybe,key=draft", "'critical' of mark 'save' must be true or false; found 'maybe'"),
            ("composerTextChanged=save,kye=draft", "mark 'save' has no field 'kye' (did you mean 'key'?)"),
            ("composerTextChanged=save", "mark 'save' needs key=VALUE"),
            ("composerTextChanged=geometry.read,width=wide,height=2", "'width' of mark 'geometry.read' must be a number; found 'wide'"),
          ])
    func refused(rule: String, message: String) throws {
        let scratch = try CLIScratch("import-mark-check")
        let trace = scratch.path("chat.lifetrace")
        let result = runCLI(["import", Self.log, "-o", trace, "--mark", rule])
        #expect(result.code == .usageOrInput)
        #expect(result.err.hasPrefix("lifetrace import: error: --mark '\(rule)': \(message)"), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: trace))
    }

    @Test("valid standard rules and custom marks with any fields still import")
    func accepted() throws {
        let scratch = try CLIScratch("import-mark-check")
        for rule in ["composerTextChanged=edit,key=draft", "composerTextChanged=save,critical=true,key=draft", "composerTextChanged=myMark,foo=1,bar=x", "composerTextChanged=myMark"] {
            let result = runCLI(["import", Self.log, "-o", scratch.path("chat.lifetrace"), "--mark", rule])
            #expect(result.code == .success, "\(rule): \(result.err)")
        }
    }
}
