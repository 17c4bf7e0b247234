import ConsoleImport
import Foundation
import LifetraceTestSupport
import Testing
import TraceLog
import TraceModel
@testable import LifetraceCLI

/// `lifetrace import` on awkward input: line endings, invalid UTF-8, very long lines, binary data, empty files,
/// and a log that needs a second pass. The import streams (docs/IMPORT.md "Cost"); these check it stays correct.
@Suite("import command: input")
struct ImportInputTests {
    final class Scratch {
        let directory: URL
        init() throws {
            directory = try ImportCommandTests.temporaryDirectory()
        }
        deinit { try? FileManager.default.removeItem(at: directory) }
        func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
        func write(_ name: String, _ bytes: [UInt8]) throws -> String {
            let path = path(name)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    static let lines = [
        "2025-03-14 09:12:00.000114+0100 Notes[2231:90112] NotesListViewController viewDidLoad",
        "2025-03-14 09:12:00.004870+0100 Notes[2231:90112] NotesListViewController viewWillAppear(_:)",
        "2025-03-14 09:12:00.311402+0100 Notes[2231:90112] [network] GET /notes 200",
        "2025-03-14 09:12:00.311500+0100 Notes[2231:90112] NotesListViewController viewDidAppear(_:)",
    ]

    @Test("CRLF, CR and LF line endings, with or without a final newline, import the same events")
    func lineEndings() throws {
        let scratch = try Scratch()
        var traces: [[Event]] = []
        for (index, ending) in ["\n", "\r\n", "\r"].enumerated() {
            for final in ["", ending] {
                let log = try scratch.write("log\(index)\(final.isEmpty ? "" : "n").log", Array((Self.lines.joined(separator: ending) + final).utf8))
                let trace = scratch.path("t.lifetrace")
                let result = ImportCommandTests.run(["import", log, "-o", trace])
                #expect(result.code == .success, "\(result.err)")
                let events = try ImportCommandTests.events(in: trace)
                #expect(events.map(\.source?.line) == [1, 2, 4])
                traces.append(events.map { var event = $0; event.source?.file = nil; return event })
            }
        }
        #expect(traces.allSatisfy { $0 == traces[0] })
        #expect(traces[0].map(\.source?.text) == [Self.lines[0], Self.lines[1], Self.lines[3]])
    }

    @Test("a line of invalid UTF-8 is named in a warning; the other lines are imported")
    func invalidUTF8() throws {
        let scratch = try Scratch()
        var bytes = Array((Self.lines[0] + "\n").utf8)
        bytes += Array("2025-03-14 09:12:00.002000+0100 Notes[2231:90112] caf".utf8) + [0xE9, 0xFF] + Array(" viewWillAppear\n".utf8)
        bytes += Array(Self.lines[3].utf8)
        let log = try scratch.write("latin1.log", bytes)
        let result = ImportCommandTests.run(["import", log, "-o", scratch.path("t.lifetrace")])
        #expect(result.code == .success)
        #expect(result.err.contains("latin1.log:2: warning: invalid UTF-8"), "\(result.err)")
        let events = try ImportCommandTests.events(in: scratch.path("t.lifetrace"))
        #expect(events.map(\.source?.line) == [1, 2, 3])
        #expect(events[1].source?.text?.contains("caf\u{FFFD}\u{FFFD} viewWillAppear") == true)
    }

    @Test("a line longer than 64 KiB is cut and named; the lines after it are imported")
    func longLine() throws {
        let scratch = try Scratch()
        let long = "2025-03-14 09:12:00.001000+0100 Notes[2231:90112] payload " + String(repeating: "{\"k\": 1} ", count: 30_000)
        let log = try scratch.write("long.log", Array(([Self.lines[0], long, Self.lines[1]].joined(separator: "\n")).utf8))
        let result = ImportCommandTests.run(["import", log, "-o", scratch.path("t.lifetrace")])
        #expect(result.code == .success, "\(result.err)")
        #expect(result.err.contains("long.log:2: warning: line of \(long.utf8.count) bytes; only its first 65536 are read"), "\(result.err)")
        let events = try ImportCommandTests.events(in: scratch.path("t.lifetrace"))
        #expect(events.map(\.source?.line) == [1, 3])
        #expect(result.out.contains("line 2: 2025-03-14"))
    }

    @Test("an empty file, binary data, gzip data, UTF-16 text and a directory are refused with exit 2; an existing trace is kept")
    func refused() throws {
        let scratch = try Scratch()
        let trace = scratch.path("keep.lifetrace")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: trace))
        let inputs: [(String, [UInt8], String)] = [
            ("empty.log", [], "empty file (0 bytes)"),
            ("junk.log", Array("viewDidLoad\n".utf8) + [0x00, 0x01, 0x02, 0xFF, 0x10], "offset 12: a NUL byte: binary data"),
            ("log.gz", [0x1F, 0x8B, 0x08, 0x00, 0x00], "offset 0: gzip-compressed"),
            ("utf16.log", [0xFF, 0xFE] + Array("A viewDidLoad\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }, "offset 0: UTF-16 text"),
        ]
        for (name, bytes, message) in inputs {
            let log = try scratch.write(name, bytes)
            let result = ImportCommandTests.run(["import", log, "-o", trace])
            #expect(result.code == .usageOrInput, "\(name)")
            #expect(result.err.contains("\(name): \(message)"), "\(result.err)")
        }
        let directory = ImportCommandTests.run(["import", scratch.directory.path, "-o", trace])
        #expect(directory.code == .usageOrInput)
        #expect(directory.err.contains("is a directory"), "\(directory.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) == Data("keep".utf8))
        #expect(try ImportCommandTests.temporaryFiles(of: trace) == [])
    }

    @Test("junk without NUL bytes: mostly invalid UTF-8, no callback; a warning says it looks binary")
    func junkWithoutNul() throws {
        let scratch = try Scratch()
        var generator = SeededGenerator(seed: 3)
        var bytes: [UInt8] = []
        for _ in 0..<4_000 { bytes.append(UInt8(truncatingIfNeeded: generator.next() % 255) &+ 1) }
        let log = try scratch.write("junk.bin", bytes)
        let result = ImportCommandTests.run(["import", log, "-o", scratch.path("t.lifetrace")])
        #expect(result.code == .success)
        #expect(result.err.contains("not valid UTF-8: binary data rather than the console output of an app?"), "\(result.err)")
        #expect(result.out.contains("imported 0 events"))
    }

    @Test("a --strict failure far into a log leaves no temporary file and keeps an existing trace")
    func strictLate() throws {
        let scratch = try Scratch()
        let lines = (0..<3_000).map { "12:00:\(String(format: "%02d", $0 / 100)).\(String(format: "%03d", $0 % 100)) A\($0 % 7) viewWillAppear" }
        let log = try scratch.write("strict.log", Array((lines + ["not a callback"]).joined(separator: "\n").utf8))
        let trace = scratch.path("keep.lifetrace")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: trace))
        let result = ImportCommandTests.run(["import", log, "-o", trace, "--strict"])
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains("strict.log:3001:"), "\(result.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) == Data("keep".utf8))
        #expect(try ImportCommandTests.temporaryFiles(of: trace) == [])
    }

    @Test("more untimed lines before the first timed one than the importer holds: a second pass, same events")
    func secondPass() throws {
        let scratch = try Scratch()
        let held = ConsoleLogSession.Limits.streaming.heldEvents
        var lines = (0...held).map { "Screen\($0 % 9)ViewController \($0 % 2 == 0 ? "viewWillAppear" : "viewDidAppear")" }
        lines += ["⏱ 5.250 | Screen1ViewController | viewWillDisappear", "Screen1ViewController viewDidDisappear"]
        let log = try scratch.write("late-times.log", Array(lines.joined(separator: "\n").utf8))
        let trace = scratch.path("t.lifetrace")
        let report = try ImportCommand.importFile(.init(input: log, recordedPath: log, format: "text", destination: trace))
        #expect(report.passes == 2)
        let events = try ImportCommandTests.events(in: trace)
        #expect(events.count == lines.count)
        #expect(events.allSatisfy { $0.timestamp == 5_250_000_000 })
        let header = try TraceReader(path: trace).header
        #expect(header.hasSyntheticTimes)
        #expect(header.clockDomain == .unknown)
    }
}
