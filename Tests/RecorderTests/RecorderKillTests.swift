import Foundation
import Synchronization
import Testing
import TraceLog
import TraceModel

@testable import Recorder

/// The crash test: a child process (`lifetrace record-stress`, a hidden helper command) records numbered events
/// into one trace and reports each completed flush; it is killed with SIGKILL at random moments, many times,
/// each new child appending a run to the file the previous one left. After every kill the file must read back
/// every event the child reported flushed, in order, with every earlier run intact.
@Suite("Recorder survives SIGKILL")
struct RecorderKillTests {
    /// The built `lifetrace` executable: next to the test bundle (`.build/<config>/`), which
    /// `swift build --build-tests` builds along with the tests.
    static func lifetraceExecutable() -> String? {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("lifetrace"))
        }
        let argument0 = URL(fileURLWithPath: CommandLine.arguments[0])
        candidates.append(argument0.deletingLastPathComponent().appendingPathComponent("lifetrace"))
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        candidates.append(root.appendingPathComponent(".build/debug/lifetrace"))
        return candidates.map(\.path).first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Collects a child's standard error as it arrives.
    final class Lines: Sendable {
        private let text = Mutex("")

        func append(_ data: Data) {
            let chunk = String(decoding: data, as: UTF8.self)
            text.withLock { $0 += chunk }
        }

        /// The largest N of the complete `flushed N` lines received so far.
        var lastFlushed: Int {
            let all = text.withLock { $0 }
            let complete = all.hasSuffix("\n") ? all : String(all[..<(all.lastIndex(of: "\n") ?? all.startIndex)])
            return complete.split(separator: "\n").compactMap { line in
                line.hasPrefix("flushed ") ? Int(line.dropFirst("flushed ".count)) : nil
            }.max() ?? 0
        }

        var all: String { text.withLock { $0 } }
    }

    /// Splits a trace's events into runs by `height` (the child's run number) and checks each run's widths are
    /// 0, 1, 2, … with nothing missing, duplicated or out of order. Returns the event count per run.
    static func runs(in path: String) throws -> [Int: Int] {
        let reader = try TraceReader(path: path)
        var counts: [Int: Int] = [:]
        var lastTimestamp: UInt64 = 0
        try reader.forEachEvent { ordinal, event in
            #expect(event.timestamp >= lastTimestamp, "timestamp went backwards at event \(ordinal)")
            lastTimestamp = event.timestamp
            switch event.payload {
            case .recorder(.runStarted): return
            case .mark(let mark) where mark.name == MarkName.geometryRead:
                let width = mark[field: "width"]?.doubleValue ?? -1
                let run = Int(mark[field: "height"]?.doubleValue ?? -1)
                let expected = counts[run, default: 0]
                guard width == Double(expected) else {
                    throw TraceError(.invalidArgument, "run \(run): event \(ordinal) has index \(width), expected \(expected)", file: path)
                }
                counts[run] = expected + 1
            default:
                throw TraceError(.invalidArgument, "unexpected event \(ordinal): \(event.summary)", file: path)
            }
        }
        return counts
    }

    @Test("killed at random moments 12 times, every flushed event reads back and the next run appends")
    func killRepeatedly() throws {
        let executable = try #require(Self.lifetraceExecutable(), "build the lifetrace product first (swift build --build-tests)")
        let directory = NSTemporaryDirectory() + "lifetrace-kill-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/stress.lifetrace"
        var seed = UInt64(UInt32.random(in: 1...UInt32.max))
        let initialSeed = seed
        func nextRandom(_ range: ClosedRange<Int>) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return range.lowerBound + Int((seed >> 33) % UInt64(range.count))
        }
        var reported: [Int: Int] = [:]
        for run in 0..<12 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["record-stress", path, "--run", String(run), "--batch", String(nextRandom(20...400))]
            let pipe = Pipe()
            let lines = Lines()
            process.standardError = pipe
            process.standardOutput = FileHandle.nullDevice
            pipe.fileHandleForReading.readabilityHandler = { handle in lines.append(handle.availableData) }
            try process.run()
            usleep(UInt32(nextRandom(50...400)) * 1_000)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            pipe.fileHandleForReading.readabilityHandler = nil
            lines.append(pipe.fileHandleForReading.readDataToEndOfFile())
            #expect(process.terminationReason == .uncaughtSignal, "run \(run) ended by itself: \(lines.all)")
            reported[run] = lines.lastFlushed

            guard FileManager.default.fileExists(atPath: path) else { continue }
            let counts: [Int: Int]
            do {
                counts = try Self.runs(in: path)
            } catch {
                Issue.record("after killing run \(run) (seed \(initialSeed)): \(error)")
                return
            }
            for (earlier, flushed) in reported {
                #expect(
                    counts[earlier, default: 0] >= flushed,
                    "run \(earlier) reported \(flushed) flushed but the file has \(counts[earlier, default: 0]) (seed \(initialSeed))")
            }
        }
        #expect(reported.values.contains { $0 > 0 }, "no child got as far as a flush: \(reported)")

        // A last child that is not killed: the file ends cleanly and holds every run.
        let last = Process()
        last.executableURL = URL(fileURLWithPath: executable)
        last.arguments = ["record-stress", path, "--run", "12", "--limit", "1000"]
        last.standardError = FileHandle.nullDevice
        try last.run()
        last.waitUntilExit()
        #expect(last.terminationStatus == 0)
        let reader = try TraceReader(path: path)
        #expect(reader.isCleanlyClosed)
        #expect(reader.problems.isEmpty)
        let counts = try Self.runs(in: path)
        #expect(counts[12] == 1000)
    }
}
