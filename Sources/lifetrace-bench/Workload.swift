// The events a run measures, and what the peers derive from them (JSON lines, gzip size, databases), built once
// per event count and shared by every benchmark of the run.

import Foundation
import Replay
import Simulator
import TraceLog
import TraceModel

/// Which timestamps a workload's events carry.
enum Timing: String {
    /// The simulator's: every event takes one tick (100 µs), so time deltas repeat exactly.
    case simulated
    /// The simulator's plus a deterministic sub-tick jitter in nanoseconds, as a real clock gives (for size:
    /// nanosecond noise is what a recorded trace's time deltas carry, and what compresses least).
    case jittered
}

/// Forwards the first `limit` events of a generated session to a closure.
private final class ForwardingSink: LifecycleSink {
    private var controllers = 0
    private var forwarded = 0
    private let limit: Int
    private let body: (Event) throws -> Void
    private var jitter: SplitMix64?
    private let jitterRange: UInt64
    private var lastTimestamp: UInt64 = 0
    var error: (any Error)?

    init(limit: Int, timing: Timing, seed: UInt64, tick: UInt64, body: @escaping (Event) throws -> Void) {
        self.limit = limit
        self.body = body
        jitter = timing == .jittered ? SplitMix64(seed: seed ^ 0x6a09_e667_f3bc_c909) : nil
        jitterRange = max(tick / 2, 1)
    }

    func registerController(typeName: String, at timestamp: UInt64) -> ControllerRef {
        controllers += 1
        return ControllerRef(serial: UInt32(controllers), typeName: typeName)
    }

    func record(_ event: Event) {
        guard forwarded < limit, error == nil else { return }
        forwarded += 1
        var event = event
        if jitter != nil {
            // Less than half a tick of noise keeps distinct timestamps increasing; equal ones stay ordered by max.
            event.timestamp = max(lastTimestamp, event.timestamp &+ jitter!.next() % jitterRange)
            lastTimestamp = event.timestamp
        }
        do { try body(event) } catch { self.error = error }
    }
}

/// One workload: `eventCount` events of a deterministic session from the Simulator's `SessionGenerator`, plus
/// derived files in `directory`.
final class Workload {
    let eventCount: Int
    let seed: UInt64
    let directory: String
    private let harness: Harness

    init(eventCount: Int, seed: UInt64, harness: Harness) throws {
        self.eventCount = eventCount
        self.seed = seed
        self.harness = harness
        directory = harness.scratchDirectory + "/events-\(eventCount)-seed-\(seed)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    /// Generates the workload's events and hands each to `body`, streaming (never all in memory).
    func forEachEvent(timing: Timing = .simulated, _ body: @escaping (Event) throws -> Void) throws {
        try forEach(count: eventCount, timing: timing, body)
    }

    private func forEach(count: Int, timing: Timing, _ body: @escaping (Event) throws -> Void) throws {
        let generator = SessionGenerator(seed: seed)
        let sink = ForwardingSink(limit: count, timing: timing, seed: seed, tick: generator.options.tick, body: body)
        generator.generate(count: count, into: sink)
        if let error = sink.error { throw error }
    }

    /// The first `count` events in memory, for benchmarks that cycle through a small set (recording).
    func sample(_ count: Int) -> [Event] {
        var events: [Event] = []
        try? forEach(count: min(count, eventCount), timing: .simulated) { events.append($0) }
        return events
    }

    // MARK: JSON lines

    /// What writing the JSON lines learned about the events.
    struct Summary {
        var path: String
        var bytes: Int
        var firstTimestamp: UInt64
        var lastTimestamp: UInt64
        /// Per controller display name (the JSONL's `controller` field): its events, first and last timestamp.
        var controllers: [String: (count: Int, first: UInt64, last: UInt64)]
    }

    private var cachedJSONL: [Timing: Summary] = [:]

    /// The events as JSON lines, encoded by TraceLog's `JSONLWriter` (what `lifetrace export --format jsonl`
    /// writes, without its header line), written once.
    func jsonl(timing: Timing = .simulated) throws -> Summary {
        if let cached = cachedJSONL[timing] { return cached }
        harness.progress("writing \(eventCount) events as JSON lines (\(timing.rawValue) times)")
        let path = directory + "/events-\(timing.rawValue).jsonl"
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw BenchError("cannot create \(path)")
        }
        defer { try? handle.close() }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        var summary = Summary(path: path, bytes: 0, firstTimestamp: 0, lastTimestamp: 0, controllers: [:])
        var isFirst = true
        try forEachEvent(timing: timing) { event in
            if isFirst {
                summary.firstTimestamp = event.timestamp
                isFirst = false
            }
            summary.lastTimestamp = event.timestamp
            if let controller = event.controller {
                let name = controller.displayName
                if let seen = summary.controllers[name] {
                    summary.controllers[name] = (seen.count + 1, seen.first, event.timestamp)
                } else {
                    summary.controllers[name] = (1, event.timestamp, event.timestamp)
                }
            }
            JSONLWriter.appendLine(for: event, to: &buffer)
            if buffer.count >= 1 << 20 {
                summary.bytes += buffer.count
                try handle.write(contentsOf: buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        summary.bytes += buffer.count
        try handle.write(contentsOf: buffer)
        cachedJSONL[timing] = summary
        return summary
    }

    /// The query the query benchmark asks: the busiest controller's events in the middle half of its life
    /// (ties broken by name, so the choice is deterministic).
    func query() throws -> EventQuery {
        let summary = try jsonl()
        guard let busiest = summary.controllers.max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) }) else {
            throw BenchError("the workload has no controller events")
        }
        let quarter = (busiest.value.last - busiest.value.first) / 4
        let from = busiest.value.first + quarter
        let to = busiest.value.last - quarter
        return EventQuery(
            controller: busiest.key, from: from, to: to,
            relativeFrom: from - summary.firstTimestamp, relativeTo: to - summary.firstTimestamp)
    }

