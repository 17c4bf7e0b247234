// The storage and replay benchmarks: size against gzip -6 of JSON lines, replay against raw inflate of the same
// frames, peak memory of a streaming replay.

import Audit
import Foundation
import Replay
import TraceLog
import TraceModel

#if canImport(Glibc)
import Glibc
#endif

/// The replay baseline: reads every events frame of a trace (one `pread` each, as the reader does) and inflates
/// its payload with raw zlib inflate, nothing else: no CRC, no decoding, no fold.
final class FrameInflateBaseline {
    private let path: String
    private let frames: [FrameInfo]
    private let inflater: RawInflater
    private var buffer: [UInt8]
    /// Frames stored uncompressed (not inflated, only read).
    private(set) var storedFrames = 0

    init(reader: TraceReader) throws {
        path = reader.path
        frames = reader.frames
        inflater = try RawInflater(outputCapacity: max(1 << 16, Int(frames.map(\.rawLength).max() ?? 0)))
        buffer = [UInt8](repeating: 0, count: Int(frames.map(\.totalLength).max() ?? 0))
    }

    /// Reads and inflates every frame; returns the bytes produced (plus the last byte, so nothing is skipped).
    func run() throws -> UInt64 {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw BenchError("cannot open \(path)") }
        defer { close(descriptor) }
        var total: UInt64 = 0
        storedFrames = 0
        for frame in frames {
            let length = Int(frame.totalLength)
            let headerLength = length - Int(frame.compressedLength)
            let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, length, off_t(frame.offset)) }
            guard read == length else { throw BenchError("short read at offset \(frame.offset) of \(path)") }
            // Byte 7 of the frame header is the payload's compression: 1 deflate, 0 stored (docs/FORMAT.md).
            guard buffer[7] == 1 else {
                storedFrames += 1
                total &+= UInt64(frame.compressedLength)
                continue
            }
            let (count, last) = try buffer.withUnsafeBytes {
                try inflater.inflate(UnsafeRawBufferPointer(rebasing: $0[headerLength..<length]))
            }
            total &+= UInt64(count) &+ UInt64(last)
        }
        return total
    }
}

extension Catalog {
    // MARK: size

    static func size(_ harness: Harness, _ workload: Workload) throws -> [Figure] {
        try [Timing.simulated, .jittered].map { timing in
            let gzip = try workload.gzipBytes(timing: timing)
            let trace = try workload.trace(timing: timing)
            let reader = try TraceReader(path: trace.path)
            let events = Double(workload.eventCount)
            var figure = Figure(
                benchmark: "size", name: "trace bytes ÷ gzip -6 JSONL bytes, \(timing.rawValue) times", events: workload.eventCount,
                ratio: Spread(exactly: Double(trace.bytes) / Double(gzip)), goal: .atMost(0.25), verdict: .met,
                candidate: Quantity(value: Double(trace.bytes) / events, unit: "B/event"),
                baseline: Quantity(value: Double(gzip) / events, unit: "B/event"))
            figure.judge()
            let payload = reader.payloadBytes
            figure.notes.append(
                "trace \(Format.bytes(trace.bytes)) in \(reader.frames.count) frames (payloads \(Format.bytes(Int(payload.compressed))) compressed, \(Format.bytes(Int(payload.raw))) raw); "
                    + "JSONL \(Format.bytes(try workload.jsonl(timing: timing).bytes)), gzip -6 \(Format.bytes(gzip))"
                    + (timing == .jittered ? "; times = simulator's + up to 50 µs of deterministic nanosecond jitter" : "; simulator times (100 µs ticks)"))
            return figure
        }
    }

    // MARK: replay

    /// Replays the whole trace from the file as `lifetrace state` does (`Replayer.replay()`: each frame decoded
    /// by a `FrameCursor` into record batches and folded by the replay's fast path).
    static func replayAll(_ path: String) throws -> ReplayState {
        try Replayer(path: path).replay()
    }

