import Foundation
import Testing
import TraceModel
@testable import Audit

@Suite("Configuration files")
struct ConfigurationTests {
    func parse(_ text: String) throws(ConfigurationError) -> AuditConfiguration {
        try AuditConfiguration(json: Data(text.utf8), origin: ".lifetrace.json", rules: BuiltinRules.all)
    }

    func error(_ text: String) -> ConfigurationError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("disables rules, overrides severities and parameters")
    func overrides() throws {
        let configuration = try parse("""
            {"disabled_rules": ["view_did_load_once"], "inconclusive_severity": "warning",
             "rules": {"leaked_controller": {"severity": "warning", "grace": "10s"},
                       "geometry_before_appearing": {"enabled": false},
                       "critical_save_placement": {"escalate_on_cancel": false}}}
            """)
        let auditor = try Auditor(configuration: configuration)
        let ids = auditor.active.map(\.rule.id)
        #expect(!ids.contains("view_did_load_once"))
        #expect(!ids.contains("geometry_before_appearing"))
        #expect(ids.count == BuiltinRules.enabledByDefault.count - 2)
        let leak = try #require(auditor.active.first { $0.rule.id == "leaked_controller" })
        #expect(leak.settings.severity == .warning)
        #expect(leak.settings.parameters["grace"] == .duration(10_000_000_000))
        #expect(leak.settings.inconclusiveSeverity == .warning)
    }

    @Test("grace as a number of seconds changes what leaks")
    func graceChangesOutcome() throws {
        let example = LeakedControllerRule.examples[0]
        let lenient = try Auditor(configuration: parse(#"{"rules": {"leaked_controller": {"grace": 60}}}"#))
        let findings = lenient.audit(example.events).filter { $0.ruleID == "leaked_controller" }
        #expect(findings.map(\.verdict) == [.inconclusive])
    }

    @Test("escalate_on_cancel false keeps the cancelled case at the configured severity")
    func escalation() throws {
        let example = CriticalSavePlacementRule.examples[0]
        let auditor = try Auditor(configuration: parse(#"{"rules": {"critical_save_placement": {"escalate_on_cancel": false}}}"#))
        #expect(auditor.audit(example.events).map(\.severity) == [.warning])
    }

    @Test("unknown keys and bad values are errors that name them", arguments: [
        (#"{"disabled": []}"#, "unknown key 'disabled'"),
        (#"{"rules": {"leaked_controller": {"grase": "5s"}}}"#, "unknown key 'grase'"),
        (#"{"rules": {"no_such_rule": {}}}"#, "unknown rule 'no_such_rule'"),
        (#"{"disabled_rules": ["nope"]}"#, "unknown rule 'nope'"),
        (#"{"rules": {"leaked_controller": {"grace": "soon"}}}"#, "'soon' is not a duration"),
        (#"{"rules": {"leaked_controller": {"severity": "fatal"}}}"#, "expected \"error\", \"warning\" or \"note\""),
        (#"{"rules": {"critical_save_placement": {"escalate_on_cancel": 1}}}"#, "expected true or false"),
        (#"[1, 2]"#, "expected a JSON object"),
        (#"{"rules": "#, "not valid JSON"),
        (#"{"rules": {"leaked_controller": {"grace": 1e400}}}"#, "a number out of range (beyond ±1.8e308, or an integer beyond 64 bits and a double) at rules.leaked_controller.grace"),
    ])
    func errors(_ text: String, _ expected: String) throws {
        let failure = try #require(error(text))
        #expect(failure.description.contains(expected), "\(failure)")
        // A syntax error names its line and column (`.lifetrace.json:1:11: …`), the others their key path.
        #expect(failure.description.hasPrefix(".lifetrace.json: ") || failure.description.hasPrefix(".lifetrace.json:1:"), "\(failure)")
    }

    @Test("the error names the key path")
    func keyPath() throws {
        let failure = try #require(error(#"{"rules": {"leaked_controller": {"grace": true}}}"#))
        #expect(failure.keyPath == "rules.leaked_controller.grace")
    }

    @Test("found from a subdirectory upwards")
    func locate() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("audit-config-\(UUID().uuidString)")
        let nested = root.appendingPathComponent("a/b")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(AuditConfiguration.locate(from: nested)?.standardizedFileURL.path != root.appendingPathComponent(".lifetrace.json").path)
        try Data("{}".utf8).write(to: root.appendingPathComponent(".lifetrace.json"))
        let found = try #require(AuditConfiguration.locate(from: nested))
        #expect(found.standardizedFileURL.path == root.appendingPathComponent(".lifetrace.json").standardizedFileURL.path)
    }

    @Test("a configuration built in code is validated too")
    func codeValidation() {
        #expect(throws: ConfigurationError.self) {
            try Auditor(configuration: AuditConfiguration(disabledRules: ["typo"]))
        }
    }
}
