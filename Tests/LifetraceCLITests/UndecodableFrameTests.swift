import Foundation
import Testing
import TraceLog

@testable import LifetraceCLI

/// An events frame whose header and payload CRCs hold but whose payload does not decode (a writer bug, or bytes
/// rewritten with fresh CRCs): every command reads the events before it, prints one error naming the file, the
/// frame's offset and the first unreadable event, and exits 2.
@Suite("a frame that passes its CRCs but does not decode")
struct UndecodableFrameTests {
    /// A 40 000-event simulated trace (5 events frames of up to 8192 events) without index and footer (as a
    /// killed writer leaves it), whose events frame 3 is replaced by a stored (uncompressed) payload with valid
    /// CRCs that does not start with its five stream lengths (docs/FORMAT.md §3, §5). Frames after it are intact.
    final class Fixture {
        let scratch: CLIScratch
        let path: String
        let offset: UInt64
        let sequence: UInt64
        let readable: UInt64
        let totalEvents: UInt64
        /// Seconds after the first event: before the bad frame's first event, and after its last.
        let before: String
        let after: String

        init() throws {
            scratch = try CLIScratch("undecodable")
            path = scratch.path("bad.lifetrace")
            try #require(runCLI(["simulate", "--generate", "40000", "--seed", "3", "-o", path]).code == .success)
            let clean = try TraceReader(path: path)
            try #require(clean.frames.count == 5)
            let frame = clean.frames[3]
            offset = frame.offset
            sequence = frame.sequence
            readable = frame.firstOrdinal
            totalEvents = clean.eventCount
            let start = clean.timeSpan!.lowerBound
            before = String(Double(clean.frames[2].firstTimestamp - start) / 1e9)
            after = String(Double(clean.frames[4].firstTimestamp - start) / 1e9 + 0.001)
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            // Drop the index frame and footer: their offsets would no longer match once the frame changes length.
            let end = clean.allFrames.filter { $0.kind != .index }.map { Int($0.offset) + 64 + Int($0.compressedLength) }.max()!
            // Empty ops, times, refs and values streams, then zeros (as many bytes as events: a header announcing
            // more events than payload bytes is refused before decoding, FrameHeader).
            let payload: [UInt8] = [4, 0, 0, 0, 0] + [UInt8](repeating: 0, count: Int(frame.eventCount) - 5)
            var header = [UInt8]()
            header += [0x4C, 0x54, 0x46, 0x52]
            header += Self.little(UInt64(64), 2) + [1, 0]  // length 64, kind events, stored
            header += Self.little(frame.sequence, 8) + Self.little(frame.firstOrdinal, 8)
            header += Self.little(frame.firstTimestamp, 8) + Self.little(frame.lastTimestamp, 8)
            header += Self.little(UInt64(frame.eventCount), 4) + Self.little(UInt64(payload.count), 4) + Self.little(UInt64(payload.count), 4)
            header += Self.little(UInt64(Self.crc32(payload)), 4) + [0, 0, 0, 0]
            header += Self.little(UInt64(Self.crc32(header)), 4)
            let start3 = Int(frame.offset)
            let end3 = start3 + 64 + Int(frame.compressedLength)
            let damaged = Array(bytes[..<start3]) + header + payload + Array(bytes[end3..<end])
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            let reopened = try TraceReader(path: path)
            try #require(reopened.problems.isEmpty && reopened.frames.count == 5, "the CRCs hold: \(reopened.problems)")
        }

        static func little(_ value: UInt64, _ count: Int) -> [UInt8] {
            (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
        }

        /// CRC-32 (IEEE 802.3, as zlib's crc32), bit by bit.
        static func crc32(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return ~crc
        }

        /// The one error line: file, offset, frame, and the first unreadable event.
        func namedOnce(_ err: String, command: String) -> Bool {
            let lines = err.split(separator: "\n").filter { $0.contains("error:") }
            guard lines.count == 1, let line = lines.first else { return false }
            return line.hasPrefix("lifetrace \(command): error: \(path): offset \(offset): events frame \(sequence)")
                && line.contains("event \(readable) onwards cannot be read") && line.contains("the \(readable) readable events before it")
        }
    }

    @Test("events and export print exactly the readable prefix, name the frame once, exit 2")
    func eventsExport() throws {
        let fixture = try Fixture()
        let events = runCLI(["events", fixture.path, "--format", "jsonl"])
        #expect(events.code == .usageOrInput)
        #expect(fixture.namedOnce(events.err, command: "events"), "\(events.err)")
        #expect(events.out.split(separator: "\n").count == Int(fixture.readable))

        let output = fixture.scratch.path("out.jsonl")
        let export = runCLI(["export", fixture.path, "-o", output])
        #expect(export.code == .usageOrInput)
        #expect(fixture.namedOnce(export.err, command: "export"), "\(export.err)")
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == Int(fixture.readable) + 1, "the header and the readable events are kept")
    }

    @Test("timeline, audit and info cover the readable prefix, name the frame once, exit 2")
    func timelineAuditInfo() throws {
        let fixture = try Fixture()
        let timeline = runCLI(["timeline", fixture.path])
        #expect(timeline.code == .usageOrInput)
        #expect(fixture.namedOnce(timeline.err, command: "timeline"), "\(timeline.err)")
        #expect(timeline.out.hasPrefix("timeline "))

        let audit = runCLI(["audit", fixture.path, "--format", "json"])
        #expect(audit.code == .usageOrInput)
        #expect(fixture.namedOnce(audit.err, command: "audit"), "\(audit.err)")
        #expect(audit.out.contains("\(fixture.readable)"))

        let info = runCLI(["info", fixture.path])
        #expect(info.code == .usageOrInput)
        #expect(fixture.namedOnce(info.err, command: "info"), "\(info.err)")
        #expect(info.out.contains("events:       \(fixture.readable)\n"), "\(info.out)")
        #expect(info.out.contains("damaged:      at offset \(fixture.offset)"), "\(info.out)")
    }

    @Test("state: an instant whose frames decode is answered (exit 0); one that needs the bad frame gets the readable prefix, exit 2")
    func state() throws {
        let fixture = try Fixture()
        let early = runCLI(["state", fixture.path, "--at", fixture.before])
        #expect(early.code == .success, "\(early.err)")
        let late = runCLI(["state", fixture.path, "--at", fixture.after])
        #expect(late.code == .usageOrInput)
        #expect(fixture.namedOnce(late.err, command: "state"), "\(late.err)")
        #expect(late.out.contains("(\(fixture.readable) events;"), "\(late.out.prefix(200))")
    }

    @Test("verify lists the frame, says where the readable events end, and exits 2")
    func verify() throws {
        let fixture = try Fixture()
        let result = runCLI(["verify", fixture.path])
        #expect(result.code == .usageOrInput)
        #expect(result.out.contains("\(fixture.path): offset \(fixture.offset): events frame \(fixture.sequence)"), "\(result.out)")
        #expect(result.out.contains("event \(fixture.readable) onwards cannot be read"), "\(result.out)")
    }
}
