import Foundation
import LifetraceTestSupport
import TraceLog
import TraceModel
@testable import Replay

import Testing

/// A fresh directory under the system's temporary directory, removed when released.
final class ScratchDirectory {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory.path + "/lifetrace-replay-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { "\(path)/\(name)" }
}

enum TestTraces {
    static let header = TraceHeader(
        clockDomain: .synthetic, wallClockAnchor: .none, producer: "ReplayTests", traceID: Array(1...16)
    )

    static func options(eventsPerFrame: Int) -> TraceWriter.Options {
        var options = TraceWriter.Options()
        options.maxEventsPerFrame = eventsPerFrame
        return options
    }

    /// Writes `events` through a `CheckpointingWriter` and closes the file.
    static func write(_ events: [Event], to path: String, eventsPerFrame: Int = 256, policy: CheckpointingWriter.Policy) throws -> Int {
        let writer = try CheckpointingWriter(
            writer: TraceWriter(creating: path, header: header, options: options(eventsPerFrame: eventsPerFrame)), policy: policy
        )
        try writer.append(contentsOf: events)
        try writer.close()
        return writer.checkpointCount
    }

    /// The state after every event with timestamp ≤ `instant`, folded from the start in memory.
    static func reference(_ events: [Event], at instant: UInt64) -> ReplayState {
        ReplayState.replaying(events.prefix { $0.timestamp <= instant })
    }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
    static func put(_ bytes: [UInt8], _ path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
}

@Suite("Checkpoints and seeking")
struct CheckpointTests {
    @Test("the checkpoint encoding round-trips every state of a random trace", arguments: [1, 2, 3] as [UInt64])
    func roundTrip(seed: UInt64) throws {
        let events = RandomEvents.make(count: 3_000, seed: seed)
        var state = ReplayState()
        for (ordinal, event) in events.enumerated() {
            state.apply(event, ordinal: UInt64(ordinal))
            if ordinal % 97 == 0 || ordinal == events.count - 1 {
                let payload = state.checkpointPayload()
                #expect(try ReplayState(checkpointPayload: payload) == state)
                #expect(state.checkpointPayload() == payload, "equal states give equal bytes")
            }
        }
        #expect(!state.diagnostics.isEmpty && state.controllers.count > 10, "the random trace exercises the state")
    }

    @Test("a damaged payload throws CheckpointError at every truncation and for bit flips, never traps")
    func damagedPayloads() throws {
        let state = ReplayState.replaying(RandomEvents.make(count: 120, seed: 9))
        let payload = state.checkpointPayload()
        for length in 0..<payload.count {
            #expect(throws: CheckpointError.self) { try ReplayState(checkpointPayload: Array(payload[0..<length])) }
        }
        var generator = SeededGenerator(seed: 5)
        var decodedDifferently = 0
        for _ in 0..<1_000 {
            var damaged = payload
            let index = Int(generator.next() % UInt64(payload.count))
            damaged[index] ^= UInt8(1 << (generator.next() % 8))
            if let decoded = try? ReplayState(checkpointPayload: damaged), decoded != state { decodedDifferently += 1 }
        }
        // Some flips decode to another valid state (a flipped time); the frame CRC and the replayer's consistency
        // check catch those in a file. What matters here is that nothing trapped.
        #expect(decodedDifferently >= 0)
        #expect(throws: CheckpointError.self) { try ReplayState(checkpointPayload: Array("LTCK".utf8) + [9]) }
        #expect(throws: CheckpointError.self) { try ReplayState(checkpointPayload: Array("XXXX".utf8) + [1, 0]) }
    }

    @Test("state(at:) from checkpoints equals a full replay at many random instants of a long trace")
    func seekEqualsFullReplay() throws {
        let scratch = ScratchDirectory()
        let path = scratch.file("long.lifetrace")
        let events = RandomEvents.make(count: 12_000, seed: 77)
        let written = try TestTraces.write(events, to: path, eventsPerFrame: 300, policy: .init(eventInterval: 1_000, timeInterval: 0))
        #expect(written == 12)
        let replayer = try Replayer(path: path)
        #expect(replayer.reader.checkpoints.count == 12)
        var generator = SeededGenerator(seed: 1)
        let first = events.first!.timestamp
        let last = events.last!.timestamp
        var instants: [UInt64] = [0, first, last, UInt64.max]
        for _ in 0..<60 {
            instants.append(first + generator.next() % (last - first + 1))
            instants.append(events[Int(generator.next() % UInt64(events.count))].timestamp)
        }
        // References folded once, in instant order.
        instants.sort()
        var references: [ReplayState] = []
        var folded = ReplayState()
        var next = 0
        for instant in instants {
            while next < events.count, events[next].timestamp <= instant {
                folded.apply(events[next], ordinal: UInt64(next))
                next += 1
            }
            references.append(folded)
        }
        for (instant, reference) in zip(instants, references) {
            let seek = try replayer.seek(to: instant)
            #expect(seek.state == reference, "at \(instant) ns")
            #expect(seek.skippedCheckpoints.isEmpty)
            if instant >= events[1_000].timestamp, instant < UInt64.max {
                #expect(seek.checkpoint != nil)
            }
            // At most one checkpoint interval (plus events sharing the checkpoint's timestamp) is decoded.
            #expect(seek.eventsApplied <= 1_000 + 64, "applied \(seek.eventsApplied) at \(instant)")
        }
        #expect(try replayer.finalState() == ReplayState.replaying(events))
    }

