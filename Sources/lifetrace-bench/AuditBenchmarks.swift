// The audit benchmark: a streaming audit with every built-in rule (decode + replay fold + attribution + the
// monitors) against a plain replay (decode + fold) of the same trace file, in the same run.

import Audit
import Foundation
import Replay
import TraceLog
import TraceModel

enum AuditBenchmarks {
    /// Audits the trace at `path` with every built-in rule, streaming from the file as `lifetrace audit` does.
    ///
    /// - Returns: events seen + findings (so the work cannot be optimised away), and the findings.
    static func auditAll(_ path: String, auditor: Auditor) throws -> (value: UInt64, findings: [Finding]) {
        let reader = try TraceReader(path: path)
        let session = auditor.makeSession()
        var count: UInt64 = 0
        try reader.forEachEvent { ordinal, event in
            session.observe(event, ordinal: ordinal)
            count &+= 1
        }
        let findings = session.finish()
        return (count &+ UInt64(findings.count), findings)
    }

    /// Replays the trace at `path`: decode every frame, fold every event into a `ReplayState`.
    static func replayOnly(_ path: String) throws -> UInt64 {
        let reader = try TraceReader(path: path)
        var state = ReplayState()
        try reader.forEachEvent { ordinal, event in state.apply(event, ordinal: ordinal) }
        return state.eventCount &+ UInt64(state.controllers.count)
    }

    /// The figure: audit time ÷ replay time per round (median and spread), goal ≤ 2.
    static func figures(_ harness: Harness, _ workload: Workload) throws -> [Figure] {
        let trace = try workload.trace()
        let auditor = try Auditor()
        let findings = try auditAll(trace.path, auditor: auditor).findings
        let times = try harness.compare([
            { try auditAll(trace.path, auditor: auditor).value },
            { try replayOnly(trace.path) },
        ] as [Work])
        let events = Double(workload.eventCount)
        func rate(_ nanoseconds: Double) -> Quantity {
            Quantity(value: events / nanoseconds * 1e3, unit: "M events/s")
        }
        var figure = Figure(
            benchmark: "audit", name: "audit (all rules) ÷ replay alone", events: workload.eventCount,
            ratio: Spread(zip(times[0], times[1]).map { Double($0) / Double(max($1, 1)) }), goal: .atMost(2),
            verdict: .met, candidate: rate(Spread(times[0]).median), baseline: rate(Spread(times[1]).median))
        figure.judge()
        var byRule: [String: Int] = [:]
        for finding in findings { byRule[finding.ruleID, default: 0] += 1 }
        let counts = byRule.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        figure.notes.append("\(auditor.active.count) rules, streaming from the file (reader + ReplayState fold + attribution + monitors) vs reader + ReplayState fold; \(findings.count) findings\(counts.isEmpty ? "" : ": \(counts)")")
        return [figure]
    }
}
