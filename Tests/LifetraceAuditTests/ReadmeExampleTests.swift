import Audit
import Foundation
import LifetraceAudit
import Testing

/// The README's Swift Testing example, run: it passes on a clean trace and fails on an error-level finding or on a
/// damaged trace. Its body is the README's, line for line (`readmeShowsThisCode`).
@Suite("the README's Swift Testing example")
struct ReadmeExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The README's test body, for the trace at `path` (relative to the repository root).
    func lifecycleRulesHold(_ path: String) throws {
        let trace = Self.root.appendingPathComponent(path).path
        // README begin
        let audit = try FileAuditor().audit(trace)
        #expect(audit.isComplete, "damaged trace: \(audit.problems.map(\.message))")
        for finding in audit.errors {
            Issue.record("\(finding.ruleID) at event \(finding.ordinal): \(finding.message)")
        }
        // README end
    }

    @Test("a clean trace passes")
    func clean() throws {
        try lifecycleRulesHold("traces/push.lifetrace")
    }

    @Test("an error-level finding fails the test")
    func failing() throws {
        withKnownIssue {
            try lifecycleRulesHold("traces/cases/01-cancelled-pop-save.lifetrace")
        }
    }

    @Test("a torn trace fails the test even without findings: a damaged input is not a clean one")
    func torn() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-readme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let torn = directory.appendingPathComponent("torn.lifetrace")
        var bytes = try Data(contentsOf: Self.root.appendingPathComponent("traces/push.lifetrace"))
        bytes.append(contentsOf: [0x4C, 0x54, 0x46, 0x52, 0x01])  // the start of a frame, cut short
        try bytes.write(to: torn)
        let audit = try FileAuditor().audit(torn.path)
        #expect(!audit.isComplete && !audit.passes)
        #expect(audit.problems.first?.severity == .warning)
        withKnownIssue {
            #expect(audit.isComplete, "damaged trace: \(audit.problems.map(\.message))")
        }
    }

    @Test("a JSON Lines export and a console log are audited by the same call")
    func otherInputs() throws {
        let log = Self.root.appendingPathComponent("Tests/Fixtures/cases/01-cancelled-pop-save.log").path
        let audit = try FileAuditor().audit(log)
        #expect(audit.kind == .consoleLog && audit.isComplete && audit.trace.eventCount > 0)
    }

    @Test("the README shows this code")
    func readmeShowsThisCode() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let body = source.components(separatedBy: "// README begin\n")[1].components(separatedBy: "        // README end")[0]
        for line in body.split(separator: "\n") {
            #expect(readme.contains(line.trimmingCharacters(in: .whitespaces)), "README lacks: \(line)")
        }
        #expect(readme.contains("import LifetraceAudit"))
    }
}
