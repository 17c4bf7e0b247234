import Audit
import Foundation
import Testing
import TraceLog
import TraceModel
@testable import LifetraceCLI

/// `lifetrace audit` and `lifetrace rules`, in process (and once as the built binary, for the `traces/` default).
@Suite("audit and rules commands")
struct AuditCommandTests {
    /// A scratch directory removed at deinit of the test value.
    final class Scratch {
        let url: URL
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-audit-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    }

    static let editor = ControllerRef(serial: 2, typeName: "NoteEditorViewController")
    static let list = ControllerRef(serial: 1, typeName: "NotesListViewController")

    /// Case 01's story: the draft saved only in viewWillDisappear, the pop cancelled, a later edit lost when the
    /// scene goes to the background. Two error-level findings.
    static var cancelledPopEvents: [Event] {
        let steps: [(Double, EventPayload)] = [
            (0.000, .callback(CallbackEvent(.viewDidLoad, .instant, controller: list))),
            (0.005, .callback(CallbackEvent(.viewWillAppear, .instant, controller: list))),
            (0.311, .callback(CallbackEvent(.viewDidAppear, .instant, controller: list))),
            (2.120, .callback(CallbackEvent(.viewDidLoad, .instant, controller: editor))),
            (2.121, .callback(CallbackEvent(.viewWillDisappear, .instant, controller: list))),
            (2.122, .callback(CallbackEvent(.viewWillAppear, .instant, controller: editor))),
            (2.470, .callback(CallbackEvent(.viewDidDisappear, .instant, controller: list))),
            (2.471, .callback(CallbackEvent(.viewDidAppear, .instant, controller: editor))),
            (4.003, .mark(.edit(key: "draft", controller: editor))),
            (5.904, .callback(CallbackEvent(.viewWillDisappear, .instant, controller: editor))),
            (5.9041, .mark(.save(key: "draft", critical: true, controller: editor))),
            (5.905, .callback(CallbackEvent(.viewWillAppear, .instant, controller: list))),
            (6.289, .callback(CallbackEvent(.viewWillDisappear, .instant, controller: list))),
            (6.2894, .callback(CallbackEvent(.viewDidDisappear, .instant, controller: list))),
            (6.290, .callback(CallbackEvent(.viewWillAppear, .instant, controller: editor))),
            (6.291, .callback(CallbackEvent(.viewDidAppear, .instant, controller: editor))),
            (8.511, .mark(.edit(key: "draft", controller: editor))),
            (9.700, .app(AppEvent(.willResignActive, scene: "main"))),
            (10.214, .app(AppEvent(.didEnterBackground, scene: "main"))),
        ]
        return steps.map { Event(timestamp: UInt64(($0.0 * 1e9).rounded()), $0.1) }
    }

    /// viewDidAppear twice: a warning only.
    static var warningOnlyEvents: [Event] {
        [CallbackEvent(.viewDidLoad, .instant, controller: list), CallbackEvent(.viewWillAppear, .instant, controller: list),
         CallbackEvent(.viewDidAppear, .instant, controller: list), CallbackEvent(.viewDidAppear, .instant, controller: list)]
            .enumerated().map { Event(timestamp: UInt64($0.offset) * 100_000_000, .callback($0.element)) }
    }

    static func writeTrace(_ events: [Event], to path: String) throws {
        let writer = try TraceWriter(creating: path, header: TraceHeader(clockDomain: .synthetic, wallClockAnchor: .none, producer: "audit-tests"))
        try writer.append(contentsOf: events)
        try writer.close()
    }

    func run(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        let (output, captured) = CommandOutput.capturing()
        let code = Lifetrace.run(arguments: arguments, output: output)
        return (code, captured.standardOutput, captured.standardError)
    }

    @Test("text: compiler-style lines, fix, summary; exit 1 on error-level findings")
    func text() throws {
        let scratch = try Scratch()
        let trace = scratch.path("notes.lifetrace")
        try Self.writeTrace(Self.cancelledPopEvents, to: trace)
        let result = run(["audit", trace])
        #expect(result.code == .problemFound, "\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("\(trace):event 10: error: critical save of 'draft'") && $0.hasSuffix("(critical_save_placement)") })
        #expect(lines.contains { $0.hasPrefix("\(trace):event 18: error: 'draft' edited at 8.511 s") && $0.hasSuffix("(unsaved_edit_at_exit)") })
        #expect(lines.contains { $0.contains("related: event 14 at 6.290 s: disappearance cancelled") })
        #expect(lines.last == "audited 1 trace (19 events) with \(BuiltinRules.enabledByDefault.count) rules, 11 of which had nothing to check: 2 errors, 0 warnings, 0 notes")
        #expect(lines.contains("\(trace): note: nothing to check for 11 of 15 rules: leaked_controller, orphan_child, view_loaded_in_init, geometry_before_appearing, teardown_in_will_disappear, work_before_visible, hosting_children_accumulate, expensive_layout, timer_under_sheet, analytics_overcount, observer_not_removed"))
        #expect(lines.contains("  observer_not_removed: no observer.add marks: add observer.add marks with 'lifetrace import --mark' or the recorder's mark(\"observer.add\", …)"))
        #expect(!FileManager.default.fileExists(atPath: trace + ".jsonl"), "text output writes no export")
    }

