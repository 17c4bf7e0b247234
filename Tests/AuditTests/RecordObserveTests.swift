import Foundation
import LifetraceTestSupport
import Simulator
import Testing
import TraceLog
import TraceModel

@testable import Audit

/// `AuditSession.observe(_:from:)` (records from a `FrameCursor`) finds exactly what `observe(_:ordinal:)` finds.
@Suite("Auditing from frame records")
struct RecordObserveTests {
    @Test("every committed sample trace gives the same findings and state both ways")
    func sampleTraces() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = root.appendingPathComponent("traces")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".lifetrace") }.sorted()
        #expect(!names.isEmpty)
        let optIn = Set(BuiltinRules.all.filter(\.descriptor.isOptIn).map(\.descriptor.id))
        let auditor = try Auditor(configuration: AuditConfiguration(optInRules: optIn))
        var findings = 0
        for name in names {
            let reader = try TraceReader(path: directory.appendingPathComponent(name).path)
            let byEvents = auditor.makeSession()
            try reader.forEachEvent { ordinal, event in byEvents.observe(event, ordinal: ordinal) }
            let byRecords = auditor.makeSession()
            for frame in reader.frames {
                var cursor = try reader.cursor(for: frame)
                while let record = try cursor.next() { byRecords.observe(record, from: cursor) }
            }
            #expect(byRecords.state == byEvents.state, "\(name)")
            let expected = byEvents.finish()
            findings += expected.count
            #expect(byRecords.finish() == expected, "\(name)")
        }
        #expect(findings > 0)
    }
}

/// The record path (`observe(_:from:)`) and the `Event` path (`observe(_:ordinal:)`, what JSON Lines inputs take)
/// give the same findings on streams the sample traces do not cover: random events of every kind (callbacks with
/// and without parents, sources and sizes; unbalanced phases; marks of every field type) and long simulated
/// sessions.
@Suite("Auditing from frame records: random and simulated traces")
struct RecordObservePropertyTests {
    static let auditor: Auditor = {
        let optIn = Set(BuiltinRules.all.filter(\.descriptor.isOptIn).map(\.descriptor.id))
        return try! Auditor(configuration: AuditConfiguration(optInRules: optIn))
    }()

    /// Writes `events` to a temporary trace, audits it both ways, and returns (by records, by events, in memory).
    static func auditBothWays(_ events: [Event], frameEvents: Int) throws -> (records: [Finding], events: [Finding], memory: [Finding]) {
        let (path, reader) = try BatchedTraceFile.write(events, frameEvents: frameEvents, name: "audit-records", traceIDByte: 3)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let byEvents = auditor.makeSession()
        try reader.forEachEvent { ordinal, event in byEvents.observe(event, ordinal: ordinal) }
        let byRecords = auditor.makeSession()
        for frame in reader.frames {
            var cursor = try reader.cursor(for: frame)
            var record = EventRecord(otherAt: 0, ordinal: 0)
            while try cursor.next(into: &record) { byRecords.observe(record, from: cursor) }
        }
        #expect(byRecords.state == byEvents.state)
        let byBatches = auditor.makeSession()
        var batch = RecordBatch()
        var observed: UInt64 = 0
        for frame in reader.frames {
            var cursor = try reader.cursor(for: frame)
            observed += try byBatches.observeRest(of: &cursor, batch: &batch)
        }
        #expect(observed == UInt64(events.count))
        #expect(byBatches.state == byEvents.state)
        let expected = byEvents.finish()
        #expect(byBatches.finish() == expected)
        return (byRecords.finish(), expected, auditor.audit(events))
    }

    @Test("random events of every kind", arguments: [UInt64(1), 2, 3, 4])
    func randomEvents(seed: UInt64) throws {
        let events = RandomEvents.make(count: 6_000, seed: seed)
        let (records, byEvents, memory) = try Self.auditBothWays(events, frameEvents: 512)
        #expect(records == byEvents)
        #expect(memory == byEvents)
    }

    @Test("simulated sessions", arguments: [UInt64(8), 21])
    func simulatedSessions(seed: UInt64) throws {
        let events = SessionGenerator(seed: seed).events(count: 60_000)
        let (records, byEvents, memory) = try Self.auditBothWays(events, frameEvents: 4_096)
        #expect(!byEvents.isEmpty)
        #expect(records == byEvents)
        #expect(memory == byEvents)
    }
}
