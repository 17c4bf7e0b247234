import Foundation
import Testing
import TraceLog
import TraceModel
@testable import LifetraceCLI

/// `lifetrace import`, run in process.
@Suite("import command")
struct ImportCommandTests {
    /// The temporary files an import into `trace` left beside it (`TRACE.importing-PID-RANDOM`).
    static func temporaryFiles(of trace: String) throws -> [String] {
        let url = URL(fileURLWithPath: trace)
        return try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(url.lastPathComponent + ".importing") }
    }

    static let cases = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/cases")

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func run(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        let (output, captured) = CommandOutput.capturing()
        let code = Lifetrace.run(arguments: arguments, output: output)
        return (code, captured.standardOutput, captured.standardError)
    }

    static func events(in path: String) throws -> [Event] {
        let reader = try TraceReader(path: path)
        var events: [Event] = []
        try reader.forEachEvent { _, event in events.append(event) }
        return events
    }

    @Test("imports a case, keeps every raw line, and reports skipped lines")
    func importsCase() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = Self.cases.appendingPathComponent("03-sheet-presenter-silent.log").path
        let trace = directory.appendingPathComponent("03.lifetrace").path
        let result = Self.run(["import", log, "-o", trace])
        #expect(result.code == .success)
        #expect(result.out.contains("imported 11 events"))
        #expect(result.out.contains("skipped 1 line"))
        #expect(result.out.contains("line 4: [Dashboard] timer started: refresh"))
        let events = try Self.events(in: trace)
        #expect(events.count == 11)
        // The source file is named relative to the repository the log is in, as a committed file is.
        #expect(events.first?.source == EventSource(text: "[Dashboard] viewDidLoad", file: "Tests/Fixtures/cases/03-sheet-presenter-silent.log", line: 1))
        let header = try TraceReader(path: trace).header
        #expect(header.hasSyntheticTimes)
        #expect(header.clockDomain == .synthetic)
        #expect(header.producer.hasPrefix("lifetrace-import"))
    }

    @Test("the same log and flags give the same bytes; other flags another trace id")
    func reproducible() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = Self.cases.appendingPathComponent("01-cancelled-pop-save.log").path
        let paths = ["a", "b", "c"].map { directory.appendingPathComponent("\($0).lifetrace").path }
        let mark = ["--mark", "saveDraft=save,critical=true,key=draft"]
        #expect(Self.run(["import", log, "-o", paths[0]] + mark).code == .success)
        #expect(Self.run(["import", log, "-o", paths[1]] + mark).code == .success)
        #expect(Self.run(["import", log, "-o", paths[2]]).code == .success)
        let bytes = try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(bytes[0] == bytes[1])
        let first = try TraceReader(path: paths[0]).header
        let other = try TraceReader(path: paths[2]).header
        #expect(first.traceID != other.traceID)
        // The anchor is the first line's date: 2025-03-14 08:12:00.000114 UTC.
        #expect(first.wallClockAnchor.unixNanoseconds == 1_741_939_920_000_114_000)
        #expect(first.hasSyntheticTimes == false)
    }

    @Test("--strict names the unreadable line and leaves an existing trace alone")
    func strict() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = Self.cases.appendingPathComponent("03-sheet-presenter-silent.log").path
        let trace = directory.appendingPathComponent("t.lifetrace").path
        try Data("keep".utf8).write(to: URL(fileURLWithPath: trace))
        let result = Self.run(["import", log, "-o", trace, "--strict"])
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains("03-sheet-presenter-silent.log:4:"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) == Data("keep".utf8))
    }

    @Test("bad arguments exit 2", arguments: [
        ["import"], ["import", "x.log", "--format", "xml"], ["import", "x.log", "--mark", "nothing"],
    ])
    func badArguments(arguments: [String]) {
        let result = Self.run(arguments)
        #expect(result.code == .usageOrInput)
        #expect(!result.err.isEmpty)
    }

    @Test("a missing file exits 2 naming it")
    func missingFile() throws {
        let result = Self.run(["import", "/nonexistent/console.log", "-o", "/nonexistent/out.lifetrace"])
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains("/nonexistent/console.log"))
    }

    @Test("JSONL input is chosen by extension and read with TraceLog's JSONLReader")
    func jsonl() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let events = [
            Event.callback(CallbackEvent(.viewDidLoad, .instant, controller: ControllerRef(serial: 1, typeName: "A")), at: 0),
            Event.callback(CallbackEvent(.viewWillAppear, .instant, controller: ControllerRef(serial: 1, typeName: "A")), at: 5_000_000),
        ]
        let jsonl = events.map { JSONLWriter.line(for: $0) + "\n" }.joined()
        let input = directory.appendingPathComponent("in.jsonl")
        try Data(jsonl.utf8).write(to: input)
        let trace = directory.appendingPathComponent("out.lifetrace").path
        let result = Self.run(["import", input.path, "-o", trace])
        #expect(result.code == .success, "\(result.err)")
        #expect(try Self.events(in: trace).map(\.summary) == events.map(\.summary))
    }
}

@Suite("import command: formatting")
struct ImportFormattingTests {
    @Test("UTC text of an anchor", arguments: [
        (Int64(1_741_939_920_000_114_000), "2025-03-14T08:12:00.000114Z"),
        (Int64(0), "1970-01-01T00:00:00.000000Z"),
        (Int64(951_782_400_500_000_000), "2000-02-29T00:00:00.500000Z"),
    ])
    func utc(nanoseconds: Int64, text: String) {
        #expect(ImportCommand.utcText(nanoseconds) == text)
    }
}
