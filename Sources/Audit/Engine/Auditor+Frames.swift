import Dispatch
import Foundation
import Replay
import Synchronization
import TraceLog

/// What auditing the events frames of a `.lifetrace` file gives (`Auditor.audit(_:groups:)`).
public struct FramesAudit: Sendable {
    /// Where reading stopped early: what opening or decoding `frame` threw (a `TraceError` naming the file and the
    /// frame's offset); the events before it were audited.
    public struct Stop: Sendable {
        public var error: any Error
        public var frame: FrameInfo
    }

    /// Every finding, in event order (then rule id, controller and message), as `AuditSession.finish()` orders them.
    public var findings: [Finding]
    /// The rules that had nothing to check (`AuditSession.idleRules`), in registry order.
    public var idleRules: [IdleRule]
    /// The replayed state after the last event read: `state.eventCount` events were audited, those before a bad
    /// one in a damaged frame included.
    public var state: ReplayState
    /// The first timestamp (nanoseconds on the trace's monotonic clock) of the first events frame that holds events
    /// and opened; `nil` when none did.
    public var startTimestamp: UInt64?
    /// Where reading stopped early, or `nil` when every events frame was read.
    public var stop: Stop?
}

extension Auditor {
    /// How many groups `audit(_:groups:)` splits the rules into by default: 2 where two processors are active and
    /// there are two rules, else 1. No more than 2: every group repeats the decoding, the fold and the fact
    /// engine (about half of an audit's instructions with every rule, docs/PERFORMANCE.md "Audit"), so a third
    /// group would save at most a sixth of the time for a third more work.
    public var defaultGroupCount: Int {
        max(1, min(2, ProcessInfo.processInfo.activeProcessorCount, active.count))
    }

    /// Audits the events frames of `reader`'s trace: the active rules are split into `groups` groups (default
    /// `defaultGroupCount`; at most one per rule), and each group reads and decodes the frames itself (its own
    /// `FrameCursor` for each frame, in record batches: `AuditSession.observeRest(of:batch:)`) into its own session
    /// (fold, fact engine and rules); the groups run at the same time, one thread each (`DispatchQueue
    /// .concurrentPerform`), and their findings and idle rules are merged. The result is the same, byte for byte,
    /// whatever the number of groups; one group is one session on the calling thread.
    ///
    /// Every group decodes the same frames, so each stops at the same event of a damaged frame; the state, start
    /// and stop are the first group's. Memory: each group holds its replayed state and one frame's decoding, so
    /// the peak is bounded by live controllers, times the number of groups.
    public func audit(_ reader: TraceReader, groups count: Int? = nil) -> FramesAudit {
        let groups = ruleGroups(count ?? defaultGroupCount)
        guard groups.count > 1 else { return merge([auditFrames(reader, rules: groups[0])], groups) }
        let results = Mutex([GroupAudit?](repeating: nil, count: groups.count))
        DispatchQueue.concurrentPerform(iterations: groups.count) { index in
            let result = auditFrames(reader, rules: groups[index])
            results.withLock { $0[index] = result }
        }
        // Every iteration has run when concurrentPerform returns: no slot is left nil.
        return merge(results.withLock { $0.compactMap { $0 } }, groups)
    }

    /// One group's audit: the findings unsorted, the idle rules in the group's order.
    private struct GroupAudit: Sendable {
        var findings: [Finding]
        var idleRules: [IdleRule]
        var state: ReplayState
        var startTimestamp: UInt64?
        var stop: FramesAudit.Stop?
    }

    /// Reads every events frame into one session of the rules at `positions` (in `active`).
    private func auditFrames(_ reader: TraceReader, rules positions: [Int]) -> GroupAudit {
        let session = makeSession(positions.map { active[$0] })
        var batch = RecordBatch()
        var start: UInt64?
        var stop: FramesAudit.Stop?
        for frame in reader.frames {
            do {
                var cursor = try reader.cursor(for: frame)
                if start == nil, frame.eventCount > 0 { start = frame.firstTimestamp }
                try session.observeRest(of: &cursor, batch: &batch)
            } catch {
                stop = FramesAudit.Stop(error: error, frame: frame)
                break
            }
        }
        let findings = session.finishUnordered()
        // After finish: the exits still open at the end of the trace are facts too.
        return GroupAudit(findings: findings, idleRules: session.idleRules, state: session.state, startTimestamp: start, stop: stop)
    }

    /// The groups' results as one: the findings sorted as one session sorts them, the idle rules in registry order.
    private func merge(_ results: [GroupAudit], _ groups: [[Int]]) -> FramesAudit {
        var idle: [(position: Int, rule: IdleRule)] = []
        for (result, positions) in zip(results, groups) {
            // A group's idle rules are a subsequence of its rules, in its (registry) order.
            var next = positions.startIndex
            for rule in result.idleRules {
                while active[positions[next]].rule.id != rule.ruleID { next += 1 }
                idle.append((positions[next], rule))
                next += 1
            }
        }
        let first = results[0]
        return FramesAudit(
            findings: AuditSession.ordered(results.flatMap(\.findings)),
            idleRules: idle.sorted { $0.position < $1.position }.map(\.rule),
            state: first.state, startTimestamp: first.startTimestamp, stop: first.stop)
    }

    /// Instructions per event of each built-in rule's own work: callgrind of `lifetrace-bench --probe-memory
    /// audit-only:ID` minus `audit-none` on the benchmark's 10^5-event workload (docs/PERFORMANCE.md "Audit"). A rule
    /// not listed (a custom rule) counts as `typicalCost`. Only the order of the costs matters much: a table out of
    /// date balances the groups less well, it changes no finding.
    static let measuredCost: [String: Int] = [
        "orphan_child": 382, "analytics_overcount": 237, "work_before_visible": 160, "unsaved_edit_at_exit": 158,
        "appearance_balance": 154, "teardown_in_will_disappear": 150, "timer_under_sheet": 140, "leaked_controller": 122,
        "expensive_layout": 110, "critical_save_placement": 84, "view_did_load_once": 81, "hosting_children_accumulate": 64,
        "observer_not_removed": 57, "request_not_cancelled": 51, "geometry_before_appearing": 35, "view_loaded_in_init": 27,
    ]
    static let typicalCost = 120

    /// The positions in `active` of each of `count` groups (at least 1, at most one per rule), each in registry
    /// order. Greedy by cost, the costliest rule first onto the group with the least cost so far (ties to the
    /// first): the groups run at the same time, so the audit takes as long as its costliest group, and a fixed
    /// table of measured costs keeps the split the same from run to run.
    func ruleGroups(_ count: Int) -> [[Int]] {
        let count = max(1, min(count, active.count))
        guard count > 1 else { return [Array(active.indices)] }
        let cost = active.map { Self.measuredCost[$0.rule.id] ?? Self.typicalCost }
        var groups = [[Int]](repeating: [], count: count)
        var load = [Int](repeating: 0, count: count)
        for position in active.indices.sorted(by: { (cost[$0], $1) > (cost[$1], $0) }) {
            let lightest = load.indices.min { load[$0] < load[$1] } ?? 0
            groups[lightest].append(position)
            load[lightest] += cost[position]
        }
        return groups.map { $0.sorted() }
    }
}
