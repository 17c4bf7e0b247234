import Foundation
import Testing
import TraceModel
@testable import LifetraceCLI

/// Rules written in the rule language appear wherever built-in rules do: the audit in every format, the
/// configuration, `lifetrace rules`, `lifetrace rules ID`, `lifetrace rules --check`; a bad rule file is exit 2.
@Suite("custom rules on the command line")
struct CustomRuleCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let ruleFile = root.appendingPathComponent("examples/rules/builtins/critical_save_placement.rule").path
    static let id = "my_critical_save_placement"

    func run(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        let (output, captured) = CommandOutput.capturing()
        let code = Lifetrace.run(arguments: arguments, output: output)
        return (code, captured.standardOutput, captured.standardError)
    }

    func trace(_ scratch: AuditCommandTests.Scratch) throws -> String {
        let path = scratch.path("notes.lifetrace")
        try AuditCommandTests.writeTrace(AuditCommandTests.cancelledPopEvents, to: path)
        return path
    }

    @Test("text, json, sarif, junit, github and ndjson reports carry the custom rule's finding")
    func everyFormat() throws {
        let scratch = try AuditCommandTests.Scratch()
        let trace = try trace(scratch)
        let text = run(["audit", trace, "--rules", Self.ruleFile])
        #expect(text.code == .problemFound, "\(text.err)")
        #expect(text.out.contains("\(trace):event 10: error: critical save of 'draft' at 5.904 s happens inside viewWillDisappear"), "\(text.out)")
        #expect(text.out.contains("(\(Self.id))"))
        #expect(text.out.contains("with 16 rules"))
        for format in ["json", "sarif", "junit", "github", "ndjson"] {
            let result = run(["audit", trace, "--rules", Self.ruleFile, "--format", format, "-o", scratch.path("report.\(format)")])
            #expect(result.code == .problemFound, "\(format): \(result.err)")
            let report = try String(contentsOfFile: scratch.path("report.\(format)"), encoding: .utf8)
            #expect(report.contains(Self.id), "\(format)")
        }
    }

    @Test("the configuration sets a custom rule's severity and disables it by id")
    func configuration() throws {
        let scratch = try AuditCommandTests.Scratch()
        let trace = try trace(scratch)
        let config = scratch.path("config.json")
        try Data(#"{"rules": {"my_critical_save_placement": {"severity": "note"}}, "disabled_rules": ["critical_save_placement", "unsaved_edit_at_exit"]}"#.utf8).write(to: URL(fileURLWithPath: config))
        let lowered = run(["audit", trace, "--rules", Self.ruleFile, "--config", config])
        #expect(lowered.code == .success, "\(lowered.out)\(lowered.err)")
        #expect(lowered.out.contains("\(trace):event 10: note: critical save of 'draft'"), "\(lowered.out)")
        try Data(#"{"disabled_rules": ["my_critical_save_placement"]}"#.utf8).write(to: URL(fileURLWithPath: config))
        let disabled = run(["audit", trace, "--rules", Self.ruleFile, "--config", config])
        #expect(!disabled.out.contains(Self.id))
        try Data(#"{"rules": {"my_critical_save_placment": {"severity": "note"}}}"#.utf8).write(to: URL(fileURLWithPath: config))
        let unknown = run(["audit", trace, "--rules", Self.ruleFile, "--config", config])
        #expect(unknown.code == .usageOrInput)
        // Without the rule file, its id is unknown to the configuration.
        try Data(#"{"disabled_rules": ["my_critical_save_placement"]}"#.utf8).write(to: URL(fileURLWithPath: config))
        #expect(run(["audit", trace, "--config", config]).code == .usageOrInput)
    }

    @Test("lifetrace rules lists, explains and checks custom rules")
    func rulesCommand() throws {
        let list = run(["rules", "--rules", Self.ruleFile])
        #expect(list.code == .success)
        #expect(list.out.split(separator: "\n").contains { $0.hasPrefix(Self.id + " ") && $0.hasSuffix("warning  A critical save of a key made inside viewWillDisappear, when the controller type never saves that key in viewDidDisappear or on didEnterBackground.") }, "\(list.out)")
        let one = run(["rules", Self.id, "--rules", Self.ruleFile])
        #expect(one.code == .success)
        #expect(one.out.hasPrefix("\(Self.id) (warning)"))
        #expect(one.out.contains("EXAMPLE (1 finding error): draft saved only in viewWillDisappear; the swipe-back is cancelled"))
        #expect(one.out.contains("mark save key=draft critical=true @ NoteEditorViewController#2"))
        let check = run(["rules", Self.id, "--check", "--rules", Self.ruleFile])
        #expect(check.code == .success)
        #expect(check.out == "4 examples of 1 rule: all give what they say\n")
    }

    @Test("a failing example and a bad rule file")
    func failures() throws {
        let scratch = try AuditCommandTests.Scratch()
        let wrong = scratch.path("wrong.rule")
        let text = try String(contentsOfFile: Self.ruleFile, encoding: .utf8)
            .replacingOccurrences(of: "example \"also saved in viewDidDisappear\" passes", with: "example \"also saved in viewDidDisappear\" fires")
        try Data(text.utf8).write(to: URL(fileURLWithPath: wrong))
        let check = run(["rules", "--check", "--rules", wrong])
        #expect(check.code == .problemFound)
        #expect(check.out.contains("FAIL \(Self.id): example \"also saved in viewDidDisappear\": expected 1 finding (violation, warning), got no finding"), "\(check.out)")

        let bad = scratch.path("bad.rule")
        try Data("rule typo\n  never viewDidDisapear\nend\n".utf8).write(to: URL(fileURLWithPath: bad))
        let trace = try trace(scratch)
        let audit = run(["audit", trace, "--rules", bad])
        #expect(audit.code == .usageOrInput)
        #expect(audit.err.contains("lifetrace audit: error: \(bad):2:9: unknown event 'viewDidDisapear' (did you mean 'viewDidDisappear'?)"), "\(audit.err)")
        let missing = run(["rules", "--rules", scratch.path("nothing-here")])
        #expect(missing.code == .usageOrInput)
        #expect(missing.err.contains("nothing-here:1:1: no such rule file or directory"))
    }
}
