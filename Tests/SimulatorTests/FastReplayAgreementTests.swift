import Foundation
import Replay
import Testing
import TraceLog
import TraceModel

@testable import Simulator

/// The replay's fast path (records from the frame: `Replayer.replay()`, `state(at:)`, `ReplayState.apply(_:from:)`)
/// gives the same state as the reference fold of whole events (`ReplayState.apply(_:ordinal:)`) on the simulator's
/// sessions: navigation, presentation, tabs, containment, app and scene events, marks.
@Suite("Fast replay agrees with the reference fold on simulated sessions")
struct FastReplayAgreementTests {
    final class Scratch {
        let path = FileManager.default.temporaryDirectory.path + "/lifetrace-fastreplay-\(UUID().uuidString)"

        init() { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    static func write(_ events: [Event], to path: String, eventsPerFrame: Int) throws {
        var options = TraceWriter.Options()
        options.maxEventsPerFrame = eventsPerFrame
        let header = TraceHeader(clockDomain: .synthetic, wallClockAnchor: .none, producer: "SimulatorTests", traceID: Array(1...16))
        let writer = try CheckpointingWriter(
            writer: TraceWriter(creating: path, header: header, options: options), policy: .init(eventInterval: 5_000)
        )
        try writer.append(contentsOf: events)
        try writer.close()
    }

    @Test("whole sessions, every prefix end at a frame boundary and in between", arguments: [(UInt64(3), 97), (5, 8192), (8, 1000)])
    func sessions(seed: UInt64, eventsPerFrame: Int) throws {
        let scratch = Scratch()
        let path = scratch.path + "/session.lifetrace"
        let events = SessionGenerator(seed: seed).events(count: 20_000)
        try Self.write(events, to: path, eventsPerFrame: eventsPerFrame)
        let kinds = Set(events.map { event -> String in
            switch event.payload {
            case .callback: "callback"
            case .container: "container"
            case .app: "app"
            case .swiftUI: "swiftUI"
            case .mark: "mark"
            case .recorder: "recorder"
            case .unknown: "unknown"
            }
        })
        #expect(kinds.isSuperset(of: ["callback", "container", "app", "mark"]))
        let expected = ReplayState.replaying(events)
        let replayer = try Replayer(path: path)
        #expect(try replayer.replay() == expected)

        // Record by record through the public per-record fold (what the audit session calls).
        var state = ReplayState()
        for frame in replayer.reader.frames {
            var cursor = try replayer.reader.cursor(for: frame)
            var record = EventRecord(otherAt: 0, ordinal: 0)
            while try cursor.next(into: &record) { state.apply(record, from: cursor) }
        }
        #expect(state == expected)

        // Seeks land between checkpoints and inside frames.
        for index in [0, 1, 4_999, 5_000, 12_345, events.count - 1] {
            let instant = events[index].timestamp
            let reference = ReplayState.replaying(events.prefix { $0.timestamp <= instant })
            #expect(try replayer.state(at: instant) == reference, "at event \(index)")
        }
    }
}
