import Foundation
import Testing
import TraceLog
@testable import LifetraceCLI

/// Every command that reads a trace treats a corrupt frame in the middle the same way: it uses the events of the
/// frames before it, prints a warning naming the file, the byte offset and the readable events, and exits 1.
@Suite("damage in the middle of a trace")
struct MidTraceDamageTests {
    /// A 40 000-event simulated trace (5 events frames of up to 8192 events, cleanly closed) with one payload
    /// byte of events frame 3 flipped; removed at deinit.
    final class DamagedTrace {
        let directory: URL
        let path: String
        /// Where the damaged frame starts.
        let offset: UInt64
        /// The events before it.
        let readable: UInt64
        /// The clean trace's export, one JSON line per event (header line first).
        let cleanExport: [String]

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-middamage-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            path = directory.appendingPathComponent("big.lifetrace").path
            let simulated = MidTraceDamageTests.run(["simulate", "--generate", "40000", "--seed", "3", "-o", path])
            try #require(simulated.code == .success, "\(simulated.err)")
            cleanExport = MidTraceDamageTests.run(["export", path]).out.split(separator: "\n").map(String.init)
            let clean = try TraceReader(path: path)
            try #require(clean.isCleanlyClosed && clean.frames.count == 5)
            let frame = clean.frames[3]
            offset = frame.offset
            readable = frame.firstOrdinal
            var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            bytes[Int(frame.offset) + 64 + 10] ^= 0xFF
            try bytes.write(to: URL(fileURLWithPath: path))
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        /// Whether `err` holds exactly one warning line for the damage, naming the file, offset and readable events.
        func warnedOnce(_ err: String, command: String) -> Bool {
            let lines = err.split(separator: "\n").filter { $0.contains("warning") }
            guard lines.count == 1, let line = lines.first else { return false }
            return line.hasPrefix("lifetrace \(command): warning: \(path): offset \(offset):")
                && line.contains("damaged at offset \(offset)") && line.contains("\(readable) readable events")
        }
    }

    static func run(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        let (output, captured) = CommandOutput.capturing()
        let code = Lifetrace.run(arguments: arguments, output: output)
        return (code, captured.standardOutput, captured.standardError)
    }

    @Test("events prints exactly the events before the damaged frame, warns once and exits 1")
    func events() throws {
        let trace = try DamagedTrace()
        let result = Self.run(["events", trace.path, "--format", "jsonl"])
        #expect(result.code == .problemFound)
        #expect(trace.warnedOnce(result.err, command: "events"), "\(result.err)")
        #expect(result.out.split(separator: "\n").count == Int(trace.readable))
    }

    @Test("export writes the header and exactly the events before the damaged frame, as the clean trace did")
    func export() throws {
        let trace = try DamagedTrace()
        let result = Self.run(["export", trace.path])
        #expect(result.code == .problemFound)
        #expect(trace.warnedOnce(result.err, command: "export"), "\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines == Array(trace.cleanExport.prefix(Int(trace.readable) + 1)))
    }

    @Test("state (at the end and at an instant) covers the readable events, warns once and exits 1",
          arguments: [[String](), ["--at", "1s"], ["--at", "100000s"]])
    func state(options: [String]) throws {
        let trace = try DamagedTrace()
        let result = Self.run(["state", trace.path] + options)
        #expect(result.code == .problemFound)
        #expect(trace.warnedOnce(result.err, command: "state"), "\(result.err)")
        #expect(!result.out.isEmpty)
        if options.isEmpty || options[1] == "100000s" {
            #expect(result.out.contains("(\(trace.readable) events;"), "\(result.out.prefix(200))")
        }
    }

    @Test("timeline draws the readable events, warns once and exits 1")
    func timeline() throws {
        let trace = try DamagedTrace()
        let result = Self.run(["timeline", trace.path])
        #expect(result.code == .problemFound)
        #expect(trace.warnedOnce(result.err, command: "timeline"), "\(result.err)")
        #expect(!result.out.isEmpty)
    }

