import Foundation
import LifetraceTestSupport
import Replay
import Testing
import TraceLog
import TraceModel

@testable import LifetraceCLI

/// `lifetrace info` reads every checkpoint's payload, as `verify` does: opening a cleanly closed trace checks only
/// the events frames the index lists, so before this a damaged checkpoint left `info` saying "problems: none".
@Suite("lifetrace info: damaged checkpoints")
struct InfoCheckpointTests {
    final class Scratch {
        let directory: String

        init() {
            directory = FileManager.default.temporaryDirectory.path + "/lifetrace-info-checkpoint-\(UUID().uuidString)"
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }

        deinit {
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// A cleanly closed trace of 2 000 random events with a checkpoint every 500 events; with `damage`, the
        /// second checkpoint's payload gets one flipped bit (its header, with its own CRC, stays valid).
        func trace(damage: Bool) throws -> (path: String, checkpoint: FrameInfo) {
            let path = "\(directory)/checkpoints-\(damage).lifetrace"
            var options = TraceWriter.Options()
            options.maxEventsPerFrame = 250
            let header = TraceHeader(
                clockDomain: .linuxBoottime,
                wallClockAnchor: WallClockAnchor(unixNanoseconds: 1_764_460_800_000_000_000, monotonicNanoseconds: 0),
                producer: "cli-tests"
            )
            let writer = CheckpointingWriter(
                writer: try TraceWriter(creating: path, header: header, options: options),
                policy: .init(eventInterval: 500, timeInterval: 0)
            )
            try writer.append(contentsOf: RandomEvents.make(count: 2_000, seed: 21))
            try writer.close()
            let checkpoints = try TraceReader(path: path).checkpoints
            try #require(checkpoints.count >= 2)
            let frame = checkpoints[1]
            if damage {
                var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
                bytes[Int(frame.endOffset) - Int(frame.compressedLength) / 2] ^= 0x10
                try Data(bytes).write(to: URL(fileURLWithPath: path))
            }
            return (path, frame)
        }
    }

    func run(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        let (output, captured) = CommandOutput.capturing()
        let code = Lifetrace.run(arguments: arguments, output: output)
        return (code, captured.standardOutput, captured.standardError)
    }

    @Test("a sound trace with checkpoints: no problems, exit 0")
    func sound() throws {
        let scratch = Scratch()
        let (path, _) = try scratch.trace(damage: false)
        let result = run(["info", path])
        #expect(result.code == .success)
        #expect(result.out.contains("problems:     none found"))
        #expect(result.out.contains("closed:       cleanly"))
        #expect(!result.out.contains("damaged"))
        #expect(result.err.isEmpty)
    }

    @Test("a cleanly closed trace with a damaged checkpoint: info lists it with its offset, warns, exits 1, and still counts every event")
    func damagedCheckpoint() throws {
        let scratch = Scratch()
        let (path, frame) = try scratch.trace(damage: true)
        let reader = try TraceReader(path: path)
        #expect(reader.isCleanlyClosed)
        #expect(reader.problems.isEmpty)  // opening does not read checkpoint payloads: info must

        let text = run(["info", path])
        #expect(text.code == .problemFound)
        #expect(text.out.contains("events:       2000\n"))
        #expect(text.out.contains("checkpoints (1 damaged)"))
        #expect(text.out.contains("problems:     1\n"))
        #expect(text.out.contains("  \(path): offset \(frame.offset): checkpoint frame \(frame.sequence): payload CRC mismatch"))
        #expect(!text.out.contains("none found"))
        #expect(text.err.hasPrefix("lifetrace info: warning: \(path): offset \(frame.offset): checkpoint frame"))
        #expect(text.err.contains("all of them were read"))

        let json = run(["info", path, "--format", "json"])
        #expect(json.code == .problemFound)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        #expect(object["events"] as? Int == 2_000)
        #expect(object["damaged_checkpoints"] as? Int == 1)
        #expect(object["damaged_at_offset"] is NSNull)
        let problems = try #require(object["problems"] as? [String])
        #expect(problems.count == 1)
        #expect(problems.first?.contains("offset \(frame.offset): checkpoint frame") == true)

        // verify agrees on the one problem.
        let verify = run(["verify", path])
        #expect(verify.code == .problemFound)
        #expect(verify.out.contains("offset \(frame.offset): checkpoint frame \(frame.sequence): payload CRC mismatch"))
    }
}
