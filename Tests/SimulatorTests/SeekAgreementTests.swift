import Foundation
import LifetraceTestSupport
import Replay
import Testing
import TraceLog
import TraceModel

@testable import Simulator

/// Seeking by checkpoints must give the state a fold from the start gives, at any instant, for realistic
/// sessions (deep stacks, sheets, interactive pops and callbacks in flight when a checkpoint is cut), not only
/// for random events; and a JSON Lines round trip must not change the state.
@Suite("Seeking agrees with folding from the start on generated sessions")
struct SeekAgreementTests {
    static let header = TraceHeader(clockDomain: .synthetic, wallClockAnchor: .none, producer: "SeekAgreementTests", traceID: Array(1...16))

    /// The session's events, optionally with times rounded down to `quantum` ns (many equal timestamps, also
    /// across checkpoint boundaries).
    static func session(seed: UInt64, count: Int, quantum: UInt64) -> [Event] {
        SessionGenerator(seed: seed).events(count: count).map { event in
            var event = event
            event.timestamp = event.timestamp / quantum * quantum
            return event
        }
    }

    /// Instants worth checking: every checkpoint's time and its neighbours, both ends, and random instants and
    /// event times.
    static func instants(_ events: [Event], checkpoints: [FrameInfo], seed: UInt64) -> [UInt64] {
        var generator = SeededGenerator(seed: seed)
        let first = events.first!.timestamp
        let last = events.last!.timestamp
        var instants: [UInt64] = [0, first, last, last + 1, UInt64.max]
        for checkpoint in checkpoints {
            let time = checkpoint.firstTimestamp
            instants += [time, time &- 1, time + 1]
            let ordinal = Int(checkpoint.firstOrdinal)
            if ordinal < events.count { instants += [events[ordinal].timestamp, events[ordinal].timestamp &- 1] }
        }
        for _ in 0..<150 {
            instants.append(first + generator.next() % (last - first + 1))
            instants.append(events[Int(generator.next() % UInt64(events.count))].timestamp)
        }
        return instants.sorted()
    }

    @Test(
        "state(at:) from checkpoints equals the fold from the start at checkpoint times and random instants",
        arguments: [(3, 1), (8, 1), (5, 50_000_000), (11, 1_000_000_000)] as [(UInt64, UInt64)]
    )
    func seekEqualsFold(seed: UInt64, quantum: UInt64) throws {
        let events = Self.session(seed: seed, count: 12_000, quantum: quantum)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("seek-\(UUID().uuidString).lifetrace").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = TraceWriter.Options()
        options.maxEventsPerFrame = 333
        let writer = CheckpointingWriter(
            writer: try TraceWriter(creating: path, header: Self.header, options: options), policy: .init(eventInterval: 701, timeInterval: 0)
        )
        try writer.append(contentsOf: events)
        try writer.close()

        let replayer = try Replayer(path: path)
        #expect(replayer.reader.checkpoints.count >= 15)
        var folded = ReplayState()
        var next = 0
        var mismatches: [String] = []
        for instant in Self.instants(events, checkpoints: replayer.reader.checkpoints, seed: seed) {
            while next < events.count, events[next].timestamp <= instant {
                folded.apply(events[next], ordinal: UInt64(next))
                next += 1
            }
            let seek = try replayer.seek(to: instant)
            if seek.state != folded, mismatches.count < 5 {
                mismatches.append("at \(instant) ns (\(folded.eventCount) events, from checkpoint at ordinal \(seek.checkpoint.map { String($0.firstOrdinal) } ?? "none"))")
            }
            #expect(seek.skippedCheckpoints.isEmpty)
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(try replayer.finalState() == ReplayState.replaying(events))
    }

    @Test("a JSON Lines round trip of a session gives the same events and the same state", arguments: [2, 6] as [UInt64])
    func jsonlRoundTrip(seed: UInt64) throws {
        let events = Self.session(seed: seed, count: 8_000, quantum: 1)
        var bytes: [UInt8] = []
        var writer = JSONLWriter { bytes += $0 }
        try writer.writeHeader(Self.header)
        for event in events { try writer.write(event) }
        try writer.finish()
        var reader = try JSONLReader(bytes: bytes, file: "session.jsonl")
        let read = try reader.readAll()
        #expect(read == events)
        #expect(ReplayState.replaying(read) == ReplayState.replaying(events))
    }
}