    @Test("audit audits the readable events, warns once and exits 1 even without error findings")
    func audit() throws {
        let trace = try DamagedTrace()
        let result = Self.run(["audit", trace.path, "--format", "json"])
        #expect(result.code == .problemFound)
        #expect(trace.warnedOnce(result.err, command: "audit"), "\(result.err)")
        #expect(result.out.contains("\(trace.readable)"), "\(result.out.prefix(300))")
    }

    @Test("info counts only the readable events (by kind too), says where the damage is, exits 1")
    func info() throws {
        let trace = try DamagedTrace()
        let result = Self.run(["info", trace.path])
        #expect(result.code == .problemFound)
        #expect(trace.warnedOnce(result.err, command: "info"), "\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        let events = try #require(lines.first { $0.hasPrefix("events:") })
        #expect(events.hasSuffix(" \(trace.readable)"), "\(events)")
        let byKind = try #require(lines.first { $0.hasPrefix("  by kind:") })
        let total = byKind.split(separator: ",").compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }.reduce(0, +)
        #expect(total == Int(trace.readable), "\(byKind)")
        #expect(lines.contains { $0.hasPrefix("damaged:") && $0.contains("at offset \(trace.offset)") }, "\(result.out)")
        #expect(lines.contains { $0.hasPrefix("frames:") && $0.contains("3 events") })

        let json = Self.run(["info", trace.path, "--format", "json"])
        #expect(json.code == .problemFound)
        #expect(json.out.contains("\"events\": \(trace.readable),"))
        #expect(json.out.contains("\"damaged_at_offset\": \(trace.offset)"))
    }

    @Test("verify names the damaged frame's offset, exits 1, and --repair refuses to cut damage in the middle")
    func verify() throws {
        let trace = try DamagedTrace()
        let before = try Data(contentsOf: URL(fileURLWithPath: trace.path))
        let result = Self.run(["verify", trace.path])
        #expect(result.code == .problemFound)
        #expect(result.out.contains("\(trace.path): offset \(trace.offset):"), "\(result.out)")
        let repair = Self.run(["verify", "--repair", trace.path])
        #expect(repair.code != .success)
        #expect(try Data(contentsOf: URL(fileURLWithPath: trace.path)) == before)
    }

    @Test("verify --repair on a good trace with junk appended cuts only the junk and keeps the footer")
    func repairKeepsFooter() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-junk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("good.lifetrace").path
        #expect(Self.run(["simulate", "--generate", "3000", "--seed", "5", "-o", path]).code == .success)
        let clean = try Data(contentsOf: URL(fileURLWithPath: path))
        try (clean + Data("trailing junk that is not a frame".utf8)).write(to: URL(fileURLWithPath: path))

        let events = Self.run(["events", path])
        #expect(events.code == .problemFound)
        #expect(events.err.contains("offset \(clean.count): 33 bytes of junk follow the footer"), "\(events.err)")
        #expect(events.err.contains("all \(events.out.split(separator: "\n").count) events were read"), "\(events.err)")

        // verify says what it is: a cleanly closed trace with junk after its footer (not "no valid footer").
        let verify = Self.run(["verify", path])
        #expect(verify.code == .problemFound)
        #expect(verify.out.contains("closed cleanly, then 33 bytes of junk after the footer"), "\(verify.out)")
        #expect(!verify.out.contains("no valid footer") && !verify.out.contains("after the last valid frame"), "\(verify.out)")
        let info = Self.run(["info", path])
        #expect(info.out.contains("closed:       cleanly, but bytes follow the footer"), "\(info.out)")

        let repair = Self.run(["verify", "--repair", path])
        #expect(repair.code == .success, "\(repair.out)")
        #expect(repair.out.contains("repair: dropping 33 bytes at offset \(clean.count)"), "\(repair.out)")
        #expect(repair.out.contains("closed cleanly"), "\(repair.out)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == clean)
    }
}
