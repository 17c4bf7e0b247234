import Foundation
import LifetraceTestSupport
import Testing
import TraceModel
@testable import Audit

@Suite("Auditing arbitrary event streams")
struct RobustnessTests {
    @Test("random streams never trap; findings point inside the trace, in order; every reporter renders", arguments: [1, 2, 3, 4] as [UInt64])
    func random(_ seed: UInt64) throws {
        let events = RandomEvents.make(count: 3_000, seed: seed)
        let auditor = try Auditor()
        let findings = auditor.audit(events)
        let ids = Set(BuiltinRules.all.map(\.id))
        for finding in findings {
            #expect(finding.ordinal < UInt64(events.count))
            #expect(ids.contains(finding.ruleID))
            #expect(!finding.message.isEmpty)
            for related in finding.related { #expect(related.ordinal < UInt64(events.count)) }
        }
        #expect(findings.map(\.ordinal) == findings.map(\.ordinal).sorted())
        #expect(auditor.audit(events) == findings, "the audit is deterministic")
        let report = AuditReport(traces: [TraceAudit(path: "random.lifetrace", eventCount: UInt64(events.count), startTimestamp: events.first?.timestamp ?? 0, findings: findings, jsonlPath: "random.lifetrace.jsonl")], rules: auditor.active.map(\.rule.descriptor))
        for format in ReportFormat.allCases {
            #expect(!format.render(report).isEmpty)
        }
        #expect(try JSONSerialization.jsonObject(with: Data(ReportFormat.sarif.render(report).utf8)) is [String: Any])
        #expect(try JSONSerialization.jsonObject(with: Data(ReportFormat.json.render(report).utf8)) is [String: Any])
    }

    @Test("an empty trace gives no findings")
    func empty() throws {
        #expect(try Auditor().audit([Event]()).isEmpty)
    }
}
