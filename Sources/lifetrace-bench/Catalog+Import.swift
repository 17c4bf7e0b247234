// The import benchmark: `lifetrace import` of a console log against reading the same lines with a plain line
// reader, and its peak memory against the log's size (streaming: bounded by what is live, not by the log).

import Foundation
import LifetraceCLI

#if canImport(Glibc)
import Glibc
#endif

extension Catalog {
    /// The `--mark` rule the benchmark imports with (the generated log has `saveDraft` lines).
    static let importMarkRule = "saveDraft=save,critical=true,key=draft"

    /// A log of `workload.eventCount` lines written by `ConsoleLogGenerator` (once per run and size).
    static func consoleLog(_ workload: Workload) throws -> (path: String, bytes: Int) {
        let path = workload.directory + "/console-\(workload.eventCount).log"
        if !FileManager.default.fileExists(atPath: path) {
            try ConsoleLogGenerator(lineCount: workload.eventCount, seed: workload.seed).write(to: path)
        }
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
        return (path, size)
    }

    /// Runs `lifetrace import LOG -o TRACE --mark …` in this process; returns the events imported.
    static func importLog(_ log: String, to trace: String) throws -> UInt64 {
        let (output, captured) = CommandOutput.capturing()
        let code = Lifetrace.run(arguments: ["import", log, "-o", trace, "--mark", importMarkRule], output: output)
        guard code == .success else { throw BenchError("lifetrace import failed (\(code)): \(captured.standardError)") }
        guard let count = captured.standardOutput.split(separator: " ").dropFirst().first.flatMap({ UInt64($0) }) else {
            throw BenchError("lifetrace import printed no event count: \(captured.standardOutput.prefix(200))")
        }
        return count
    }

    /// The baseline: reads the log in 1 MiB chunks, splits it at `\n` (found by the C library's `memchr`) and makes
    /// a `String` of each line (validating UTF-8), nothing else. Returns a value depending on every line.
    ///
    /// `memchr` rather than a loop over the bytes here: such a loop's speed changed by a third with where the linker
    /// happened to place it (the same instructions 16 bytes apart), and the ratio with it; `memchr` is the same
    /// code in every build.
    static func readLines(_ path: String) throws -> UInt64 {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw BenchError("cannot open \(path)") }
        defer { close(descriptor) }
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var carry: [UInt8] = []
        var total: UInt64 = 0
        func line(_ bytes: UnsafeBufferPointer<UInt8>) {
            let text = String(decoding: bytes, as: UTF8.self)
            total &+= UInt64(text.utf8.count) &+ 1
        }
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count >= 0 else { throw BenchError("cannot read \(path)") }
            if count == 0 { break }
            chunk.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                var start = 0
                while start < count, let found = memchr(base + start, 0x0A, count - start) {
                    let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if carry.isEmpty {
                        line(UnsafeBufferPointer(rebasing: buffer[start..<end]))
                    } else {
                        carry += buffer[start..<end]
                        carry.withUnsafeBufferPointer { line($0) }
                        carry.removeAll(keepingCapacity: true)
                    }
                    start = end + 1
                }
                carry += buffer[start..<count]
            }
        }
        if !carry.isEmpty { carry.withUnsafeBufferPointer { line($0) } }
        return total
    }

    static func importBenchmark(_ harness: Harness, _ workload: Workload) throws -> [Figure] {
        let log = try consoleLog(workload)
        let trace = workload.directory + "/console-\(workload.eventCount).lifetrace"
        defer { try? FileManager.default.removeItem(atPath: trace) }
        harness.progress("importing a \(Format.bytes(log.bytes)) console log of \(workload.eventCount) lines")
        var events: UInt64 = 0
        let comparison = try harness.compare(
            candidate: {
                events = try importLog(log.path, to: trace)
                return events
            },
            baseline: { try readLines(log.path) })
        var time = Figure(
            benchmark: "import", name: "lifetrace import ÷ reading the same lines (1 MiB reads, memchr for \\n, String per line)",
            events: workload.eventCount, ratio: Spread(comparison.timeRatios), goal: .stated("stated"), verdict: .stated,
            candidate: Quantity(value: Double(workload.eventCount) / comparison.candidateMedian * 1e6, unit: "k lines/s"),
            baseline: Quantity(value: Double(workload.eventCount) / comparison.baselineMedian * 1e6, unit: "k lines/s"))
        time.judge()
        let traceBytes = (try FileManager.default.attributesOfItem(atPath: trace)[.size] as? NSNumber)?.intValue ?? 0
        time.notes.append(
            "\(workload.eventCount) lines (\(Format.bytes(log.bytes)), ConsoleLogGenerator seed \(workload.seed)) → \(events) events, "
                + "trace \(Format.bytes(traceBytes)); --events counts log lines here; in-process Lifetrace.run with --mark \(importMarkRule)")

        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        let result = try External.run(executable, ["--probe-memory", "import", log.path])
        let idle = try External.run(executable, ["--probe-memory", "idle", log.path])
        guard result.status == 0, let line = result.standardOutput.split(separator: "\n").last,
              idle.status == 0, let idleLine = idle.standardOutput.split(separator: "\n").last
        else { throw BenchError("import memory probe failed: \(result.standardError) \(idle.standardError)") }
        let measured = try JSONDecoder().decode(MemoryProbe.self, from: Data(line.utf8))
        let idleProbe = try JSONDecoder().decode(MemoryProbe.self, from: Data(idleLine.utf8))
        var memory = Figure(
            benchmark: "import", name: "peak RSS importing ÷ the log's size", events: workload.eventCount,
            ratio: Spread(exactly: Double(measured.peakBytes) / Double(max(1, log.bytes))),
            goal: .stated("bounded by live controllers"), verdict: .stated,
            candidate: Quantity(value: Double(measured.peakBytes) / 1_048_576, unit: "MiB peak"),
            baseline: Quantity(value: Double(log.bytes) / 1_048_576, unit: "MiB log"))
        memory.notes.append(
            "+\(Format.bytes(max(0, measured.peakBytes - idleProbe.peakBytes))) over an idle process (\(Format.bytes(idleProbe.peakBytes))); "
                + "\(measured.eventCount) events; peak = VmHWM of a child process that only imports")
        return [time, memory]
    }

    /// The memory probe's `import` job: imports `log` next to itself and removes the trace.
    static func probeImport(_ log: String) throws -> MemoryProbe {
        let trace = log + ".probe.lifetrace"
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let events = try importLog(log, to: trace)
        return MemoryProbe(peakBytes: PeakMemory.peakBytes(), eventCount: events, controllersSeen: 0, controllersAlive: 0, findings: 0)
    }
}
