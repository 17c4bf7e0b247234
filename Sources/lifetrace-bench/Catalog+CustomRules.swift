// The cost of rules written in the rule language (docs/RULE_LANGUAGE.md): ten custom rules on top of the
// built-ins, and one rule compiled from the language beside the same rule written in Swift.

import Audit
import Foundation
import RuleLanguage

extension Catalog {
    /// The rule files the benchmark compiles: the repository's examples/rules/ and examples/rules/builtins/.
    static var exampleRuleDirectories: [String] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return ["examples/rules", "examples/rules/builtins"].map { root.appendingPathComponent($0).path }
    }

    static func customRules(_ harness: Harness, _ workload: Workload) throws -> [Figure] {
        let custom: [Rule]
        do {
            custom = try RuleLanguage.load(exampleRuleDirectories)
        } catch {
            return [.skipped("custom-rules", "audit + 10 custom rules ÷ audit", events: workload.eventCount, goal: .stated("≤ 1 + replay ÷ audit"), because: "\(error)")]
        }
        let ten = Array(custom.prefix(10))
        let trace = try workload.checkpointedTrace()
        let optIn = Set(BuiltinRules.all.filter(\.descriptor.isOptIn).map(\.id))
        let builtins = try allRulesAuditor()
        let withCustom = try Auditor(configuration: AuditConfiguration(optInRules: optIn), rules: BuiltinRules.all + ten)
        let times = try harness.compare([
            { let result = try auditAll(trace.path, withCustom); return UInt64(result.findings.count) &+ result.state.eventCount },
            { let result = try auditAll(trace.path, builtins); return UInt64(result.findings.count) &+ result.state.eventCount },
            { UInt64(try replayAll(trace.path).eventCount) },
        ] as [Work])
        // The goal: ten custom rules cost at most what the replay alone costs, i.e. audit with them ÷ audit
        // without ≤ 1 + replay ÷ audit, with the replay and audit of the same rounds.
        let bound = 1 + Spread(zip(times[2], times[1]).map { Double($0) / Double(max($1, 1)) }).median
        var tenRules = Figure(
            benchmark: "custom-rules", name: "audit + 10 custom rules ÷ audit (built-ins)", events: workload.eventCount,
            ratio: Spread(zip(times[0], times[1]).map { Double($0) / Double(max($1, 1)) }), goal: .atMost((bound * 1000).rounded() / 1000),
            verdict: .met, candidate: Quantity(value: Double(workload.eventCount) / Spread(times[0]).median * 1e3, unit: "M events/s"),
            baseline: Quantity(value: Double(workload.eventCount) / Spread(times[1]).median * 1e3, unit: "M events/s"))
        tenRules.judge()
        tenRules.notes.append("custom: \(ten.map(\.id).joined(separator: ", ")); goal 1 + replay ÷ audit of the same rounds")

        // One rule both ways: its own cost is the audit with it minus the audit with no rule (the replay and the
        // fact derivation), per round.
        guard let swift = BuiltinRules.rule("leaked_controller"), let compiled = custom.first(where: { $0.id == "my_leaked_controller" }) else {
            return [tenRules]
        }
        let none = try Auditor(configuration: AuditConfiguration(), rules: [])
        let swiftOnly = try Auditor(configuration: AuditConfiguration(), rules: [swift])
        let compiledOnly = try Auditor(configuration: AuditConfiguration(), rules: [compiled])
        var agree = true
        let sides = try harness.compare([
            { let result = try auditAll(trace.path, compiledOnly); return UInt64(result.findings.count) &+ result.state.eventCount },
            { let result = try auditAll(trace.path, swiftOnly); return UInt64(result.findings.count) &+ result.state.eventCount },
            { UInt64(try auditAll(trace.path, none).state.eventCount) },
        ] as [Work])
        let compiledFindings = try auditAll(trace.path, compiledOnly).findings.map { ($0.ordinal, $0.verdict) }
        let swiftFindings = try auditAll(trace.path, swiftOnly).findings.map { ($0.ordinal, $0.verdict) }
        agree = compiledFindings.elementsEqual(swiftFindings) { $0 == $1 }
        let ratios = (0..<sides[0].count).map { round -> Double in
            let base = Double(sides[2][round])
            return max(Double(sides[0][round]) - base, 0) / max(Double(sides[1][round]) - base, 1)
        }
        var oneRule = Figure(
            benchmark: "custom-rules", name: "leaked_controller compiled from the language ÷ in Swift (own cost)", events: workload.eventCount,
            ratio: Spread(ratios), goal: .atMost(2), verdict: .met,
            candidate: Quantity(value: max(Spread(sides[0]).median - Spread(sides[2]).median, 0) / Double(workload.eventCount), unit: "ns/event"),
            baseline: Quantity(value: max(Spread(sides[1]).median - Spread(sides[2]).median, 0) / Double(workload.eventCount), unit: "ns/event"))
        oneRule.judge()
        oneRule.notes.append("own cost = audit with the rule − audit with no rule, per round; \(compiledFindings.count) findings, \(agree ? "the same as the Swift rule's" : "DIFFERENT from the Swift rule's \(swiftFindings.count)")")
        if !agree { oneRule.verdict = .failed }
        return [tenRules, oneRule]
    }
}