    @Test("the visitor sees every event with the states before and after")
    func visitor() throws {
        let scratch = ScratchDirectory()
        let path = scratch.file("visit.lifetrace")
        let events = RandomEvents.make(count: 2_000, seed: 3)
        _ = try TestTraces.write(events, to: path, policy: .init(eventInterval: 500, timeInterval: 0))
        var seen: [UInt64] = []
        var mismatches = 0
        var reference = ReplayState()
        var visitor = ClosureVisitor(
            willApply: { _, _, state in if state != reference { mismatches += 1 } },
            didApply: { event, ordinal, state in
                reference.apply(event, ordinal: ordinal)
                if state != reference { mismatches += 1 }
                seen.append(ordinal)
            }
        )
        let final = try Replayer(path: path).replay(visitor: &visitor)
        #expect(seen == Array(0..<2_000))
        #expect(mismatches == 0)
        #expect(final == ReplayState.replaying(events))
    }

    @Test("corrupted checkpoints fall back to the previous one, then to the start")
    func corruptedCheckpoints() throws {
        let scratch = ScratchDirectory()
        let path = scratch.file("corrupt.lifetrace")
        let events = RandomEvents.make(count: 6_000, seed: 11)
        _ = try TestTraces.write(events, to: path, eventsPerFrame: 250, policy: .init(eventInterval: 1_000, timeInterval: 0))
        let clean = try Replayer(path: path)
        let checkpoints = clean.reader.checkpoints
        #expect(checkpoints.count == 6)
        // Flip one payload byte of the last three checkpoints (the file stays cleanly closed, so the reader finds
        // the damage only when it reads those payloads).
        var bytes = try TestTraces.bytes(path)
        for frame in checkpoints.suffix(3) {
            let payloadStart = Int(frame.endOffset) - Int(frame.compressedLength)
            bytes[payloadStart + Int(frame.compressedLength) / 2] ^= 0x40
        }
        try TestTraces.put(bytes, path)
        let damaged = try Replayer(path: path)
        let instant = events.last!.timestamp
        let seek = try damaged.seek(to: instant)
        #expect(seek.state == ReplayState.replaying(events))
        #expect(seek.skippedCheckpoints.count == 3)
        #expect(seek.checkpoint == checkpoints[2])

        // Every checkpoint bad: replay from the start.
        for frame in checkpoints.prefix(3) {
            let payloadStart = Int(frame.endOffset) - Int(frame.compressedLength)
            bytes[payloadStart] ^= 0x01
        }
        try TestTraces.put(bytes, path)
        let allBad = try Replayer(path: path).seek(to: events[4_500].timestamp)
        #expect(allBad.state == TestTraces.reference(events, at: events[4_500].timestamp))
        #expect(allBad.checkpoint == nil)
        #expect(allBad.skippedCheckpoints.count >= 4)
    }

    @Test("a trace not closed (no index, no footer) with a damaged checkpoint payload loses no events")
    func damagedCheckpointInUnclosedTrace() throws {
        let scratch = ScratchDirectory()
        let path = scratch.file("unclosed.lifetrace")
        let events = RandomEvents.make(count: 6_000, seed: 13)
        _ = try TestTraces.write(events, to: path, eventsPerFrame: 250, policy: .init(eventInterval: 1_000, timeInterval: 0))
        let clean = try Replayer(path: path)
        let checkpoints = clean.reader.checkpoints
        try #require(checkpoints.count == 6)
        // Cut the index and the footer (a recorder killed before closing), then damage the second checkpoint's
        // payload: its header (with its own CRC) still gives the frame's length, and a checkpoint holds no events.
        let dataEnd = (clean.reader.frames + checkpoints).map(\.endOffset).max()!
        var bytes = Array(try TestTraces.bytes(path).prefix(Int(dataEnd)))
        let frame = checkpoints[1]
        bytes[Int(frame.endOffset) - Int(frame.compressedLength) / 2] ^= 0x40
        try TestTraces.put(bytes, path)
        let damaged = try Replayer(path: path)
        #expect(damaged.reader.eventCount == 6_000)
        #expect(damaged.reader.checkpoints.count == 6)
        #expect(try damaged.replay() == ReplayState.replaying(events))
        let seek = try damaged.seek(to: events[2_500].timestamp)
        #expect(seek.skippedCheckpoints.count == 1)
        #expect(seek.state == TestTraces.reference(events, at: events[2_500].timestamp))
        // verify still reports the damaged checkpoint, and only it.
        let report = try damaged.reader.verify()
        #expect(report.problems.count == 1)
        #expect(report.problems.first.map { "\($0)".contains("checkpoint frame") && "\($0)".contains("payload CRC mismatch") } == true)
        #expect(report.eventsChecked == 6_000)
    }