    @Test("warnings pass without --strict and fail with it")
    func strict() throws {
        let scratch = try Scratch()
        let trace = scratch.path("list.lifetrace")
        try Self.writeTrace(Self.warningOnlyEvents, to: trace)
        #expect(run(["audit", trace]).code == .success)
        #expect(run(["audit", trace, "--strict"]).code == .problemFound)
    }

    @Test("JSON: the documented keys")
    func json() throws {
        let scratch = try Scratch()
        let trace = scratch.path("notes.lifetrace")
        try Self.writeTrace(Self.cancelledPopEvents, to: trace)
        let result = run(["audit", trace, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.count == 2)
        for key in ["rule", "severity", "verdict", "controller", "t_ns", "event", "callback", "message", "related"] {
            #expect(findings[0][key] != nil, "missing \(key)")
        }
        #expect(findings[0]["rule"] as? String == "critical_save_placement")
        #expect(findings[0]["controller"] as? String == "NoteEditorViewController#2")
        #expect((findings[0]["t_ns"] as? NSNumber)?.uint64Value == 5_904_100_000)
        #expect((object["traces"] as? [[String: Any]])?.first?["path"] as? String == trace)
        #expect((object["summary"] as? [String: Any])?["errors"] as? Int == 2)
    }

    @Test("SARIF carries what SARIF 2.1.0 and GitHub code scanning require, pointing at the trace and writing nothing beside it")
    func sarif() throws {
        let scratch = try Scratch()
        let trace = scratch.path("notes.lifetrace")
        try Self.writeTrace(Self.cancelledPopEvents, to: trace)
        let result = run(["audit", trace, "--format", "sarif"])
        #expect(result.code == .problemFound)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        let schema = try #require(log["$schema"] as? String)
        #expect(schema.hasPrefix("https://") && schema.contains("sarif") && schema.contains("2.1.0"))
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "lifetrace")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.count == BuiltinRules.enabledByDefault.count)
        var ruleIDs: [String] = []
        for rule in rules {
            let id = try #require(rule["id"] as? String)
            ruleIDs.append(id)
            #expect((rule["shortDescription"] as? [String: Any])?["text"] is String, "\(id)")
            #expect((rule["fullDescription"] as? [String: Any])?["text"] is String, "\(id)")
            #expect((rule["help"] as? [String: Any])?["text"] is String, "\(id)")
            let level = (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
            #expect(["error", "warning", "note"].contains(level ?? ""), "\(id)")
        }
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        #expect(results.count == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["notes.lifetrace"], "nothing beside the trace")
        for result in results {
            let ruleID = try #require(result["ruleId"] as? String)
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(ruleIDs[index] == ruleID)
            #expect(["error", "warning", "note", "none"].contains(result["level"] as? String ?? ""))
            #expect(((result["message"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
            let locations = try #require(result["locations"] as? [[String: Any]])
            #expect(!locations.isEmpty)
            let physical = try #require(locations[0]["physicalLocation"] as? [String: Any])
            let uri = try #require((physical["artifactLocation"] as? [String: Any])?["uri"] as? String)
            // A trace outside the repository: an absolute file:// URI; the event is named in the properties.
            #expect(uri == "file://" + trace)
            #expect((result["properties"] as? [String: Any])?["event"] is Int)
            #expect(result["partialFingerprints"] is [String: Any])
        }
        #expect(results[0]["ruleId"] as? String == "critical_save_placement")
        #expect((results[0]["properties"] as? [String: Any])?["event"] as? Int == 10)
    }

    @Test("JUnit and GitHub annotations")
    func junitAndGitHub() throws {
        let scratch = try Scratch()
        let trace = scratch.path("notes.lifetrace")
        try Self.writeTrace(Self.cancelledPopEvents, to: trace)
        let junit = run(["audit", trace, "--format", "junit"])
        #expect(junit.out.hasPrefix("<?xml"))
        // Every rule is a test case; the opt-in ones not enabled are skipped.
        #expect(junit.out.components(separatedBy: "<testcase ").count - 1 == BuiltinRules.all.count)
        #expect(junit.out.contains("skipped=\"\(BuiltinRules.all.count - BuiltinRules.enabledByDefault.count)\""))
        #expect(junit.out.contains("failures=\"2\""))
        let github = run(["audit", trace, "--format", "github"]).out.split(separator: "\n").map(String.init)
        #expect(github[0].hasPrefix("::error file=\(GitHubAnnotationReporter.escapeProperty(trace)),title=critical_save_placement::"))
        #expect(github[1].hasPrefix("::error file=\(GitHubAnnotationReporter.escapeProperty(trace)),title=unsaved_edit_at_exit::"))
    }

