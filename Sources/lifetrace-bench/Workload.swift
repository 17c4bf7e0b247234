// The events a run measures, and what the peers derive from them (JSON lines, gzip size, databases), built once
// per event count and shared by every benchmark of the run.

import Foundation
import TraceLog
import TraceModel

/// One workload: `eventCount` events of a deterministic session, plus derived files in `directory`.
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

    /// The workload's events, generated on the fly (never held in memory all at once).
    func events() -> some Sequence<Event> {
        SyntheticSession(seed: seed).prefix(eventCount)
    }

    /// The first `count` events in memory, for benchmarks that cycle through a small set (recording).
    func sample(_ count: Int) -> [Event] {
        Array(SyntheticSession(seed: seed).prefix(min(count, eventCount)))
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

    private var cachedJSONL: Summary?

    /// The events as JSON lines, encoded by TraceLog's `JSONLWriter` (what `lifetrace export --format jsonl`
    /// writes, without its header line), written once.
    func jsonl() throws -> Summary {
        if let cachedJSONL { return cachedJSONL }
        harness.progress("writing \(eventCount) events as JSON lines")
        let path = directory + "/events.jsonl"
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw BenchError("cannot create \(path)")
        }
        defer { try? handle.close() }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        var summary = Summary(path: path, bytes: 0, firstTimestamp: 0, lastTimestamp: 0, controllers: [:])
        var isFirst = true
        for event in events() {
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
        cachedJSONL = summary
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

    private var cachedTrace: (path: String, bytes: Int)?

    /// The events written as a `.lifetrace` file by `TraceWriter` with its default options, written once.
    func trace() throws -> (path: String, bytes: Int) {
        if let cachedTrace { return cachedTrace }
        harness.progress("writing \(eventCount) events as a trace")
        let path = directory + "/events.lifetrace"
        let header = TraceHeader(
            clockDomain: .synthetic, wallClockAnchor: .none, producer: "lifetrace-bench", hasSyntheticTimes: true,
            traceID: Array(repeating: 8, count: 16))
        let writer = try TraceWriter(creating: path, header: header)
        for event in events() { try writer.append(event) }
        try writer.close()
        cachedTrace = (path, External.fileSize(path))
        return cachedTrace!
    }

    // MARK: gzip -6

    private var cachedGzipBytes: Int?

    /// The size of the JSON lines compressed as `gzip -6` does (zlib level 6, gzip framing), in bytes.
    func gzipBytes() throws -> Int {
        if let cachedGzipBytes { return cachedGzipBytes }
        let summary = try jsonl()
        harness.progress("compressing the JSON lines with zlib level 6 (gzip framing)")
        let deflater = try Deflater(level: 6, windowBits: 15 + 16)
        let data = try Data(contentsOf: URL(fileURLWithPath: summary.path), options: .alwaysMapped)
        let size = try data.withUnsafeBytes { try deflater.compressedSize(of: $0) }
        cachedGzipBytes = size
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