    @Test("checkpoints with a valid frame but a bad or inconsistent payload are skipped")
    func badPayloads() throws {
        let scratch = ScratchDirectory()
        let path = scratch.file("bad-payload.lifetrace")
        let events = RandomEvents.make(count: 3_000, seed: 12)
        let writer = try TraceWriter(creating: path, header: TestTraces.header, options: TestTraces.options(eventsPerFrame: 200))
        var state = ReplayState()
        for (ordinal, event) in events.enumerated() {
            try writer.append(event)
            state.apply(event, ordinal: UInt64(ordinal))
            if ordinal == 999 { try writer.writeCheckpoint(state.checkpointPayload()) }
            if ordinal == 1_999 { try writer.writeCheckpoint(Array("not a checkpoint".utf8)) }
            if ordinal == 2_499 { try writer.writeCheckpoint(ReplayState.replaying(events.prefix(10)).checkpointPayload()) }
        }
        try writer.close()
        let seek = try Replayer(path: path).seek(to: events.last!.timestamp)
        #expect(seek.state == ReplayState.replaying(events))
        #expect(seek.skippedCheckpoints.count == 2)
        #expect((seek.skippedCheckpoints[0] as? CheckpointError)?.code == .inconsistent)
        #expect((seek.skippedCheckpoints[1] as? CheckpointError)?.code == .badMagic)
        #expect(seek.checkpoint?.firstOrdinal == 1_000)
    }

    @Test("a trace without checkpoints replays from the start")
    func noCheckpoints() throws {
        let scratch = ScratchDirectory()
        let path = scratch.file("plain.lifetrace")
        let events = RandomEvents.make(count: 1_500, seed: 4)
        #expect(try TestTraces.write(events, to: path, policy: .never) == 0)
        let replayer = try Replayer(path: path)
        #expect(replayer.reader.checkpoints.isEmpty)
        let instant = events[700].timestamp
        let seek = try replayer.seek(to: instant)
        #expect(seek.checkpoint == nil)
        #expect(seek.state == TestTraces.reference(events, at: instant))
    }

    @Test("the time trigger writes checkpoints on slow traces; appending continues the state")
    func timeTriggerAndAppend() throws {
        let scratch = ScratchDirectory()
        let path = scratch.file("slow.lifetrace")
        let screen = ControllerRef(serial: 1, typeName: "SlowViewController")
        var events: [Event] = [.callback(CallbackEvent(.initialize, .instant, controller: screen), at: 0)]
        // 5 000 events 10 ms apart: 50 s of trace time.
        for index in 1...5_000 {
            let callback: Callback = index % 2 == 1 ? .viewWillAppear : .viewDidAppear
            events.append(.callback(CallbackEvent(callback, .instant, controller: screen), at: UInt64(index) * 10_000_000))
        }
        // Every 10 s, but only once 4 096 events accumulated: at event 4 096 (40.96 s), not at 10 s.
        let policy = CheckpointingWriter.Policy(eventInterval: 0, timeInterval: 10_000_000_000)
        let count = try TestTraces.write(Array(events[0..<4_500]), to: path, policy: policy)
        #expect(count == 1)
        let appender = try CheckpointingWriter.openForAppend(path: path, policy: .init(eventInterval: 200, timeInterval: 0))
        #expect(appender.state == ReplayState.replaying(events[0..<4_500]))
        try appender.append(contentsOf: events[4_500...])
        try appender.close()
        let replayer = try Replayer(path: path)
        #expect(replayer.reader.checkpoints.first?.firstOrdinal == 4_096)
        #expect(replayer.reader.checkpoints.count == 3)
        #expect(try replayer.finalState() == ReplayState.replaying(events))
        #expect(try replayer.state(at: 45_555_000_000) == TestTraces.reference(events, at: 45_555_000_000))
    }
}
