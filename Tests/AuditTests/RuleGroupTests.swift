import Foundation
import LifetraceTestSupport
import Replay
import Simulator
import Testing
import TraceLog
import TraceModel

@testable import Audit

/// `Auditor.audit(_:groups:)` runs the rules in groups at the same time, each group with its own session; whatever
/// the number of groups, the findings, idle rules and state must be those of one session over the same frames.
@Suite("Auditing a trace file in rule groups agrees with one session")
struct RuleGroupTests {
    static func allRules() throws -> Auditor {
        try Auditor(configuration: AuditConfiguration(optInRules: Set(BuiltinRules.all.filter(\.descriptor.isOptIn).map(\.id))))
    }

    /// One session over every frame of `reader` by batches: findings, idle rules, state.
    static func oneSession(_ reader: TraceReader, _ auditor: Auditor) throws -> (findings: [Finding], idle: [IdleRule], state: ReplayState) {
        let session = auditor.makeSession()
        try BatchedTraceFile.observeByBatches(reader, session)
        let findings = session.finish()
        return (findings, session.idleRules, session.state)
    }

    static let traces: [[Event]] = (UInt64(1)...3).map { RandomEvents.make(count: 5_000, seed: $0) }
        + [SessionGenerator(seed: 13).events(count: 30_000)]

    @Test("every group count gives one session's findings, idle rules and state", arguments: [1, 2, 3, 5, 16, 100])
    func groupsAgree(groups: Int) throws {
        let auditor = try Self.allRules()
        for (index, events) in Self.traces.enumerated() {
            let (path, reader) = try BatchedTraceFile.write(events, frameEvents: 700, name: "rule-groups", traceIDByte: 7)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let expected = try Self.oneSession(reader, auditor)
            let audit = auditor.audit(reader, groups: groups)
            #expect(audit.stop == nil)
            #expect(audit.findings == expected.findings, "trace \(index), \(groups) groups")
            #expect(audit.idleRules == expected.idle, "trace \(index), \(groups) groups")
            #expect(audit.state == expected.state, "trace \(index), \(groups) groups")
            #expect(audit.startTimestamp == events.first?.timestamp)
        }
    }

    @Test("idle rules come in registry order from every group")
    func idleRules() throws {
        // Callbacks only: every rule that needs marks, containers or app events is idle.
        let events = Self.traces[3].filter { if case .callback = $0.payload { true } else { false } }
        let auditor = try Self.allRules()
        let (path, reader) = try BatchedTraceFile.write(events, frameEvents: 1_000, name: "rule-groups-idle", traceIDByte: 8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let expected = try Self.oneSession(reader, auditor)
        #expect(expected.idle.count > 1)
        for groups in [2, 3, 16] {
            let audit = auditor.audit(reader, groups: groups)
            #expect(audit.idleRules == expected.idle, "\(groups) groups")
            #expect(audit.findings == expected.findings, "\(groups) groups")
        }
    }

    @Test("the groups cover every active rule once, each in registry order")
    func groupShapes() throws {
        let auditor = try Self.allRules()
        let all = Array(auditor.active.indices)
        #expect(auditor.ruleGroups(1) == [all])
        #expect(auditor.ruleGroups(0) == [all])
        #expect(auditor.ruleGroups(1_000).count == all.count)
        for count in [2, 3, 5] {
            let groups = auditor.ruleGroups(count)
            #expect(groups.count == count)
            #expect(groups.flatMap { $0 }.sorted() == all)
            #expect(groups.allSatisfy { $0 == $0.sorted() && !$0.isEmpty })
        }
        // The three costliest rules go to different groups first.
        let two = auditor.ruleGroups(2).map { Set($0.map { auditor.active[$0].rule.id }) }
        #expect(two[0].contains("orphan_child") && two[1].contains("analytics_overcount"))
        #expect(auditor.defaultGroupCount >= 1 && auditor.defaultGroupCount <= 2)
        let none = try Auditor(configuration: AuditConfiguration(disabledRules: Set(BuiltinRules.all.map(\.id))))
        #expect(none.ruleGroups(2) == [[]] && none.defaultGroupCount == 1)
    }
}
