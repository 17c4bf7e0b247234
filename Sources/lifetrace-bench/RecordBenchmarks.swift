// The recorder's benchmarks (issue 3): the calling thread's cost per event against the clock-read + 32-byte-store
// floor, and the latency distribution while the background thread compresses.

import Foundation
import Recorder
import TraceLog
import TraceModel

#if canImport(Glibc)
import Glibc
#endif

enum RecordBenchmarks {
    /// A recorder writing a real trace file (TraceWriter: encode + deflate + write) in `directory`.
    static func makeRecorder(directory: String, name: String, capacity: Int) throws -> Recorder {
        var options = RecorderOptions()
        options.capacity = capacity
        options.processDescription = "lifetrace-bench"
        let path = directory + "/\(name)-\(getpid()).lifetrace"
        try? FileManager.default.removeItem(atPath: path)
        return try Recorder(path: path, options: options)
    }

    /// Records `count` callback events (alternating begin/end) on the calling thread and returns the nanoseconds
    /// spent recording. Events go in chunks of half the ring; after each chunk the background thread catches up
    /// (`flush`, untimed), so nothing is dropped (a drop is cheaper than a record and would flatter the figure)
    /// and the ring stays the size an app uses (2.5 MiB, like the baseline's 2 MiB buffer). The background
    /// writer runs concurrently with the timed part, as in an app.
    @inline(never)
    static func recordLoop(_ recorder: Recorder, _ controller: ControllerRef, count: Int, chunk: Int) -> UInt64 {
        var elapsed: UInt64 = 0
        var done = 0
        while done < count {
            let size = min(chunk, count - done)
            let start = monotonicNanoseconds()
            for index in done..<(done + size) {
                recorder.record(.viewDidLayoutSubviews, index & 1 == 0 ? .begin : .end, controller)
            }
            elapsed += monotonicNanoseconds() - start
            done += size
            try? recorder.flush()
        }
        return elapsed
    }

    /// `record`: per-round ratio of the recorder's loop to `ClockStoreBaseline` for the same event count.
    static func hotPath(_ harness: Harness, count: Int) throws -> Figure {
        let capacity = RecorderOptions().capacity
        let recorder = try makeRecorder(directory: harness.scratchDirectory, name: "record", capacity: capacity)
        defer { try? recorder.close() }
        let controller = recorder.registry.register(typeName: "BenchViewController")
        let baseline = ClockStoreBaseline()
        let times = try harness.compare([
            .selfTimed { recordLoop(recorder, controller, count: count, chunk: capacity / 2) },
            .timed { baseline.record(count: count) },
        ])
        let ratios = zip(times[0], times[1]).map { Double($0) / Double(max($1, 1)) }
        let spread = Spread(ratios)
        var figure = Figure(
            benchmark: "record", name: "record ÷ clock read + 32-byte store", events: count, ratio: spread,
            goal: .atMost(2), verdict: spread.median <= 2 ? .met : .missed,
            candidate: Quantity(value: Spread(times[0].map { Double($0) / Double(count) }).median, unit: "ns/event"),
            baseline: Quantity(value: Spread(times[1].map { Double($0) / Double(count) }).median, unit: "ns/event"))
        figure.notes.append(
            "recorder clock \(MonotonicClock.clockName), baseline CLOCK_MONOTONIC; dropped \(recorder.droppedCount)")
        return figure
    }

    /// The latencies of `samples` record calls on each of `threads` threads, each call timed on its own
    /// (clock read, record, clock read: the figure includes one clock read), in bursts of 64 separated by a
    /// 50 µs sleep so the background thread is compressing and writing frames throughout without the ring
    /// overflowing.
    static func latencies(
        threads: Int, samples: Int, directory: String
    ) throws -> (latencies: [UInt64], dropped: UInt64, frames: Int) {
        var options = RecorderOptions()
        options.capacity = 1 << 16
        options.flushEventCount = 1024  // a frame (encode + deflate + write) every 1024 events
        options.processDescription = "lifetrace-bench"
        let path = directory + "/record-load-\(threads)-\(getpid()).lifetrace"
        try? FileManager.default.removeItem(atPath: path)
        let recorder = try Recorder(path: path, options: options)
        let refs = (0..<threads).map { recorder.registry.register(typeName: "LoadViewController\($0)") }
        let results = LatencyBuffers(threads: threads, samples: samples)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let controller = refs[thread]
            let buffer = results.buffers[thread]
            var index = 0
            while index < samples {
                for _ in 0..<64 where index < samples {
                    let start = monotonicNanoseconds()
                    recorder.record(.viewDidLayoutSubviews, index & 1 == 0 ? .begin : .end, controller)
                    buffer[index] = monotonicNanoseconds() &- start
                    index += 1
                }
                usleep(50)
            }
        }
        try recorder.close()
        let frames = (try? TraceReader(path: path).frames.count) ?? 0
        try? FileManager.default.removeItem(atPath: path)
        return (results.all(), recorder.droppedCount, frames)
    }

    /// `record-load`: p99 ÷ p50 of the per-call latency with the compressor running, for 1 and 2 threads.
    static func underLoad(_ harness: Harness, samples: Int) throws -> [Figure] {
        try [1, 2].map { threads in
            var ratios: [Double] = []
            var p50s: [Double] = []
            var p99s: [Double] = []
            var notes: [String] = []
            _ = try harness.compare([.selfTimed {
                let run = try latencies(threads: threads, samples: samples, directory: harness.scratchDirectory)
                let sorted = run.latencies.sorted()
                let p50 = Double(sorted[sorted.count / 2])
                let p99 = Double(sorted[sorted.count * 99 / 100])
                ratios.append(p99 / max(p50, 1))
                p50s.append(p50)
                p99s.append(p99)
                notes = ["\(run.frames) frames written during the run; dropped \(run.dropped); p99.9 \(sorted[sorted.count * 999 / 1000]) ns; max \(sorted.last ?? 0) ns; latency includes one clock read"]
                return UInt64(p99)
            }])
            // The warm-up round is discarded by the harness's compare, but its values were appended too.
            let kept = Array(ratios.dropFirst())
            let spread = Spread(kept.isEmpty ? ratios : kept)
            var figure = Figure(
                benchmark: "record-load", name: "p99 ÷ p50 record latency, \(threads) thread\(threads == 1 ? "" : "s")",
                events: samples * threads, ratio: spread, goal: .atMost(3), verdict: spread.median <= 3 ? .met : .missed,
                candidate: Quantity(value: Spread(Array(p99s.dropFirst())).median, unit: "ns p99"),
                baseline: Quantity(value: Spread(Array(p50s.dropFirst())).median, unit: "ns p50"))
            figure.notes = notes
            return figure
        }
    }
}

/// Per-thread preallocated latency buffers (each written by one thread only).
final class LatencyBuffers: @unchecked Sendable {
    let buffers: [UnsafeMutablePointer<UInt64>]
    let samples: Int

    init(threads: Int, samples: Int) {
        self.samples = samples
        buffers = (0..<threads).map { _ in
            let buffer = UnsafeMutablePointer<UInt64>.allocate(capacity: samples)
            buffer.initialize(repeating: 0, count: samples)
            return buffer
        }
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    func all() -> [UInt64] {
        buffers.flatMap { UnsafeBufferPointer(start: $0, count: samples) }
    }
}