    // MARK: trace file

    private var cachedTrace: [Timing: (path: String, bytes: Int)] = [:]

    /// The events written as a `.lifetrace` file by `TraceWriter` with its default options, written once.
    func trace(timing: Timing = .simulated) throws -> (path: String, bytes: Int) {
        if let cached = cachedTrace[timing] { return cached }
        harness.progress("writing \(eventCount) events as a trace (\(timing.rawValue) times)")
        let path = directory + "/events-\(timing.rawValue).lifetrace"
        let header = TraceHeader(
            clockDomain: .synthetic, wallClockAnchor: .none, producer: "lifetrace-bench", hasSyntheticTimes: true,
            traceID: Array(repeating: 8, count: 16))
        let writer = try TraceWriter(creating: path, header: header)
        try forEachEvent(timing: timing) { try writer.append($0) }
        try writer.close()
        let result = (path, External.fileSize(path))
        cachedTrace[timing] = result
        return result
    }

    private var cachedCheckpointedTrace: (path: String, bytes: Int, checkpoints: Int)?

    /// The events written by Replay's `CheckpointingWriter` with its default policy (a checkpoint every 65 536
    /// events, or every 600 s of trace time once enough events accumulated), the file `state(at:)` seeks in;
    /// written once.
    func checkpointedTrace() throws -> (path: String, bytes: Int, checkpoints: Int) {
        if let cachedCheckpointedTrace { return cachedCheckpointedTrace }
        harness.progress("writing \(eventCount) events as a trace with checkpoints")
        let path = directory + "/events-checkpointed.lifetrace"
        let header = TraceHeader(
            clockDomain: .synthetic, wallClockAnchor: .none, producer: "lifetrace-bench", hasSyntheticTimes: true,
            traceID: Array(repeating: 8, count: 16))
        let writer = CheckpointingWriter(writer: try TraceWriter(creating: path, header: header))
        try forEachEvent { try writer.append($0) }
        try writer.close()
        let result = (path, External.fileSize(path), writer.checkpointCount)
        cachedCheckpointedTrace = result
        return result
    }

    // MARK: gzip -6

    private var cachedGzipBytes: [Timing: Int] = [:]

    /// The size of the JSON lines compressed as `gzip -6` does (zlib level 6, gzip framing), in bytes.
    func gzipBytes(timing: Timing = .simulated) throws -> Int {
        if let cached = cachedGzipBytes[timing] { return cached }
        let summary = try jsonl(timing: timing)
        harness.progress("compressing the JSON lines with zlib level 6 (gzip framing)")
        let deflater = try Deflater(level: 6, windowBits: 15 + 16)
        let data = try Data(contentsOf: URL(fileURLWithPath: summary.path), options: .alwaysMapped)
        let size = try data.withUnsafeBytes { try deflater.compressedSize(of: $0) }
        cachedGzipBytes[timing] = size
        return size
    }

    // MARK: SQLite

    private var cachedSQLite: SQLitePeer??

    /// The JSON lines loaded into an indexed SQLite table, or nil when `sqlite3` is missing.
    func sqlite() throws -> SQLitePeer? {
        if let cachedSQLite { return cachedSQLite }
        let summary = try jsonl()
        harness.progress("loading the JSON lines into SQLite")
        let peer = try SQLitePeer(jsonl: summary.path, database: directory + "/events.sqlite")
        cachedSQLite = .some(peer)
        return peer
    }

    /// Removes the derived files.
    func removeFiles() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
