import Foundation
import LifetraceTestSupport
import Testing
import TraceLog
import TraceModel

@testable import LifetraceCLI

@Suite("lifetrace info and verify")
struct InfoVerifyCommandTests {
    final class Scratch {
        let directory: String

        init() {
            directory = FileManager.default.temporaryDirectory.path + "/lifetrace-cli-\(UUID().uuidString)"
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }

        deinit {
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// Writes `count` random events to a trace named `name`; `close: false` leaves it without index.
        func trace(_ name: String, count: Int, close: Bool = true) throws -> String {
            let path = "\(directory)/\(name)"
            var options = TraceWriter.Options()
            options.maxEventsPerFrame = 100
            let header = TraceHeader(
                clockDomain: .linuxBoottime,
                wallClockAnchor: WallClockAnchor(unixNanoseconds: 1_764_460_800_000_000_000, monotonicNanoseconds: 0),
                producer: "cli-tests"
            )
            let writer = try TraceWriter(creating: path, header: header, options: options)
            try writer.append(contentsOf: RandomEvents.make(count: count, seed: 3))
            if close { try writer.close() } else { try writer.flush() }
            return path
        }

        func append(_ bytes: [UInt8], to path: String) throws {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(bytes))
            try handle.close()
        }
    }

    func run(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        let (output, captured) = CommandOutput.capturing()
        let code = Lifetrace.run(arguments: arguments, output: output)
        return (code, captured.standardOutput, captured.standardError)
    }

    @Test("info on a trace with no events says so and prints no empty 'by kind' line")
    func infoNoEvents() throws {
        let scratch = Scratch()
        let path = try scratch.trace("empty.lifetrace", count: 0)
        let result = run(["info", path])
        #expect(result.code == .success)
        #expect(result.out.contains("events:       0\n"))
        #expect(result.out.contains("time span:    none (no events)"))
        #expect(!result.out.contains("by kind"))
        #expect(!result.out.split(separator: "\n").contains { $0.hasSuffix(" ") })
    }

    @Test("info prints version, clock, counts, sizes and bytes/event")
    func infoText() throws {
        let scratch = Scratch()
        let path = try scratch.trace("a.lifetrace", count: 1000)
        let result = run(["info", path])
        #expect(result.code == .success)
        #expect(result.out.contains("format:       2.0, written by \"cli-tests\""))
        #expect(result.out.contains("clock:        linuxBoottime (counts sleep)"))
        #expect(result.out.contains("events:       1000"))
        #expect(result.out.contains("frames:       10 events, 0 checkpoints"))
        #expect(result.out.contains("bytes/event:"))
        #expect(result.out.contains("closed:       cleanly"))
        #expect(result.out.contains("2025-11-30T00:00:00.000Z"))
    }

    @Test("info --format json is one JSON object with the same figures")
    func infoJSON() throws {
        let scratch = Scratch()
        let path = try scratch.trace("b.lifetrace", count: 250, close: false)
        let result = run(["info", path, "--format", "json"])
        #expect(result.code == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        #expect(object["events"] as? Int == 250)
        #expect(object["event_frames"] as? Int == 3)
        #expect(object["cleanly_closed"] as? Bool == false)
        #expect(object["clock_domain"] as? String == "linuxBoottime")
        #expect((object["problems"] as? [Any])?.isEmpty == true)
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(object["file_bytes"] as? Int == size)
    }

    @Test("info on a file that is not a trace: one line naming the file and offset, exit 2")
    func infoNotATrace() throws {
        let scratch = Scratch()
        let path = "\(scratch.directory)/notes.txt"
        try Data("hello\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = run(["info", path])
        #expect(result.code == .usageOrInput)
        #expect(result.out.isEmpty)
        #expect(result.err == "lifetrace info: error: \(path): offset 0: not a Lifetrace trace (the file does not start with the trace magic) nor a JSON Lines export (its first line is not a JSON object); to read a console log, import it first: lifetrace import LOG -o TRACE\n")
    }

    @Test("verify passes a sound file, and flags and repairs a torn tail")
    func verifyAndRepair() throws {
        let scratch = Scratch()
        let path = try scratch.trace("c.lifetrace", count: 300, close: false)
        let sound = run(["verify", path])
        #expect(sound.code == .success)
        #expect(sound.out == "ok: \(path): 3 frames, 300 events, 0 checkpoints checked; not closed cleanly (no valid footer)\n")

        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        try scratch.append([0x4C, 0x54, 0x46, 0x52, 1, 2, 3], to: path)
        let torn = run(["verify", path])
        #expect(torn.code == .problemFound)
        #expect(torn.out.contains("\(path): offset \(size): file ends inside a frame header"))
        #expect(torn.out.contains("FAILED: \(path): 1 problem;"))

        let repaired = run(["verify", "--repair", path])
        #expect(repaired.code == .success)
        #expect(repaired.out.hasPrefix("repair: dropping 7 bytes at offset \(size): "))
        #expect(repaired.out.contains("ok: \(path): 3 frames, 300 events"))
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == size)
    }

    @Test("verify reports damage in the middle with its offset and --repair leaves it alone")
    func verifyCorruption() throws {
        let scratch = Scratch()
        let path = try scratch.trace("d.lifetrace", count: 300)
        let frames = try TraceReader(path: path).frames
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[Int(frames[1].offset) + 100] ^= 0x04
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = run(["verify", "--repair", path])
        #expect(result.code == .problemFound)
        #expect(result.out.contains("\(path): offset \(frames[1].offset): events frame 1: payload CRC mismatch"))
        #expect(!result.out.contains("repair:"))
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: path))) == bytes)
    }

    @Test("both commands explain themselves with --help and refuse a missing argument with exit 2")
    func help() {
        for name in ["info", "verify"] {
            let help = run([name, "--help"])
            #expect(help.code == .success)
            #expect(help.out.contains("USAGE: lifetrace \(name) TRACE"))
            #expect(help.out.contains("Examples:"))
            let missing = run([name])
            #expect(missing.code == .usageOrInput)
            #expect(missing.err.contains("missing argument"))
        }
    }

    /// `verify --repair` on a JSON Lines file refuses before checking it, so it must not talk of a bad line: the
    /// file may be sound. Before: "… is JSON Lines (fix or delete the bad line by hand)" for a sound export.
    @Test("verify --repair on a sound JSON Lines export: exit 2, says --repair is for .lifetrace, no 'bad line' claim")
    func repairJSONL() throws {
        let scratch = Scratch()
        let trace = try scratch.trace("t.lifetrace", count: 20)
        let jsonl = "\(scratch.directory)/t.jsonl"
        try #require(run(["export", trace, "-o", jsonl]).code == .success)
        let result = run(["verify", "--repair", jsonl])
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains("--repair applies only to a .lifetrace trace"), "\(result.err)")
        #expect(!result.err.contains("fix or delete the bad line"), "\(result.err)")
        #expect(run(["verify", jsonl]).code == .success)
    }
}
