import ConsoleImport
import Foundation
import Testing
import TraceLog
import TraceModel
@testable import Audit
@testable import RuleLanguage

/// Built-in rules written in the rule language (examples/rules/builtins/) give the same findings as the Swift
/// rules: same controller, event, time, severity and verdict, on every trace the repository ships (traces/,
/// with the imported cases and public logs), the test fixtures (the format-1.0 traces and the real console logs
/// of Tests/Fixtures/cases, imported), and every built-in rule's examples.
@Suite("Built-in rules written in the rule language")
struct BuiltinEquivalenceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Name and events of every trace of the corpus.
    static let corpus: [(name: String, events: [Event])] = {
        var traces: [(String, [Event])] = []
        let manager = FileManager.default
        for directory in ["traces", "Tests/Fixtures"] {
            let base = root.appendingPathComponent(directory)
            guard let walker = manager.enumerator(atPath: base.path) else { continue }
            for case let relative as String in walker {
                let path = base.appendingPathComponent(relative).path
                if relative.hasSuffix(".lifetrace"), let reader = try? TraceReader(path: path) {
                    var events: [Event] = []
                    try? reader.forEachEvent { _, event in events.append(event) }
                    traces.append(("\(directory)/\(relative)", events))
                } else if directory == "Tests/Fixtures", relative.hasPrefix("cases/"), relative.hasSuffix(".log"),
                          let text = try? String(contentsOfFile: path, encoding: .utf8),
                          let imported = try? ConsoleLogParser(sourceFile: relative).parse(text: text) {
                    traces.append(("\(directory)/\(relative) (imported)", imported.events))
                }
            }
        }
        for rule in BuiltinRules.all {
            for example in rule.descriptor.examples { traces.append(("\(rule.id) example: \(example.title)", example.events)) }
        }
        return traces.sorted { $0.0 < $1.0 }
    }()

    struct Seen: Hashable, CustomStringConvertible {
        var controller: String?
        var ordinal: UInt64
        var timestamp: UInt64
        var severity: Severity
        var verdict: Verdict
        var description: String { "\(controller ?? "app") #\(ordinal) \(severity) \(verdict)" }
    }

    func compare(builtin id: String, file: String) throws {
        let builtin = try #require(BuiltinRules.rule(id))
        let custom = try RuleLanguage.load([Self.root.appendingPathComponent("examples/rules/builtins/\(file)").path])
        let written = try #require(custom.first)
        var traces = Self.corpus
        for example in written.descriptor.examples { traces.append(("\(written.id) example: \(example.title)", example.events)) }
        let auditor = try Auditor(configuration: .default, rules: [builtin, written])
        var compared = 0
        for (name, events) in traces {
            let findings = auditor.audit(events)
            let expected = findings.filter { $0.ruleID == id }.map { Seen(controller: $0.controller, ordinal: $0.ordinal, timestamp: $0.timestamp, severity: $0.severity, verdict: $0.verdict) }
            let actual = findings.filter { $0.ruleID == written.id }.map { Seen(controller: $0.controller, ordinal: $0.ordinal, timestamp: $0.timestamp, severity: $0.severity, verdict: $0.verdict) }
            #expect(actual == expected, "\(name)")
            compared += expected.count
        }
        // The corpus must exercise the rule, or the comparison proves nothing.
        #expect(compared >= 2, "only \(compared) findings of \(id) in the corpus")
        #expect(traces.count > 100)
    }

    @Test func criticalSavePlacement() throws { try compare(builtin: "critical_save_placement", file: "critical_save_placement.rule") }
    @Test func geometryBeforeAppearing() throws { try compare(builtin: "geometry_before_appearing", file: "geometry_before_appearing.rule") }
    @Test func viewDidLoadOnce() throws { try compare(builtin: "view_did_load_once", file: "view_did_load_once.rule") }
    @Test func viewLoadedInInit() throws { try compare(builtin: "view_loaded_in_init", file: "view_loaded_in_init.rule") }
    @Test func leakedController() throws { try compare(builtin: "leaked_controller", file: "leaked_controller.rule") }

    /// The headline rule is short: at most ten lines of statements.
    @Test func criticalSavePlacementIsShort() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("examples/rules/builtins/critical_save_placement.rule"), encoding: .utf8)
        let statements = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .prefix { !$0.hasPrefix("example") }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        #expect(statements.count <= 12, "\(statements.count) lines")
    }
}
