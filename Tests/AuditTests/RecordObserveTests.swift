import Foundation
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