    @Test("-o writes the report to a file and the summary to standard error")
    func outputFile() throws {
        let scratch = try Scratch()
        let trace = scratch.path("notes.lifetrace")
        try Self.writeTrace(Self.cancelledPopEvents, to: trace)
        let report = scratch.path("report.sarif")
        let result = run(["audit", trace, "--format", "sarif", "-o", report])
        #expect(result.code == .problemFound)
        #expect(result.out.isEmpty)
        #expect(result.err.contains("2 errors"))
        #expect(try String(contentsOfFile: report, encoding: .utf8).contains("\"version\": \"2.1.0\""))
    }

    @Test("configuration: disabling rules changes the exit code; unknown keys exit 2 naming them")
    func configuration() throws {
        let scratch = try Scratch()
        let trace = scratch.path("notes.lifetrace")
        try Self.writeTrace(Self.cancelledPopEvents, to: trace)
        let quiet = scratch.path("quiet.json")
        try Data(#"{"disabled_rules": ["critical_save_placement"], "rules": {"unsaved_edit_at_exit": {"severity": "warning"}}}"#.utf8).write(to: URL(fileURLWithPath: quiet))
        let relaxed = run(["audit", trace, "--config", quiet])
        #expect(relaxed.code == .success)
        #expect(relaxed.out.contains("with \(BuiltinRules.enabledByDefault.count - 1) rules, "), "\(relaxed.out)")
        #expect(relaxed.out.contains(" had nothing to check: 0 errors, 1 warning"), "\(relaxed.out)")
        let bad = scratch.path("bad.json")
        try Data(#"{"rules": {"leaked_controller": {"grase": "5s"}}}"#.utf8).write(to: URL(fileURLWithPath: bad))
        let failed = run(["audit", trace, "--config", bad])
        #expect(failed.code == .usageOrInput)
        #expect(failed.err.contains("bad.json:1:34: rules.leaked_controller: unknown key 'grase'"), "\(failed.err)")
        #expect(run(["audit", trace, "--config", scratch.path("missing.json")]).code == .usageOrInput)
        #expect(run(["audit", trace, "--format", "xml"]).code == .usageOrInput)
    }

    @Test("an unreadable trace exits 2 naming the file")
    func unreadable() throws {
        let scratch = try Scratch()
        let garbage = scratch.path("garbage.lifetrace")
        try Data("not a trace at all\n".utf8).write(to: URL(fileURLWithPath: garbage))
        let result = run(["audit", garbage])
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains("garbage.lifetrace"))
        #expect(run(["audit", scratch.path("missing.lifetrace")]).code == .usageOrInput)
    }

    @Test("rules lists every rule; rules ID explains one with its examples; unknown ID exits 2")
    func rules() {
        let list = run(["rules"])
        #expect(list.code == .success)
        #expect(list.out.split(separator: "\n").filter { $0.contains("  error  ") || $0.contains("  warning  ") }.count == BuiltinRules.all.count)
        let one = run(["rules", "leaked_controller"])
        #expect(one.code == .success)
        #expect(one.out.contains("grace (duration, s (trace clock); default 5.000 s)"))
        #expect(one.out.contains("EXAMPLE (1 finding error)"))
        #expect(one.out.contains("EXAMPLE (no finding)"))
        #expect(run(["rules", "no_such_rule"]).code == .usageOrInput)
    }

    /// The debug `lifetrace` executable, built by `swift build --build-tests` (CI's build step).
    static let binary = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/lifetrace")

    @Test(
        "the built binary audits every trace under traces/ when given none, with .lifetrace.json from the cwd",
        .enabled(if: FileManager.default.isExecutableFile(atPath: binary.path), "needs the built lifetrace executable")
    )
    func defaultTraces() throws {
        let binary = Self.binary
        let scratch = try Scratch()
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("traces/ui"), withIntermediateDirectories: true)
        try Self.writeTrace(Self.warningOnlyEvents, to: scratch.path("traces/ui/list.lifetrace"))
        try Self.writeTrace(Self.warningOnlyEvents, to: scratch.path("traces/first.lifetrace"))
        try Data(#"{"rules": {"appearance_balance": {"severity": "error"}}}"#.utf8).write(to: scratch.url.appendingPathComponent(".lifetrace.json"))
        let process = Process()
        process.executableURL = binary
        process.arguments = ["audit"]
        process.currentDirectoryURL = scratch.url
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let out = String(decoding: data, as: UTF8.self)
        #expect(process.terminationStatus == 1)
        #expect(out.contains("traces/first.lifetrace:event 3: error: "))
        #expect(out.contains("traces/ui/list.lifetrace:event 3: error: "))
        #expect(out.hasSuffix("audited 2 traces (8 events) with \(BuiltinRules.enabledByDefault.count) rules, 13 of which had nothing to check in any of them: 2 errors, 0 warnings, 0 notes\n"))
    }
}
