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
            name: "fold", summary: "Replay's fold alone (events in memory) ÷ decoding the same events from the trace",
            goal: "stated", run: fold),
        Benchmark(
            name: "checkpoints", summary: "checkpoint interval sweep: file overhead and state(at: middle) ÷ replay to middle",
            goal: "≤ 0.01", run: checkpointPolicy),
        Benchmark(
            name: "seek", summary: "state at a mid-trace instant ÷ full replay to that instant (goal stated for 10^7 events)",
            goal: "≤ 0.01", run: seek),
        Benchmark(
            name: "audit", summary: "audit with all rules ÷ replay alone",
            goal: "≤ 3", run: audit),
        Benchmark(
            name: "custom-rules", summary: "audit with ten rules from the rule language ÷ audit without; a compiled rule ÷ the same rule in Swift",
            goal: "≤ 1 + replay ÷ audit; ≤ 2", run: customRules),
        Benchmark(
            name: "query", summary: "lifetrace events --controller X --from A --to B ÷ the same query in SQLite (indexed) and DuckDB; load time separate",
            goal: "≤ 1", run: query),
        Benchmark(
            name: "import", summary: "lifetrace import of a console log ÷ reading its lines (1 MiB reads, memchr for line ends, String per line); peak RSS ÷ log size",
            goal: "stated", run: importBenchmark),
        Benchmark(
            name: "memory", summary: "peak RSS replaying and auditing the trace (streaming: bounded by live controllers)",
            goal: "stated", run: memory),
    ]

    static func named(_ name: String) -> Benchmark? {
        all.first { $0.name == name }
    }

}
