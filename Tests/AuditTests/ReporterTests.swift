import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TraceModel
@testable import Audit

@Suite("Reporters")
struct ReporterTests {
    /// Case 01's shape, audited, as the CLI would report it with a JSONL export beside the trace.
    func report(strict: Bool = false, sources: Bool = false) throws -> AuditReport {
        var events = InstantLog("""
            0.0 NoteEditorViewController viewDidLoad
            0.1 NoteEditorViewController viewWillAppear
            0.2 NoteEditorViewController viewDidAppear
            1.0 NoteEditorViewController edit key=draft
            2.0 NoteEditorViewController viewWillDisappear
            2.1 NoteEditorViewController save critical=true key=draft
            2.5 NoteEditorViewController viewWillAppear
            2.6 NoteEditorViewController viewDidAppear
            3.0 NoteEditorViewController viewDidAppear
            4.0 NoteEditorViewController edit key=draft
            5.0 app didEnterBackground
            """).events
        if !sources { for index in events.indices { events[index].source = nil } }
        let auditor = try Auditor()
        let findings = auditor.audit(events)
        let trace = TraceAudit(path: "traces/notes.lifetrace", eventCount: UInt64(events.count), findings: findings, jsonlPath: "traces/notes.lifetrace.jsonl", jsonlFirstEventLine: 2)
        return AuditReport(traces: [trace], rules: auditor.active.map(\.rule.descriptor), isStrict: strict)
    }

    @Test("text: compiler-style lines with time, controller, callback, fix, then a summary")
    func text() throws {
        let output = TextReporter.render(try report())
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("traces/notes.lifetrace:event 5: error: critical save of 'draft'") && $0.hasSuffix("(critical_save_placement)") })
        #expect(lines.contains { $0.hasPrefix("traces/notes.lifetrace:event 8: warning: ") && $0.hasSuffix("(appearance_balance)") })
        #expect(lines.contains("    at 2.100 s (t=2100000000 ns) in NoteEditorViewController#1, callback viewWillDisappear"))
        #expect(lines.contains { $0.hasPrefix("    fix: Move the critical save") })
        #expect(lines.last == "audited 1 trace (11 events) with \(BuiltinRules.enabledByDefault.count) rules: 2 errors, 1 warning, 0 notes")
    }

    @Test("JSON: traces, findings with the documented keys, summary")
    func json() throws {
        let document = JSONReporter.document(try report())
        guard case .array(let findings)? = document["findings"] else {
            Issue.record("no findings array")
            return
        }
        #expect(findings.count == 3)
        guard case .object(let first) = findings[0] else { return }
        #expect(first.map(\.0).prefix(10) == ["rule", "severity", "verdict", "controller", "t_ns", "time", "event", "callback", "message", "related"])
        #expect(findings[0]["rule"] == .string("critical_save_placement"))
        #expect(findings[0]["t_ns"] == .int(2_100_000_000))
        #expect(findings[0]["event"] == .int(5))
        #expect(document["summary"]?["errors"] == .int(2))
        #expect(document["summary"]?["failed"] == .bool(true))
        let parsed = try JSONSerialization.jsonObject(with: Data(JSONReporter.render(try report()).utf8))
        #expect(parsed is [String: Any])
    }

    @Test("JUnit: a test case per rule and trace; errors fail, warnings fail only with --strict")
    func junit() throws {
        let plain = JUnitReporter.render(try report())
        #expect(plain.components(separatedBy: "<testcase ").count - 1 == BuiltinRules.enabledByDefault.count)
        #expect(plain.contains("<testsuite name=\"traces/notes.lifetrace\" tests=\"\(BuiltinRules.enabledByDefault.count)\" failures=\"2\""))
        #expect(plain.contains("<system-out>"))
        let strict = JUnitReporter.render(try report(strict: true))
        #expect(strict.contains("failures=\"3\""))
        _ = try XMLDocument(data: Data(strict.utf8))
    }

    @Test("GitHub: one workflow command per finding, pointing at the JSONL line, escaped")
    func github() throws {
        let lines = GitHubAnnotationReporter.render(try report()).split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("::error file=traces/notes.lifetrace.jsonl,line=7,title=critical_save_placement::critical save"))
        #expect(lines[1].hasPrefix("::warning file=traces/notes.lifetrace.jsonl,line=10,title=appearance_balance::"))
        #expect(GitHubAnnotationReporter.escapeData("50% a\nb") == "50%25 a%0Ab")
        #expect(GitHubAnnotationReporter.escapeProperty("a:b,c") == "a%3Ab%2Cc")
    }

    @Test("locations prefer the event's recorded source file and line")
    func sourceLocations() throws {
        let trace = try report(sources: true).traces[0]
        let finding = try #require(trace.findings.first)
        #expect(trace.location(ordinal: finding.ordinal, source: finding.source) == TraceAudit.Location(file: "case.log", line: 6))
    }
}

@Suite("Locations")
struct LocationTests {
    @Test("paths under the repository root become relative to it, others absolute; input paths are relative to the working directory")
    func relative() {
        var trace = TraceAudit(path: "../traces/a.jsonl", eventCount: 3, findings: [], jsonlPath: "../traces/a.jsonl")
        trace.paths = RepositoryPaths(root: "/repo", workingDirectory: "/repo/app/")
        #expect(trace.location(ordinal: 2, source: nil) == TraceAudit.Location(file: "traces/a.jsonl", line: 3))
        #expect(trace.location(ordinal: 0, source: EventSource(file: "/elsewhere/App.swift", line: 12)) == TraceAudit.Location(file: "/elsewhere/App.swift", line: 12))
        #expect(trace.location(ordinal: 0, source: EventSource(file: "/repo/Sources/App.swift", line: 12)) == TraceAudit.Location(file: "Sources/App.swift", line: 12))
        // A recorded relative path (an imported log) is relative to the root already.
        #expect(trace.location(ordinal: 0, source: EventSource(file: "logs/case.log", line: 6)) == TraceAudit.Location(file: "logs/case.log", line: 6))
        trace.jsonlPath = nil
        #expect(trace.location(ordinal: 1, source: nil) == TraceAudit.Location(file: "traces/a.jsonl", line: nil))
        trace.path = "/tmp/./x/../b.lifetrace"
        #expect(trace.location(ordinal: 1, source: nil) == TraceAudit.Location(file: "/tmp/b.lifetrace", line: nil))
    }

    @Test("URIs: relative references percent-encoded, absolute paths as file:// URIs, a colon in the first segment guarded")
    func uri() {
        #expect(RepositoryPaths.uri("traces/my trace.lifetrace") == "traces/my%20trace.lifetrace")
        #expect(RepositoryPaths.uri("a/b-c_d.e~f") == "a/b-c_d.e~f")
        #expect(RepositoryPaths.uri("/tmp/a b.lifetrace") == "file:///tmp/a%20b.lifetrace")
        #expect(RepositoryPaths.uri("c:d/x") == "./c:d/x")
    }
}
