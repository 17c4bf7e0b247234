import Foundation
import Testing
import TraceModel
@testable import Audit

@Suite("Rule descriptors and their examples")
struct RuleExampleTests {
    static let cases: [(rule: String, index: Int)] = BuiltinRules.all.flatMap { rule in
        rule.descriptor.examples.indices.map { (rule.id, $0) }
    }

    @Test("every example gives exactly the findings it documents", arguments: cases.map { "\($0.rule)#\($0.index)" })
    func example(_ name: String) throws {
        let parts = name.split(separator: "#")
        let rule = try #require(BuiltinRules.rule(String(parts[0])))
        let example = rule.descriptor.examples[Int(parts[1])!]
        // Opt-in rules run for their own examples.
        let findings = try Auditor(configuration: AuditConfiguration(optInRules: rule.descriptor.isOptIn ? [rule.id] : [])).audit(example.events)
        let mine = findings.filter { $0.ruleID == rule.id }
        #expect(mine.count == example.expectedFindings, "\(example.title): \(mine.map(\.message))")
        for finding in mine {
            #expect(finding.verdict == example.expectedVerdict, "\(example.title)")
            if let severity = example.expectedSeverity { #expect(finding.severity == severity, "\(example.title)") }
            #expect(!finding.message.isEmpty)
            #expect(finding.ordinal < UInt64(example.events.count))
        }
        let others = findings.filter { $0.ruleID != rule.id }
        #expect(others.isEmpty, "\(example.title) also triggers: \(others.map { "\($0.ruleID): \($0.message)" })")
    }

    @Test("each rule has a snake_case id, prose, and triggering and non-triggering examples")
    func descriptors() {
        var ids = Set<String>()
        for rule in BuiltinRules.all {
            let descriptor = rule.descriptor
            #expect(ids.insert(descriptor.id).inserted, "duplicate id \(descriptor.id)")
            #expect(descriptor.id.allSatisfy { $0 == "_" || ($0.isLetter && $0.isLowercase) }, "\(descriptor.id)")
            #expect(descriptor.explanation.count > 200, "\(descriptor.id)")
            #expect(!descriptor.fix.isEmpty && !descriptor.summary.isEmpty)
            #expect(descriptor.examples.contains { $0.triggers }, "\(descriptor.id) lacks a triggering example")
            #expect(descriptor.examples.contains { !$0.triggers }, "\(descriptor.id) lacks a non-triggering example")
            for parameter in descriptor.parameters {
                #expect(!parameter.summary.isEmpty)
                #expect(parameter.kind == .flag || !parameter.unit.isEmpty, "\(descriptor.id).\(parameter.name) has no unit")
            }
        }
        #expect(ids == ["critical_save_placement", "unsaved_edit_at_exit", "appearance_balance", "view_did_load_once", "leaked_controller", "orphan_child", "view_loaded_in_init", "geometry_before_appearing", "teardown_in_will_disappear", "work_before_visible", "hosting_children_accumulate", "expensive_layout", "timer_under_sheet", "analytics_overcount", "observer_not_removed", "request_not_cancelled"])
    }
}

@Suite("docs/RULES.md")
struct RulesDocumentTests {
    @Test("is the output of `lifetrace rules --markdown` (regenerate it when a rule changes)")
    func inSync() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let file = try String(contentsOf: root.appendingPathComponent("docs/RULES.md"), encoding: .utf8)
        #expect(file == RulesDocumentation.markdown(BuiltinRules.all.map(\.descriptor)))
    }
}

@Suite("critical_save_placement details")
struct CriticalSavePlacementDetailTests {
    @Test("a recorded interactive-transition cancel is the related event that shows the pop was cancelled")
    func cancelEvent() throws {
        let example = CriticalSavePlacementRule.examples[0]
        let finding = try #require(try Auditor().audit(example.events).first)
        #expect(finding.related.count == 2)
        #expect(finding.related[0].message.contains("viewWillDisappear"))
        #expect(finding.related[1].message.hasPrefix("interactive transition cancelled"))
        #expect(finding.related[1].ordinal == 19)
    }

    @Test("one finding per controller type and key, however many saves")
    func onePerTypeAndKey() throws {
        var events = CriticalSavePlacementRule.examples[1].events
        let editor = ControllerRef(serial: 2, typeName: "NoteEditorViewController")
        let later = (events.last?.timestamp ?? 0) + 1_000_000_000
        events.append(.callback(CallbackEvent(.viewWillDisappear, .instant, controller: editor), at: later))
        events.append(.mark(.save(key: "draft", critical: true, controller: editor), at: later + 1))
        events.append(.mark(.save(key: "title", critical: true, controller: editor), at: later + 2))
        let findings = try Auditor().audit(events).filter { $0.ruleID == "critical_save_placement" }
        #expect(findings.count == 2)
        #expect(findings[0].message.contains("(2 saves of 'draft' inside viewWillDisappear)"))
        #expect(findings[1].message.contains("'title'"))
    }
}
