import Foundation
import LifetraceTestSupport
import Simulator
import Testing
import TraceLog
import TraceModel

@testable import Audit

/// `AuditSession.observeRest(of:batch:)` folds callback entries from the batch's columns and the other events from
/// their records; each rule alone, and all of them, must find by batches exactly what the `Event` path
/// (`observe(_:ordinal:)`) finds.
@Suite("Auditing by batches: each rule alone agrees with the event path")
struct BatchDispatchAgreementTests {
    /// Writes `events` to a temporary trace and returns (findings by batches, findings by events, states equal).
    static func audit(_ events: [Event], _ auditor: Auditor, frameEvents: Int) throws -> (batches: [Finding], events: [Finding], sameState: Bool) {
        let (path, reader) = try BatchedTraceFile.write(events, frameEvents: frameEvents, name: "audit-batches", traceIDByte: 5)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let byEvents = auditor.makeSession()
        try BatchedTraceFile.observeByEvents(reader, byEvents)
        let byBatches = auditor.makeSession()
        try BatchedTraceFile.observeByBatches(reader, byBatches)
        let sameState = byBatches.state == byEvents.state
        return (byBatches.finish(), byEvents.finish(), sameState)
    }

    static func auditor(only ids: Set<String>) throws -> Auditor {
        let all = Set(BuiltinRules.all.map(\.id))
        return try Auditor(configuration: AuditConfiguration(disabledRules: all.subtracting(ids), optInRules: ids))
    }

    static let randomTraces: [[Event]] = (UInt64(1)...3).map { RandomEvents.make(count: 5_000, seed: $0) }
    static let simulated = SessionGenerator(seed: 13).events(count: 30_000)

    @Test("each rule alone, random events of every kind", arguments: BuiltinRules.all.map(\.id))
    func eachRuleRandom(id: String) throws {
        let auditor = try Self.auditor(only: [id])
        var findings = 0
        for events in Self.randomTraces {
            let result = try Self.audit(events, auditor, frameEvents: 700)
            #expect(result.sameState, "\(id)")
            #expect(result.batches == result.events, "\(id)")
            findings += result.events.count
        }
        // Every rule finds something in random streams except the few whose patterns they rarely form.
        if ["appearance_balance", "view_did_load_once", "leaked_controller", "orphan_child"].contains(id) { #expect(findings > 0, "\(id)") }
    }

    @Test("each rule alone, a simulated session", arguments: BuiltinRules.all.map(\.id))
    func eachRuleSimulated(id: String) throws {
        let result = try Self.audit(Self.simulated, try Self.auditor(only: [id]), frameEvents: 4_096)
        #expect(result.sameState, "\(id)")
        #expect(result.batches == result.events, "\(id)")
    }

    @Test("state-free and state-reading rules together")
    func mixedRules() throws {
        let sets: [Set<String>] = [
            ["appearance_balance", "view_loaded_in_init"],
            ["expensive_layout", "geometry_before_appearing", "leaked_controller"],
            ["hosting_children_accumulate", "orphan_child", "unsaved_edit_at_exit"],
            // Scanners side by side (deinit begins are listed for five of them), one with a serial filter.
            ["view_did_load_once", "view_loaded_in_init", "analytics_overcount", "hosting_children_accumulate", "leaked_controller", "appearance_balance"],
            Set(BuiltinRules.all.map(\.id)),
        ]
        for ids in sets {
            let auditor = try Self.auditor(only: ids)
            for events in Self.randomTraces {
                let result = try Self.audit(events, auditor, frameEvents: 333)
                #expect(result.sameState, "\(ids)")
                #expect(result.batches == result.events, "\(ids)")
            }
        }
    }

    @Test("a callback entry gives the same callback fact as the record RecordBatch builds for it")
    func callbackRecords() throws {
        let events = RandomEvents.make(count: 3_000, seed: 9)
        let path = FileManager.default.temporaryDirectory.path + "/lifetrace-audit-entries-\(UUID().uuidString).lifetrace"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TraceWriter(
            creating: path,
            header: TraceHeader(clockDomain: .synthetic, wallClockAnchor: .none, producer: "AuditTests", hasSyntheticTimes: true, traceID: Array(repeating: 6, count: 16)))
        try writer.append(contentsOf: events)
        try writer.close()
        let reader = try TraceReader(path: path)
        var compared = 0
        for frame in reader.frames {
            var cursor = try reader.cursor(for: frame)
            var batch = RecordBatch()
            repeat {
                cursor.decode(into: &batch, limit: 256)
                for index in 0..<batch.count where !batch[index].isRecord {
                    // The batch path's callback fact is the record path's.
                    #expect(CallbackFact(batch[index]) == CallbackFact(batch.record(of: index)))
                    compared += 1
                }
            } while !batch.isFinished
        }
        #expect(compared > 500)
    }
}
