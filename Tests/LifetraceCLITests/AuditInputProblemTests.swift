import Foundation
import Testing
import TraceModel
@testable import LifetraceCLI

/// An input that cannot be read, or only up to its damage, must not look like a clean audit to a machine reader:
/// SARIF marks the invocation unsuccessful with a notification, JSON lists it, JUnit counts an error, GitHub
/// annotates it.
@Suite("audit reports unreadable and damaged inputs in every machine format")
struct AuditInputProblemTests {
    /// A JSON Lines export of case 01's events with, after the 6th event, a line whose time goes backwards.
    func badJSONL(_ scratch: AuditCommandTests.Scratch) throws -> String {
        let trace = scratch.path("notes.lifetrace")
        try AuditCommandTests.writeTrace(AuditCommandTests.cancelledPopEvents, to: trace)
        let export = AuditCommandTests().run(["export", trace])
        #expect(export.code == .success)
        var lines = export.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let events = lines.indices.filter { lines[$0].contains("\"t_ns\"") }
        try #require(events.count > 8)
        lines.insert(#"{"t_ns":1,"kind":"callback","event":"viewDidLoad","phase":"instant","controller":"A#9"}"#, at: events[6])
        let path = scratch.path("bad.jsonl")
        try lines.joined(separator: "\n").write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    @Test("SARIF: executionSuccessful false and an error notification located at the file; exit 2")
    func sarif() throws {
        let scratch = try AuditCommandTests.Scratch()
        let path = try badJSONL(scratch)
        let result = AuditCommandTests().run(["audit", path, "--format", "sarif"])
        #expect(result.code == .usageOrInput)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == false)
        let notification = try #require((invocation["toolExecutionNotifications"] as? [[String: Any]])?.first)
        #expect(notification["level"] as? String == "error")
        let text = try #require((notification["message"] as? [String: Any])?["text"] as? String)
        #expect(text.contains("bad.jsonl:") && text.contains("time goes backwards") && text.contains("event 6 onwards"))
        let physical = (notification["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
        let uri = (physical?["artifactLocation"] as? [String: Any])?["uri"] as? String
        #expect(uri?.hasSuffix("bad.jsonl") == true)
        // The notification points at the bad line itself.
        #expect((physical?["region"] as? [String: Any])?["startLine"] as? Int == (try badLine(path)))
    }

    /// The 1-based line of the inserted bad event in `path`.
    func badLine(_ path: String) throws -> Int {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        return try #require(lines.firstIndex { $0.contains("\"A#9\"") }) + 1
    }

    @Test("SARIF of a readable trace: one successful invocation; each rule with nothing to check is a note notification")
    func sarifClean() throws {
        let scratch = try AuditCommandTests.Scratch()
        let trace = scratch.path("notes.lifetrace")
        try AuditCommandTests.writeTrace(AuditCommandTests.cancelledPopEvents, to: trace)
        let result = AuditCommandTests().run(["audit", trace, "--format", "sarif"])
        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let invocation = try #require(((log["runs"] as? [[String: Any]])?.first?["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == true)
        let notifications = try #require(invocation["toolExecutionNotifications"] as? [[String: Any]])
        #expect(notifications.count == 11, "the trace has no removals, init, geometry, teardown, timer, layout, SwiftUI or observer facts")
        #expect(notifications.allSatisfy { $0["level"] as? String == "note" })
        let rules = (log["runs"] as? [[String: Any]])?.first.flatMap { (($0["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]] } ?? []
        let observer = try #require(notifications.first { ($0["associatedRule"] as? [String: Any])?["id"] as? String == "observer_not_removed" })
        let index = try #require((observer["associatedRule"] as? [String: Any])?["index"] as? Int)
        #expect(rules[index]["id"] as? String == "observer_not_removed")
        #expect(((observer["message"] as? [String: Any])?["text"] as? String)?.hasPrefix("observer_not_removed had nothing to check: no observer.add marks; add observer.add marks") == true)
        let uri = (((observer["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String
        #expect(uri?.hasSuffix("notes.lifetrace") == true)
    }

    @Test("JSON lists the problem, JUnit counts an error, GitHub annotates it")
    func otherFormats() throws {
        let scratch = try AuditCommandTests.Scratch()
        let path = try badJSONL(scratch)
        let json = AuditCommandTests().run(["audit", path, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let problem = try #require((object["input_problems"] as? [[String: Any]])?.first)
        #expect(problem["severity"] as? String == "error")
        #expect((problem["path"] as? String)?.hasSuffix("bad.jsonl") == true)
        let line = try badLine(path)
        #expect(problem["line"] as? Int == line)
        #expect(problem["byte_offset"] is NSNull)
        let junit = AuditCommandTests().run(["audit", path, "--format", "junit"]).out
        #expect(junit.contains(#"tests="1" failures="0" errors="1" skipped="0">"#) && junit.contains("<error type=\"unreadable input\""))
        let github = AuditCommandTests().run(["audit", path, "--format", "github"]).out
        #expect(github.contains("::error file=\(path),line=\(line),title=lifetrace input::"), "\(github)")
    }

    @Test("a torn trace is a warning-level input problem: audited up to the damage, exit 1")
    func tornTrace() throws {
        let scratch = try AuditCommandTests.Scratch()
        let trace = scratch.path("torn.lifetrace")
        try AuditCommandTests.writeTrace(AuditCommandTests.cancelledPopEvents, to: trace)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: trace)[.size] as? Int)
        let handle = try #require(FileHandle(forWritingAtPath: trace))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0x4C, 0x54, 0x46, 0x52, 0x01]))  // the start of a frame, cut short
        try handle.close()
        let result = AuditCommandTests().run(["audit", trace, "--format", "json"])
        #expect(result.code == .problemFound)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let problems = try #require(object["input_problems"] as? [[String: Any]])
        #expect(problems.count == 1)
        #expect(problems.first?["severity"] as? String == "warning")
        #expect(problems.first?["byte_offset"] as? Int == size, "the damage starts where the intact file ended")
        let sarif = AuditCommandTests().run(["audit", trace, "--format", "sarif"]).out
        #expect(sarif.contains("\"byteOffset\" : \(size)") || sarif.contains("\"byteOffset\": \(size)"), "\(sarif.prefix(0))")
        #expect((object["summary"] as? [String: Any])?["errors"] as? Int == 2)
    }
}
