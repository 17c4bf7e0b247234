// The benchmarks `lifetrace-bench` knows, in the order it runs them. Each produces one or more figures: a ratio
// of a candidate (Lifetrace) to its baseline or peer, measured in the same run.

import Foundation
import TraceModel

/// One selectable benchmark.
struct Benchmark: Sendable {
    /// The name given on the command line (`lifetrace-bench replay`).
    var name: String
    /// What the ratio divides, for `--list`.
    var summary: String
    /// The goal as issue 8 states it, for `--list`.
    var goal: String
    var run: @Sendable (Harness, Workload) throws -> [Figure]
}

enum Catalog {
    static let all: [Benchmark] = [
        Benchmark(
            name: "record", summary: "record one event on the calling thread ÷ monotonic clock read + 32-byte store into a preallocated buffer",
            goal: "≤ 2", run: recordHotPath),
        Benchmark(
            name: "record-load", summary: "p99 ÷ p50 record latency while the background compressor runs, 1 and 2 recording threads",
            goal: "≤ 3", run: recordUnderLoad),
        Benchmark(
            name: "logger", summary: "record one event ÷ a hand-written logger (JSON lines through JSONEncoder + FileHandle)",
            goal: "≤ 0.02", run: handWrittenLogger),
        Benchmark(
            name: "size", summary: "trace bytes/event ÷ gzip -6 of the same events as JSON lines",
            goal: "≤ 0.25", run: size),
        Benchmark(
            name: "replay", summary: "replay events/s ÷ raw zlib inflate events/s of the same frames",
            goal: "≥ 0.5", run: replay),
        Benchmark(
            name: "seek", summary: "state at a mid-trace instant ÷ full replay to that instant (goal stated for 10^7 events)",
            goal: "≤ 0.01", run: seek),
        Benchmark(
            name: "audit", summary: "audit with all rules ÷ replay alone",
            goal: "≤ 2", run: audit),
        Benchmark(
            name: "query", summary: "lifetrace events --controller X --from A --to B ÷ the same query in SQLite (indexed) and DuckDB; load time separate",
            goal: "≤ 1", run: query),
        Benchmark(
            name: "memory", summary: "peak RSS replaying and auditing the trace (streaming: bounded by live controllers)",
            goal: "stated", run: memory),
    ]

    static func named(_ name: String) -> Benchmark? {
        all.first { $0.name == name }
    }

    // MARK: query

    static func query(_ harness: Harness, _ workload: Workload) throws -> [Figure] {
        var figures: [Figure] = []
        let query = try workload.query()
        let maxRepetitions = harness.isSmoke ? 64 : 1 << 16
        if let sqlite = try workload.sqlite() {
            let rows = try sqlite.count(query)
            let times = try harness.compare([.selfTimed { UInt64(try sqlite.nanosecondsPerQuery(query, maxRepetitions: maxRepetitions)) }])
            var figure = Figure.skipped(
                "query", "lifetrace events ÷ sqlite3 (indexed)", events: workload.eventCount, goal: .atMost(1),
                because: "lifetrace events not available yet")
            figure.baseline = Quantity(value: Spread(times[0]).median / 1000, unit: "µs/query")
            figure.notes.append("\(rows) rows for \(query.controller); SQLite load \(Format.number(Double(sqlite.loadNanoseconds) / 1e9)) s for \(sqlite.rowCount) rows")
            figures.append(figure)
            figures.append(Figure(
                benchmark: "query", name: "sqlite3 load (JSONL → indexed table)", events: workload.eventCount,
                ratio: nil, goal: .stated("load time, shown separately"), verdict: .stated,
                baseline: Quantity(value: Double(sqlite.loadNanoseconds) / 1e9, unit: "s")))
        } else {
            figures.append(.skipped("query", "lifetrace events ÷ sqlite3 (indexed)", events: workload.eventCount, goal: .atMost(1), because: "sqlite3 not installed (tools/install-deps installs it)"))
        }
        let (duckdb, reason) = DuckDBPeer.make(scratchDirectory: workload.directory)
        if let duckdb {
            let summary = try workload.jsonl()
            let limit = harness.isSmoke ? 2 : 64
            var timings: [DuckDBPeer.Timing] = []
            _ = try harness.compare([.selfTimed {
                let timing = try duckdb.measure(jsonl: summary.path, query: query, maxRepetitions: limit)
                timings.append(timing)
                return UInt64(timing.table_query_ns)
            }])
            let tableQuery = Spread(timings.map(\.table_query_ns)).median
            let fileQuery = Spread(timings.map(\.file_query_ns)).median
            let load = Spread(timings.map(\.load_ns)).median
            var table = Figure.skipped("query", "lifetrace events ÷ DuckDB (loaded table)", events: workload.eventCount, goal: .atMost(1), because: "lifetrace events not available yet")
            table.baseline = Quantity(value: tableQuery / 1000, unit: "µs/query")
            table.notes.append("DuckDB load \(Format.number(load / 1e9)) s; \(timings.last?.rows ?? 0) rows")
            var file = Figure.skipped("query", "lifetrace events ÷ DuckDB (over the JSONL file)", events: workload.eventCount, goal: .atMost(1), because: "lifetrace events not available yet")
            file.baseline = Quantity(value: fileQuery / 1000, unit: "µs/query")
            figures.append(table)
            figures.append(file)
        } else {
            figures.append(.skipped("query", "lifetrace events ÷ DuckDB", events: workload.eventCount, goal: .atMost(1), because: "DuckDB peer skipped: \(reason ?? "unavailable")"))
        }
        return figures
    }
}
