import Foundation
import LifetraceTestSupport
import Testing
import TraceLog
import TraceModel

@testable import Replay

/// The fast path (`FrameCursor` records through `ReplayState.apply(_:from:)`, `Replayer.replay()`) is the same fold
/// as `apply(_:ordinal:)` on whole events: equal states for the same events.
@Suite("One fold: records and events give equal states")
struct RecordFoldTests {
    @Test("random event streams", arguments: [UInt64(21), 22, 23, 24])
    func randomStreams(seed: UInt64) throws {
        let scratch = ScratchDirectory()
        let path = scratch.file("random.lifetrace")
        let events = RandomEvents.make(count: 4000, seed: seed)
        _ = try TestTraces.write(events, to: path, eventsPerFrame: 101, policy: .init(eventInterval: 1000))
        let expected = ReplayState.replaying(events)
        let replayer = try Replayer(path: path)
        #expect(try replayer.replay() == expected)

        var state = ReplayState()
        for frame in replayer.reader.frames {
            var cursor = try replayer.reader.cursor(for: frame)
            while let record = try cursor.next() { state.apply(record, from: cursor) }
        }
        #expect(state == expected)
        // The checkpoints written along the way hold the same fold.
        #expect(try replayer.finalState() == expected)
    }

    @Test("the committed sample traces")
    func sampleTraces() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let directory = root.appendingPathComponent("traces")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".lifetrace") }.sorted()
        #expect(!names.isEmpty)
        for name in names {
            let replayer = try Replayer(path: directory.appendingPathComponent(name).path)
            var events: [Event] = []
            try replayer.reader.forEachEvent { _, event in events.append(event) }
            let expected = ReplayState.replaying(events)
            #expect(try replayer.replay() == expected, "\(name)")
        }
    }

    @Test("a callback's controller keeps its name while it is the latest callback, however many die after it")
    func latestCallbackKeepsItsRecord() {
        var events: [Event] = []
        let survivor = ControllerRef(serial: 1, typeName: "SurvivorViewController")
        events.append(.callback(CallbackEvent(.deinitialize, .instant, controller: survivor), at: 1))
        var state = ReplayState.replaying(events)
        // Deaths without callbacks (a process ending) push old records out; the latest callback's stays.
        for serial in UInt32(2)...40 {
            state.controllers[serial] = ControllerState(ref: ControllerRef(serial: serial, typeName: "Other"), firstSeen: 2, ordinal: 1)
            state.controllers[serial]?.deinitTime = 3
            state.compactDead(serial)
        }
        let last = state.lastCallback
        #expect(last != nil)
        #expect(state.controllers.count == ReplayState.retainedDeadLimit)
        #expect(last.flatMap { state.controllerRef(of: $0) } == survivor)
        #expect(last.map { state.describe($0) } == "SurvivorViewController#1.deinit")
    }
}
