import Foundation
import Testing

@testable import TraceLog

/// Every trace committed under `traces/` must read and verify with this build: a format change that forgets
/// to regenerate them (tools/generate-traces, tools/import-cases) fails here.
@Suite("Committed traces")
struct CommittedTracesTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var committedTraces: [String] {
        let root = repositoryRoot.appendingPathComponent("traces").path
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return [] }
        return enumerator.compactMap { $0 as? String }.filter { $0.hasSuffix(".lifetrace") }.sorted().map { "\(root)/\($0)" }
    }

    @Test("every committed trace verifies without problems")
    func committedTracesVerify() throws {
        let traces = Self.committedTraces
        #expect(!traces.isEmpty)
        for path in traces {
            let reader = try TraceReader(path: path)
            let report = try reader.verify()
            #expect(report.problems.isEmpty, "\(path): \(report.problems)")
            #expect(report.isCleanlyClosed, "\(path)")
            #expect(report.eventsChecked == reader.eventCount, "\(path)")
        }
    }
}
