import Audit
import Foundation
import Testing
@testable import LifetraceCLI

/// The GitHub job summary (`--format markdown`, `$GITHUB_STEP_SUMMARY`) and JUnit's `time` and `<skipped>`, checked
/// with the real consumers' tools (`xmlschema` against the Jenkins xUnit plugin's junit-10.xsd, `junitparser`).
@Suite("job summary and JUnit for CI")
struct JobSummaryJUnitTests {
    static let committed = SARIFLocationTests.committed
    static let xsd = "Tests/Fixtures/schemas/junit-10.xsd"

    /// `audit` in process with `environment`.
    func run(_ arguments: [String], environment: [String: String]) -> (code: ExitCode, out: String, err: String) {
        let captured = CapturedOutput()
        let output = CommandOutput(
            standardOutput: { captured.standardOutput += $0 }, standardError: { captured.standardError += $0 },
            environment: environment)
        let code = Lifetrace.run(arguments: arguments, output: output)
        return (code, captured.standardOutput, captured.standardError)
    }

    @Test("JUnit validates against junit-10.xsd; junitparser reads each suite's time and a disabled rule as skipped")
    func junit() throws {
        let scratch = try CLIScratch("junit")
        let config = scratch.path("config.json")
        try #"{"disabled_rules": ["leaked_controller"]}"#.write(toFile: config, atomically: false, encoding: .utf8)
        let result = runCLI(["audit", Self.committed, "--format", "junit", "--config", config])
        let file = scratch.path("report.xml")
        try result.out.write(toFile: file, atomically: false, encoding: .utf8)
        let read = try ExternalValidator.run(tool: "validate-junit.py", [ExternalValidator.file(Self.xsd), file])
        #expect(read.status == 0, "\(read.output)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(read.output.utf8)) as? [String: Any])
        let suite = try #require((object["suites"] as? [[String: Any]])?.first)
        #expect(suite["skipped"] as? Int == 2, "leaked_controller, disabled, and the opt-in request_not_cancelled")
        #expect(suite["failures"] as? Int == 2)
        #expect((suite["time"] as? Double).map { $0 >= 0 } == true, "the audit's measured time: \(suite)")
        #expect(result.out.contains(#"<testsuite name="traces/cases/01-cancelled-pop-save.lifetrace" tests=""#) && result.out.contains(#"" time=""#))
        let cases = try #require(suite["cases"] as? [[String: Any]])
        let skipped = try #require(cases.first { $0["name"] as? String == "leaked_controller" })
        #expect(skipped["results"] as? [String] == ["skipped"])
        #expect(cases.count == BuiltinRules.all.count, "every rule: those that ran and the one skipped")
    }

    @Test("the validator is a real check: a suite without its required counts is refused")
    func junitRefuses() throws {
        let scratch = try CLIScratch("junit-bad")
        let file = scratch.path("bad.xml")
        try #"<testsuites><testsuite name="x"><testcase name="y"/></testsuite></testsuites>"#.write(toFile: file, atomically: false, encoding: .utf8)
        let read = try ExternalValidator.run(tool: "validate-junit.py", [ExternalValidator.file(Self.xsd), file])
        #expect(read.status == 1, "\(read.output)")
    }

    @Test("--format markdown: every finding in a table under its rule, located in the committed log")
    func markdown() throws {
        let result = runCLI(["audit", Self.committed, "--format", "markdown", "--category", "ui-tests"])
        #expect(result.code == .problemFound)
        let text = result.out
        #expect(text.hasPrefix("## Lifetrace audit (ui-tests)\n"))
        #expect(text.contains("**Failed:** audited 1 trace"))
        #expect(text.contains("### `critical_save_placement` — 1 error\n"))
        #expect(text.contains("### `unsaved_edit_at_exit` — 1 error\n"))
        #expect(text.contains("| Tests/Fixtures/cases/01-cancelled-pop-save.log:11 | traces/cases/01-cancelled-pop-save.lifetrace:event 10 |"), "\(text)")
    }

    @Test("a table cell cannot be broken or marked up by text from a trace")
    func markdownEscaping() {
        #expect(MarkdownReporter.cell("a|b\nc <img> *x*") == "a\\|b\\\\nc &lt;img&gt; \\*x\\*")
    }

    @Test("GITHUB_STEP_SUMMARY: the summary is appended to the runner's file, never replacing it; a missing file is a warning")
    func stepSummary() throws {
        let scratch = try CLIScratch("summary")
        let summary = scratch.path("summary.md")
        try "earlier step\n".write(toFile: summary, atomically: false, encoding: .utf8)
        let result = run(["audit", Self.committed, "--format", "sarif"], environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(result.code == .problemFound)
        #expect(result.out.contains("\"version\": \"2.1.0\""), "the report itself is unchanged")
        let written = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(written.hasPrefix("earlier step\n## Lifetrace audit\n"))
        #expect(written.contains("### `critical_save_placement`"))

        let missing = scratch.path("missing.md")
        let warned = run(["audit", Self.committed], environment: ["GITHUB_STEP_SUMMARY": missing])
        #expect(warned.code == .problemFound)
        #expect(warned.err.contains("lifetrace audit: warning: cannot append the job summary"))
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