    /// Reads and decodes every event without folding, as the replay decodes them (`FrameCursor.decode(into:limit:)`
    /// record batches; an `Event` only for the kinds that have no record form).
    static func decodeAll(_ path: String) throws -> UInt64 {
        let reader = try TraceReader(path: path)
        var folded: UInt64 = 0
        var batch = RecordBatch()
        for frame in reader.frames {
            var cursor = try reader.cursor(for: frame)
            repeat {
                cursor.decode(into: &batch, limit: 1024)
                if let error = batch.error { throw error }
                batch.withEntries { entries in
                    for entry in entries { folded &+= entry.timestamp &+ UInt64(entry.serial) }
                }
            } while !batch.isFinished
        }
        return folded
    }

    static func replay(_ harness: Harness, _ workload: Workload) throws -> [Figure] {
        let trace = try workload.checkpointedTrace()
        let baseline = try FrameInflateBaseline(reader: try TraceReader(path: trace.path))
        let times = try harness.compare([
            { UInt64(try replayAll(trace.path).eventCount) },
            { try decodeAll(trace.path) },
            { try baseline.run() },
        ] as [Work])
        let events = Double(workload.eventCount)
        func rate(_ nanoseconds: Double) -> Quantity {
            Quantity(value: events / nanoseconds * 1e3, unit: "M events/s")
        }
        var replay = Figure(
            benchmark: "replay", name: "replay events/s ÷ raw inflate events/s", events: workload.eventCount,
            ratio: Spread(zip(times[0], times[2]).map { Double($1) / Double(max($0, 1)) }), goal: .atLeast(0.5),
            verdict: .met, candidate: rate(Spread(times[0]).median), baseline: rate(Spread(times[2]).median))
        replay.judge()
        replay.notes.append("Replayer.replay() from the file (FrameCursor record batches folded by the fast path); baseline: pread + raw inflate of every events frame\(baseline.storedFrames > 0 ? " (\(baseline.storedFrames) stored frames only read)" : "")")
        var decode = Figure(
            benchmark: "replay", name: "decode only (no fold) events/s ÷ raw inflate events/s", events: workload.eventCount,
            ratio: Spread(zip(times[1], times[2]).map { Double($1) / Double(max($0, 1)) }), goal: .stated("part of replay"),
            verdict: .stated, candidate: rate(Spread(times[1]).median), baseline: rate(Spread(times[2]).median))
        decode.judge()
        return [replay, decode]
    }

    // MARK: seek

    /// Replays from the first event up to `instant` (inclusive), frame by frame, without checkpoints.
    static func replayFromStart(_ path: String, to instant: UInt64) throws -> ReplayState {
        let reader = try TraceReader(path: path)
        var state = ReplayState()
        for frame in reader.frames {
            if frame.firstTimestamp > instant { break }
            var ordinal = frame.firstOrdinal
            for event in try reader.decodeFrame(frame) {
                if event.timestamp > instant { return state }
                state.apply(event, ordinal: ordinal)
                ordinal += 1
            }
        }
        return state
    }

    static func seek(_ harness: Harness, _ workload: Workload) throws -> [Figure] {
        let trace = try workload.checkpointedTrace()
        let reader = try TraceReader(path: trace.path)
        guard let span = reader.timeSpan else { throw BenchError("the trace has no events") }
        // The instant of the middle event: the time of the first event of the frame holding ordinal N/2.
        let middle = UInt64(workload.eventCount / 2)
        let frame = reader.frames.first { $0.firstOrdinal + UInt64($0.eventCount) > middle } ?? reader.frames[0]
        let instant = try reader.decodeFrame(frame)[Int(middle - frame.firstOrdinal)].timestamp
        var seekState = ReplayState()
        var fullState = ReplayState()
        let times = try harness.compare([
            {
                seekState = try Replayer(path: trace.path).state(at: instant)
                return seekState.eventCount
            },
            {
                fullState = try replayFromStart(trace.path, to: instant)
                return fullState.eventCount
            },
        ] as [Work])
        var figure = Figure(
            benchmark: "seek", name: "state(at: middle) ÷ replay from the start to it", events: workload.eventCount,
            ratio: Spread(zip(times[0], times[1]).map { Double($0) / Double(max($1, 1)) }), goal: .atMost(0.01),
            verdict: .met, candidate: Quantity(value: Spread(times[0]).median / 1e6, unit: "ms"),
            baseline: Quantity(value: Spread(times[1]).median / 1e6, unit: "ms"))
        figure.judge()
        figure.notes.append(
            "Replayer.state(at:) at \(TimeText.seconds(instant - span.lowerBound)) (event \(middle)), \(trace.checkpoints) checkpoints in a \(Format.bytes(trace.bytes)) file; "
                + (seekState == fullState ? "both states equal" : "STATES DIFFER: \(seekState.eventCount) vs \(fullState.eventCount) events applied"))
        if seekState != fullState { figure.verdict = .failed }
        return [figure]
    }

