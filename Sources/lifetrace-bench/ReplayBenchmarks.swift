// Replay's own benchmarks: the cost of the fold alone, and the checkpoint policy sweep that chose
// `CheckpointingWriter.Policy`'s defaults (docs/REPLAY.md). Self-contained; registered in `Catalog.all`.

import Foundation
import Replay
import TraceLog
import TraceModel

extension Catalog {
    /// Fold only (events already decoded, in memory) ÷ decode only (the same events from the trace file).
    static func fold(_ harness: Harness, _ workload: Workload) throws -> [Figure] {
        let count = min(workload.eventCount, harness.isSmoke ? 2_000 : 2_000_000)
        let events = workload.sample(count)
        let trace = try workload.trace()
        let reader = try TraceReader(path: trace.path)
        let times = try harness.compare([
            {
                var state = ReplayState()
                var ordinal: UInt64 = 0
                for event in events {
                    state.apply(event, ordinal: ordinal)
                    ordinal += 1
                }
                return state.eventCount &+ UInt64(state.controllers.count)
            },
            {
                var decoded: UInt64 = 0
                for frame in reader.frames where frame.firstOrdinal < UInt64(count) {
                    for event in try reader.decodeFrame(frame) { decoded &+= event.timestamp }
                }
                return decoded
            },
        ] as [Work])
        let decodedEvents = reader.frames.filter { $0.firstOrdinal < UInt64(count) }.reduce(0) { $0 + Int($1.eventCount) }
        let foldPerEvent = Spread(times[0].map { Double($0) / Double(count) })
        let decodePerEvent = Spread(times[1].map { Double($0) / Double(decodedEvents) })
        var figure = Figure(
            benchmark: "fold", name: "fold ns/event (in memory) ÷ decode ns/event (from the file)", events: count,
            ratio: Spread(zip(times[0], times[1]).map { (Double($0) / Double(count)) / (Double($1) / Double(decodedEvents)) }), goal: .stated("≤ 1 keeps the fold under half of replay"),
            verdict: .stated, candidate: Quantity(value: foldPerEvent.median, unit: "ns/event"),
            baseline: Quantity(value: decodePerEvent.median, unit: "ns/event"))
        figure.judge()
        let state = ReplayState.replaying(events)
        figure.notes.append(
            "ReplayState.apply over \(count) events from Workload.sample; \(state.controllers.count) controller records at the end "
                + "(\(state.controllers.values.filter(\.isAlive).count) alive), \(state.deadSerials.ranges.count) dead-serial ranges, \(state.diagnostics.count) diagnostics; "
                + "checkpoint of the final state: \(Format.bytes(state.checkpointPayload().count))")
        return [figure]
    }

    /// For several event intervals: checkpoint bytes as a share of the file, and `state(at: middle)` ÷ a full
    /// replay to the middle. The default (`CheckpointingWriter.Policy()`) is chosen from this table.
    static func checkpointPolicy(_ harness: Harness, _ workload: Workload) throws -> [Figure] {
        var events: [Event] = []
        try workload.forEachEvent { events.append($0) }
        let middle = events[events.count / 2].timestamp
        let header = TraceHeader(
            clockDomain: .synthetic, wallClockAnchor: .none, producer: "lifetrace-bench", hasSyntheticTimes: true,
            traceID: Array(repeating: 9, count: 16))
        let plain = harness.scratchDirectory + "/policy-none.lifetrace"
        let plainWriter = try TraceWriter(creating: plain, header: header)
        try plainWriter.append(contentsOf: events)
        try plainWriter.close()
        let plainBytes = External.fileSize(plain)
        var figures: [Figure] = []
        let intervals: [UInt64] = harness.isSmoke ? [256, 1_024] : [4_096, 16_384, 65_536, 262_144]
        for interval in intervals {
            let path = harness.scratchDirectory + "/policy-\(interval).lifetrace"
            let writer = CheckpointingWriter(
                writer: try TraceWriter(creating: path, header: header), policy: .init(eventInterval: interval, timeInterval: 0))
            try writer.append(contentsOf: events)
            try writer.close()
            let bytes = External.fileSize(path)
            let replayer = try Replayer(path: path)
            var applied: UInt64 = 0
            let times = try harness.compare([
                {
                    let seek = try Replayer(path: path).seek(to: middle)
                    applied = seek.eventsApplied
                    return seek.state.eventCount
                },
                { try replayFromStart(plain, to: middle).eventCount },
            ] as [Work])
            var figure = Figure(
                benchmark: "checkpoints", name: "every \(interval) events: state(at: middle) ÷ replay to middle", events: events.count,
                ratio: Spread(zip(times[0], times[1]).map { Double($0) / Double(max($1, 1)) }), goal: .atMost(0.01),
                verdict: .met, candidate: Quantity(value: Spread(times[0]).median / 1e6, unit: "ms"),
                baseline: Quantity(value: Spread(times[1]).median / 1e6, unit: "ms"))
            figure.judge()
            let overhead = Double(bytes - plainBytes) / Double(plainBytes)
            figure.notes.append(
                "\(replayer.reader.checkpoints.count) checkpoints, +\(Format.bytes(bytes - plainBytes)) = \(Format.fixed(overhead * 100, digits: 2)) % of the \(Format.bytes(plainBytes)) trace; "
                    + "the seek applied \(applied) events after its checkpoint")
            figures.append(figure)
        }
        return figures
    }
}
