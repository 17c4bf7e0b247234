import Foundation
import LifetraceTestSupport
import Testing
import TraceModel

@testable import TraceLog

/// Writes a random 100 000-event sample as a trace and as JSON Lines when `LIFETRACE_SAMPLE_DIR` names a
/// directory (for measuring bytes/event against `gzip -6` of the JSONL; see docs/FORMAT.md §10). Disabled
/// otherwise.
@Suite("Sample trace for measurements")
struct SampleTraceWriter {
    static let directory = ProcessInfo.processInfo.environment["LIFETRACE_SAMPLE_DIR"]

    @Test("writes random-100k.lifetrace and random-100k.jsonl", .enabled(if: directory != nil))
    func writeSample() throws {
        let directory = try #require(Self.directory)
        let events = RandomEvents.make(count: 100_000, seed: 2026)
        let header = TraceHeader(
            clockDomain: .synthetic, wallClockAnchor: WallClockAnchor(unixNanoseconds: 1_764_460_800_000_000_000, monotonicNanoseconds: 0),
            producer: "lifetrace TraceLogTests sample"
        )
        let writer = try TraceWriter(creating: "\(directory)/random-100k.lifetrace", header: header)
        try writer.append(contentsOf: events)
        try writer.close()
        var bytes: [UInt8] = []
        var jsonl = JSONLWriter { bytes.append(contentsOf: $0) }
        for event in events { try jsonl.write(event) }
        try jsonl.finish()
        try Data(bytes).write(to: URL(fileURLWithPath: "\(directory)/random-100k.jsonl"))
        #expect(try TraceReader(path: "\(directory)/random-100k.lifetrace").eventCount == 100_000)
    }
}