    // MARK: audit

    /// Every built-in rule, the opt-in ones included.
    static func allRulesAuditor() throws -> Auditor {
        let optIn = Set(BuiltinRules.all.filter(\.descriptor.isOptIn).map(\.descriptor.id))
        return try Auditor(configuration: AuditConfiguration(optInRules: optIn))
    }

    /// Audits the trace from the file as `lifetrace audit` does (`Auditor.audit(_:groups:)`: the rules in groups run
    /// at the same time, each group reading and decoding the frames in `FrameCursor` record batches, folding each
    /// event into its own replay state and running its rules on the facts derived from it).
    static func auditAll(_ path: String, _ auditor: Auditor, groups: Int? = nil) throws -> (findings: [Finding], state: ReplayState) {
        let audit = auditor.audit(try TraceReader(path: path), groups: groups)
        if let stop = audit.stop { throw stop.error }
        return (audit.findings, audit.state)
    }

    static func audit(_ harness: Harness, _ workload: Workload) throws -> [Figure] {
        let trace = try workload.checkpointedTrace()
        let auditor = try allRulesAuditor()
        var findings = 0
        let times = try harness.compare([
            {
                let result = try auditAll(trace.path, auditor)
                findings = result.findings.count
                return UInt64(result.findings.count) &+ result.state.eventCount
            },
            { UInt64(try replayAll(trace.path).eventCount) },
        ] as [Work])
        var figure = Figure(
            benchmark: "audit", name: "audit (all rules) ÷ replay", events: workload.eventCount,
            ratio: Spread(zip(times[0], times[1]).map { Double($0) / Double(max($1, 1)) }), goal: .atMost(3),
            verdict: .met, candidate: Quantity(value: Double(workload.eventCount) / Spread(times[0]).median * 1e3, unit: "M events/s"),
            baseline: Quantity(value: Double(workload.eventCount) / Spread(times[1]).median * 1e3, unit: "M events/s"))
        figure.judge()
        figure.notes.append("\(auditor.active.count) rules (opt-in ones enabled) in \(auditor.defaultGroupCount) groups at the same time, \(findings) findings; both sides read and decode the file")
        return [figure]
    }

    // MARK: memory

    /// What a memory probe reports.
    struct MemoryProbe: Codable {
        var peakBytes: Int
        var eventCount: UInt64
        var controllersSeen: Int
        var controllersAlive: Int
        var findings: Int
    }

