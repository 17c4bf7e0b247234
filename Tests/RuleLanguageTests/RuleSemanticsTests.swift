import Foundation
import Testing
import TraceModel
@testable import Audit
@testable import RuleLanguage

/// What each pattern and scope reports, on small traces written as rule examples are.
@Suite("Rule language semantics")
struct RuleSemanticsTests {
    /// The findings of the one rule in `rule` (statements only) on `trace` (example lines).
    func findings(_ statements: String, _ trace: String, configuration: String? = nil) throws -> [Finding] {
        let text = "rule t\n\(statements)\n  example \"a\" fires\n    A#1 init\n  example \"b\" passes\n    A#1 init\nend\n"
        let rules = try RuleLanguage.rules(in: text, file: "t.rule")
        let events = try ExampleTraceParser.events(trace.split(separator: "\n").enumerated().map { ($0.offset + 1, String($0.element)) }, file: "trace")
        var config = AuditConfiguration.default
        if let configuration { config = try AuditConfiguration(json: Data(configuration.utf8), origin: "c.json", rules: rules) }
        return try Auditor(configuration: config, rules: rules).audit(events)
    }

    @Test func responseWithinATimeLimitAndItsParameter() throws {
        let rule = "  parameter grace = 2s\n  removed leads to deinit within grace"
        let late = "popViewController container=Nav#9 A#1\nwait 3s\nA#1 deinit"
        #expect(try findings(rule, late).map(\.ordinal) == [0])
        #expect(try findings(rule, "popViewController container=Nav#9 A#1\nA#1 deinit").isEmpty)
        // Configured like a built-in's parameter.
        #expect(try findings(rule, late, configuration: #"{"rules": {"t": {"grace": "5s"}}}"#).isEmpty)
        // Pending at the end: inconclusive, a note.
        let pending = try findings(rule, "popViewController container=Nav#9 A#1\nB#2 init")
        #expect(pending.map(\.verdict) == [.inconclusive])
        #expect(pending.map(\.severity) == [.note])
    }

    @Test func precedenceAndScopes() throws {
        let rule = "  viewDidAppear requires earlier viewWillAppear between viewDidLoad and deinit"
        #expect(try findings(rule, "A#1 viewDidLoad\nA#1 viewDidAppear\nA#1 deinit").map(\.ordinal) == [1])
        #expect(try findings(rule, "A#1 viewDidLoad\nA#1 viewWillAppear\nA#1 viewDidAppear\nA#1 deinit").isEmpty)
        // Outside the scope nothing is judged.
        #expect(try findings(rule, "A#1 viewDidAppear\nA#1 deinit").isEmpty)
    }

    @Test func neverBetweenWaitsForTheScopeToClose() throws {
        let rule = "  never mark save between viewWillDisappear and viewDidDisappear"
        #expect(try findings(rule, "A#1 viewWillDisappear\nmark save @ A#1\nA#1 viewDidDisappear").map(\.verdict) == [.violation])
        #expect(try findings(rule, "A#1 viewWillDisappear\nmark save @ A#1").map(\.verdict) == [.inconclusive])
    }

    @Test func eventuallyBeforeAnEnd() throws {
        let rule = "  eventually viewDidAppear before deinit"
        #expect(try findings(rule, "A#1 init\nA#1 deinit").map(\.ordinal) == [1])
        #expect(try findings(rule, "A#1 init\nA#1 viewDidAppear\nA#1 deinit").isEmpty)
    }

    @Test func appEventsReachEveryControllerIncludingLaterOnes() throws {
        let rule = "  never viewDidLoad after app didEnterBackground"
        // B appears after the background event: the scope is open for it too.
        let found = try findings(rule, "A#1 init\napplicationDidEnterBackground(_:)\nB#2 viewDidLoad")
        #expect(found.map(\.controller) == ["B#2"])
    }

    @Test func variablesSliceAndGuardsFilter() throws {
        let rule = "  mark request.start(id: $id) leads to mark request.cancel(id: $id) before deinit"
        let trace = "mark request.start id=a @ A#1\nmark request.start id=b @ A#1\nmark request.cancel id=a @ A#1\nA#1 deinit"
        #expect(try findings(rule, trace).map(\.ordinal) == [1])
        let guarded = "  never viewDidLayoutSubviews end where duration > 15ms"
        #expect(try findings(guarded, "A#1 viewDidLayoutSubviews begin\nwait 20ms\nA#1 viewDidLayoutSubviews end").count == 1)
        #expect(try findings(guarded, "A#1 viewDidLayoutSubviews begin\nA#1 viewDidLayoutSubviews end").isEmpty)
    }

    @Test func typePatternsAndMessages() throws {
        let rule = "  never viewDidLoad of *Compose*\n  message \"{controller} ({type}) loaded at {time} in {callback}\""
        let found = try findings(rule, "MailComposeController#1 viewDidLoad\nOther#2 viewDidLoad")
        #expect(found.map(\.message) == ["MailComposeController#1 (MailComposeController) loaded at 0.000 s in viewDidLoad"])
    }

    @Test func theRulesDirectoryIsFoundUpwards() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-rules-\(UUID().uuidString)")
        let nested = base.appendingPathComponent("App/Sources")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: base.appendingPathComponent("lifetrace-rules"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        #expect(RuleLanguage.locateDirectory(from: nested)?.standardizedFileURL.path == base.appendingPathComponent("lifetrace-rules").standardizedFileURL.path)
    }
}
