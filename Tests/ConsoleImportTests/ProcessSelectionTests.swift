import Foundation
import Testing
import TraceModel
@testable import ConsoleImport

/// `ConsoleLogParser.process` (`lifetrace import --process`) and the account of a log's processes
/// (`ConsoleImportResult.processLines`, `mixesProcesses`).
@Suite("Processes: selection and mixed logs")
struct ProcessSelectionTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/processes/two-simulators-and-widget.log")

    static func parse(_ lines: [String], process: String? = nil) throws -> ConsoleImportResult {
        try ConsoleLogParser(process: process.flatMap(ProcessSelector.init)).parse(lines: lines)
    }

    static func fixtureResult(process: String? = nil) throws -> ConsoleImportResult {
        let text = try String(contentsOf: fixture, encoding: .utf8)
        return try ConsoleLogParser(process: process.flatMap(ProcessSelector.init)).parse(text: text)
    }

    /// Two launches of one app logging at once, os_log's NSLog-style prefix.
    static let interleaved = [
        "2024-05-01 10:00:00.123456+0200 MyApp[1234:56789] ListViewController viewDidLoad",
        "2024-05-01 10:00:00.200000+0200 MyApp[1301:57001] ListViewController viewDidLoad",
        "2024-05-01 10:00:00.300000+0200 MyApp[1234:56789] ListViewController viewWillAppear(_:)",
        "2024-05-01 10:00:00.400000+0200 MyApp[1301:57001] ListViewController viewWillAppear(_:)",
        "2024-05-01 10:00:00.500000+0200 MyApp[1234:56789] ListViewController viewDidAppear(_:)",
    ]

    @Test("two PIDs of one program alternating: a mix, each process counted with its first line")
    func interleavedPIDs() throws {
        let result = try Self.parse(Self.interleaved)
        #expect(result.mixesProcesses)
        #expect(result.processLines.map(\.description) == ["MyApp[1234]", "MyApp[1301]"])
        #expect(result.processLines.map(\.lineCount) == [3, 2])
        #expect(result.processLines.map(\.eventLineCount) == [3, 2])
        #expect(result.processLines.map(\.firstLine) == [1, 2])
        #expect(result.processLines[1].firstText == Self.interleaved[1])
        // Read as today: one run that switched once.
        #expect(result.runStartCount == 1)
    }

    @Test("a relaunch (one PID's lines, then the other's, never back) is two runs, not a mix")
    func relaunchIsNoMix() throws {
        let result = try Self.parse([
            "2024-05-01 10:00:00.123456+0200 MyApp[1234:56789] ListViewController viewDidLoad",
            "2024-05-01 10:00:00.200000+0200 MyApp[1234:56789] ListViewController viewWillAppear(_:)",
            "2024-05-01 10:05:00.000000+0200 MyApp[1301:57001] ListViewController viewDidLoad",
            "2024-05-01 10:05:00.100000+0200 MyApp[1301:57001] ListViewController viewWillAppear(_:)",
        ])
        #expect(!result.mixesProcesses)
        #expect(result.runStartCount == 1)
        #expect(result.processLines.map(\.description) == ["MyApp[1234]", "MyApp[1301]"])
    }

    @Test("another program's lines that give events are a mix; lines without events are not")
    func otherProgram() throws {
        let quiet = try Self.parse([
            "2025-03-14 09:12:00.000114+0100 Notes[2231:90112] NotesListViewController viewDidLoad",
            "2025-03-14 09:12:00.100000+0100 NotesWidget[880:3] Timeline reload requested",
            "2025-03-14 09:12:00.311402+0100 Notes[2231:90112] NotesListViewController viewDidAppear(_:)",
        ])
        #expect(!quiet.mixesProcesses)
        #expect(quiet.processLines.map(\.eventLineCount) == [2, 0])
        let widget = try Self.parse([
            "2025-03-14 09:12:00.000114+0100 Notes[2231:90112] NotesListViewController viewDidLoad",
            "2025-03-14 09:12:00.100000+0100 NotesWidget[880:3] WidgetViewController viewDidLoad",
        ])
        #expect(widget.mixesProcesses)
        // A widget's lines never start a run.
        #expect(widget.runStartCount == 0)
    }

    @Test("--process by PID reads that process only: no run switch, other lines left out and counted")
    func byPID() throws {
        let result = try Self.parse(Self.interleaved, process: "1301")
        #expect(result.events.map(\.summary) == ["ListViewController#1 viewDidLoad", "ListViewController#1 viewWillAppear"])
        #expect(result.events.map { $0.source?.line } == [2, 4])
        // Timestamp zero is the first line read.
        #expect(result.events.map(\.timestamp) == [0, 200_000_000])
        #expect(result.leftOutLineCount == 3)
        #expect(result.runStartCount == 0)
        #expect(!result.mixesProcesses)
        #expect(result.skippedLineCount == 0)
        // Every process is still counted (what the log contains), events only for what was read.
        #expect(result.processLines.map(\.lineCount) == [3, 2])
        #expect(result.processLines.map(\.eventLineCount) == [0, 2])
    }

    @Test("--process by name keeps every process of that program, and leaves the widget out")
    func byName() throws {
        let lines = Self.interleaved + ["2024-05-01 10:00:00.600000+0200 MyAppWidget[880:3] WidgetViewController viewDidLoad"]
        let result = try Self.parse(lines, process: "MyApp")
        #expect(result.events.count == 6)  // 5 callbacks and the run start
        #expect(result.leftOutLineCount == 1)
        #expect(result.mixesProcesses)  // the two PIDs still alternate
        let widget = try Self.parse(lines, process: "MyAppWidget")
        #expect(widget.events.map(\.summary) == ["WidgetViewController#1 viewDidLoad"])
        #expect(!widget.mixesProcesses)
    }

    @Test("a line without a prefix goes with the line before it; lines before the first prefix are read")
    func continuationLines() throws {
        let result = try Self.parse([
            "viewDidLoad — before any prefix",
            "2024-05-01 10:00:00.123456+0200 MyApp[1234:56789] ListViewController viewDidLoad",
            "2024-05-01 10:00:00.200000+0200 Other[77:1] multi-line message",
            "ListViewController viewWillAppear",
            "2024-05-01 10:00:00.300000+0200 MyApp[1234:56789] ListViewController viewWillAppear(_:)",
        ], process: "MyApp")
        #expect(result.events.compactMap { $0.source?.line } == [1, 2, 5])
        #expect(result.unattributedLineCount == 1)
        #expect(result.leftOutLineCount == 2)
        #expect(result.processLines.map(\.lineCount) == [2, 2])
    }

    @Test("a log without prefixes names no process: nothing is counted, nothing is mixed")
    func noPrefixes() throws {
        let result = try Self.parse(["A viewDidLoad", "B viewDidLoad", "A viewDidAppear"])
        #expect(result.processLines.isEmpty)
        #expect(result.unattributedLineCount == 3)
        #expect(!result.mixesProcesses)
    }

    @Test("log stream --style compact: the type column (Df, E) is not part of the process name")
    func compactStyle() throws {
        let result = try Self.fixtureResult()
        #expect(result.processLines.map(\.description) == ["Notes[2231]", "Notes[2290]", "NotesWidget[880]"])
        // The two-line message's second line counts with its process (2290).
        #expect(result.processLines.map(\.lineCount) == [8, 7, 2])
        #expect(result.processLines.map(\.firstLine) == [3, 5, 8])
        #expect(result.unattributedLineCount == 2)
        #expect(result.processes == ["Notes[2231]", "Notes[2290]"])
        #expect(result.mixesProcesses)
        let e = try Self.parse(["2025-03-14 09:12:03.200 E  Notes[2290:1c2f01] [com.example.notes:lifecycle] ListViewController viewDidLoad"])
        #expect(e.processLines.map(\.description) == ["Notes[2290]"])
        #expect(e.events.map(\.summary) == ["ListViewController#1 viewDidLoad"])
    }

    @Test("the fixture by PID: each process alone is a plain history")
    func fixtureByPID() throws {
        let first = try Self.fixtureResult(process: "2231")
        #expect(first.events.map(\.summary) == [
            "NotesListViewController#1 viewDidLoad", "NotesListViewController#1 viewWillAppear",
            "NotesListViewController#1 viewDidAppear", "NoteEditorViewController#2 viewDidLoad",
            "NotesListViewController#1 viewWillDisappear", "NoteEditorViewController#2 viewWillAppear",
            "NotesListViewController#1 viewDidDisappear", "NoteEditorViewController#2 viewDidAppear",
        ])
        #expect(!first.mixesProcesses)
        let second = try Self.fixtureResult(process: "2290")
        #expect(second.events.map(\.summary) == [
            "NotesListViewController#1 viewDidLoad", "NotesListViewController#1 viewWillAppear",
            "NotesListViewController#1 viewDidAppear", "NotesListViewController#1 viewWillDisappear",
            "NotesListViewController#1 viewDidDisappear",
        ])
        // The continuation line of 2290's two-line message is read (skipped), 2231's lines are not.
        #expect(second.skippedLines.map(\.line) == [1, 2, 16, 17])
    }

    @Test("the streaming session gives the parser's result, with a selection too")
    func streamingMatchesParser() throws {
        let text = try String(contentsOf: Self.fixture, encoding: .utf8)
        for process in [nil, "2231", "Notes"] {
            let parser = ConsoleLogParser(process: process.flatMap(ProcessSelector.init))
            let whole = try parser.parse(text: text)
            var session = ConsoleLogSession(parser: parser, limits: .streaming)
            var events: [Event] = []
            var number = 0
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                number += 1
                try session.read(String(line), number: number)
                events += session.takeEvents()
            }
            var streamed = session.finish(lineCount: whole.lineCount)
            events += streamed.events
            streamed.events = events
            #expect(streamed == whole, "process \(process ?? "none")")
        }
    }

    @Test("--strict with --process: another process's unreadable lines are no error, the selected one's are")
    func strictSelection() throws {
        let lines = [
            "2024-05-01 10:00:00.000 MyApp[1234:1] ListViewController viewDidLoad",
            "2024-05-01 10:00:00.100 Other[77:1] not a lifecycle line",
            "2024-05-01 10:00:00.200 MyApp[1234:1] not a lifecycle line either",
        ]
        let parser = ConsoleLogParser(isStrict: true, process: ProcessSelector("MyApp"))
        #expect(throws: ConsoleImportError.self) { try parser.parse(lines: Array(lines.prefix(3))) }
        let result = try parser.parse(lines: Array(lines.prefix(2)))
        #expect(result.events.count == 1)
        #expect(result.leftOutLineCount == 1)
    }

    @Test("memory stays bounded: 1 000 processes are counted one by one, later ones together")
    func boundedTally() throws {
        let lines = (0..<1_005).map { "2024-05-01 10:00:00.000 MyApp[\(1_000 + $0):1] ListViewController viewDidLoad" }
        let result = try Self.parse(lines)
        #expect(result.processLines.count == ProcessTally.keptProcesses)
        #expect(result.untalliedProcessLineCount == 5)
        #expect(result.processLines.last?.description == "MyApp[1999]")
        // One launch after another: runs, not a mix, also past the limit.
        #expect(result.runStartCount == 1_004)
        #expect(!result.mixesProcesses)
    }

    @Test("a selector: a name matched exactly, digits as a PID, blank refused")
    func selector() throws {
        let name = try #require(ProcessSelector(" MyApp "))
        #expect(name.text == "MyApp" && name.pid == nil)
        #expect(name.matches(name: "MyApp", pid: 1))
        #expect(!name.matches(name: "myapp", pid: 1))
        let pid = try #require(ProcessSelector("1234"))
        #expect(pid.pid == 1234)
        #expect(pid.matches(name: "MyApp", pid: 1234))
        #expect(!pid.matches(name: "MyApp", pid: 12345))
        #expect(ProcessSelector("  ") == nil)
    }
}