    /// Runs one job in this process and returns what the probe reports; called in a child process started by
    /// `memory` (`lifetrace-bench --probe-memory JOB TRACE`), so the peak RSS is that job's alone.
    static func probeMemory(job: String, trace: String) throws -> MemoryProbe {
        switch job {
        case "idle":
            return MemoryProbe(peakBytes: PeakMemory.peakBytes(), eventCount: 0, controllersSeen: 0, controllersAlive: 0, findings: 0)
        case "replay":
            let state = try replayAll(trace)
            return MemoryProbe(
                peakBytes: PeakMemory.peakBytes(), eventCount: state.eventCount, controllersSeen: state.controllers.count,
                controllersAlive: state.controllers.values.filter(\.isAlive).count, findings: 0)
        case "audit":
            let (findings, state) = try auditAll(trace, try allRulesAuditor())
            return MemoryProbe(
                peakBytes: PeakMemory.peakBytes(), eventCount: state.eventCount, controllersSeen: state.controllers.count,
                controllersAlive: state.controllers.values.filter(\.isAlive).count, findings: findings.count)
        case "import":
            return try probeImport(trace)
        case "decode":
            // For callgrind: the replay benchmark's "decode only" side alone (docs/PERFORMANCE.md, Profiling).
            let folded = try decodeAll(trace)
            return MemoryProbe(peakBytes: PeakMemory.peakBytes(), eventCount: folded & 1, controllersSeen: 0, controllersAlive: 0, findings: 0)
        case "inflate":
            // For callgrind: the replay benchmark's baseline alone (pread + raw inflate of every events frame).
            let produced = try FrameInflateBaseline(reader: try TraceReader(path: trace)).run()
            return MemoryProbe(peakBytes: PeakMemory.peakBytes(), eventCount: produced & 1, controllersSeen: 0, controllersAlive: 0, findings: 0)
        case _ where job.hasPrefix("audit-only:") || job == "audit-none":
            // One rule alone (`audit-only:ID`) or none (`audit-none`: the session's replay and dispatch with no
            // monitor): callgrind of each minus `audit-none` is that rule's own cost (docs/PERFORMANCE.md).
            // The same registry and configuration work in every probe (only the enabled set differs), so the
            // set-up cost cancels out in the subtraction.
            let ids = Set(job == "audit-none" ? [] : job.dropFirst("audit-only:".count).split(separator: ",").map(String.init))
            let all = Set(BuiltinRules.all.map(\.id))
            if let unknown = ids.subtracting(all).first { throw BenchError("unknown rule '\(unknown)'") }
            let auditor = try Auditor(configuration: AuditConfiguration(disabledRules: all.subtracting(ids), optInRules: ids))
            let (findings, state) = try auditAll(trace, auditor)
            return MemoryProbe(
                peakBytes: PeakMemory.peakBytes(), eventCount: state.eventCount, controllersSeen: state.controllers.count,
                controllersAlive: state.controllers.values.filter(\.isAlive).count, findings: findings.count)
        default:
            throw BenchError("unknown memory probe job '\(job)' (idle, replay, audit, audit-none, audit-only:ID[,ID…], import, decode, inflate)")
        }
    }

    static func memory(_ harness: Harness, _ workload: Workload) throws -> [Figure] {
        let trace = try workload.checkpointedTrace()
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        func probe(_ job: String) throws -> MemoryProbe {
            let result = try External.run(executable, ["--probe-memory", job, trace.path])
            guard result.status == 0, let line = result.standardOutput.split(separator: "\n").last else {
                throw BenchError("memory probe '\(job)' failed: \(result.standardError)")
            }
            return try JSONDecoder().decode(MemoryProbe.self, from: Data(line.utf8))
        }
        let idle = try probe("idle")
        return try ["replay", "audit"].map { job in
            let measured = try probe(job)
            keep(measured.eventCount, in: harness)
            var figure = Figure(
                benchmark: "memory", name: "peak RSS \(job == "replay" ? "replaying" : "auditing (all rules)")",
                events: workload.eventCount, ratio: nil, goal: .stated("bounded by live controllers"), verdict: .stated,
                candidate: Quantity(value: Double(measured.peakBytes) / 1_048_576, unit: "MiB peak"),
                baseline: Quantity(value: Double(idle.peakBytes) / 1_048_576, unit: "MiB idle"))
            figure.notes.append(
                "+\(Format.bytes(max(0, measured.peakBytes - idle.peakBytes))) over an idle process; \(measured.eventCount) events; "
                    + "\(measured.controllersSeen) controller records in the final state, \(measured.controllersAlive) alive at the end"
                    + (job == "audit" ? "; \(measured.findings) findings" : "")
                    + "; peak = VmHWM of a child process that only does this")
            return figure
        }
    }
}
