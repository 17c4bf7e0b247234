import Foundation
import Testing
import TraceModel
@testable import LifetraceCLI

/// `lifetrace import --process NAME|PID`, and the note about a log whose lines come from several processes at once
/// (docs/IMPORT.md, "Processes and runs").
@Suite("import: --process and logs of several processes")
struct ImportProcessTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/processes/two-simulators-and-widget.log").path

    /// Two launches of one app logging at once (os_log's NSLog-style prefix).
    static let interleaved = """
        2024-05-01 10:00:00.123456+0200 MyApp[1234:56789] ListViewController viewDidLoad
        2024-05-01 10:00:00.200000+0200 MyApp[1301:57001] ListViewController viewDidLoad
        2024-05-01 10:00:00.300000+0200 MyApp[1234:56789] ListViewController viewWillAppear(_:)
        2024-05-01 10:00:00.400000+0200 MyApp[1301:57001] ListViewController viewWillAppear(_:)
        2024-05-01 10:00:00.500000+0200 MyApp[1234:56789] ListViewController viewDidAppear(_:)

        """

    @Test("interleaved PIDs: imported as before, with a note naming each process, its lines and first line")
    func interleavedNote() throws {
        let result = try ImportRunsAndTimesTests.importLog(Self.interleaved)
        #expect(result.code == .success)
        #expect(result.events.count == 6)
        #expect(result.out.contains("2 runs (the process ID changed 1 time): MyApp[1234], MyApp[1301]"))
        #expect(result.err.contains("app.log mixes the lines of 2 processes running at the same time; they are imported as one history"))
        #expect(result.err.contains(
            "  MyApp[1234]: 3 lines (3 with events), first at line 1: 2024-05-01 10:00:00.123456+0200 MyApp[1234:56789] ListViewController viewDidLoad"))
        #expect(result.err.contains(
            "  MyApp[1301]: 2 lines (2 with events), first at line 2: 2024-05-01 10:00:00.200000+0200 MyApp[1301:57001] ListViewController viewDidLoad"))
        #expect(result.err.contains("import one of them with --process PID (that process only) or --process NAME (every run of that program), e.g. --process 1234"))
    }

    @Test("a relaunch is two runs and no note")
    func relaunchNoNote() throws {
        let result = try ImportRunsAndTimesTests.importLog("""
            2024-05-01 10:00:00.123456+0200 MyApp[1234:56789] ListViewController viewDidLoad
            2024-05-01 10:00:00.200000+0200 MyApp[1234:56789] ListViewController viewWillAppear(_:)
            2024-05-01 10:05:00.000000+0200 MyApp[1301:57001] ListViewController viewDidLoad

            """)
        #expect(result.code == .success)
        #expect(result.out.contains("2 runs (the process ID changed 1 time): MyApp[1234], MyApp[1301]"))
        #expect(result.err.isEmpty, "\(result.err)")
    }

    @Test("a widget's lines mixed in: a note suggesting the app's name")
    func widgetNote() throws {
        let result = try ImportRunsAndTimesTests.importLog("""
            2025-03-14 09:12:00.000114+0100 MyApp[2231:90112] NotesListViewController viewDidLoad
            2025-03-14 09:12:00.100000+0100 MyAppWidget[880:3] WidgetViewController viewDidLoad
            2025-03-14 09:12:00.311402+0100 MyApp[2231:90112] NotesListViewController viewDidAppear(_:)

            """)
        #expect(result.code == .success)
        #expect(result.err.contains("MyAppWidget[880]: 1 line (1 with events), first at line 2"))
        #expect(result.err.contains("e.g. --process MyApp"))
    }

    @Test("--process PID and --process NAME: only those lines, a summary of what was left out, no note for a PID")
    func selection() throws {
        let byPID = try ImportRunsAndTimesTests.importLog(Self.interleaved, ["--process", "1301"])
        #expect(byPID.code == .success)
        #expect(byPID.events.map(\.summary) == ["ListViewController#1 viewDidLoad", "ListViewController#1 viewWillAppear"])
        #expect(byPID.out.contains("--process 1301: read the lines of MyApp[1301] (2 lines); left out 3 lines of MyApp[1234] (3 lines)"))
        #expect(byPID.err.isEmpty, "\(byPID.err)")
        let byName = try ImportRunsAndTimesTests.importLog(Self.interleaved + "2024-05-01 10:00:00.600000+0200 MyAppWidget[880:3] WidgetViewController viewDidLoad\n", ["--process=MyApp"])
        #expect(byName.code == .success)
        #expect(byName.events.count == 6)
        #expect(byName.out.contains("left out 1 line of MyAppWidget[880] (1 line)"))
        // The two PIDs of the program chosen still alternate: said so.
        #expect(byName.err.contains("the lines --process MyApp selects in"))
        #expect(byName.err.contains("e.g. --process 1234"))
    }

    @Test("an unknown process: exit 2 naming what the log contains; nothing written, the existing trace untouched")
    func unknownProcess() throws {
        let scratch = try CLIScratch("import-process")
        let log = scratch.path("app.log")
        let trace = scratch.path("app.lifetrace")
        try Data(Self.interleaved.utf8).write(to: URL(fileURLWithPath: log))
        #expect(runCLI(["import", log, "-o", trace, "--process", "1234"]).code == .success)
        let before = try Data(contentsOf: URL(fileURLWithPath: trace))
        let result = runCLI(["import", log, "-o", trace, "--process", "myapp"])
        #expect(result.code == .usageOrInput)
        #expect(result.out.isEmpty)
        #expect(result.err == "lifetrace import: error: \(log): --process 'myapp': no line of the log is from that process (did you mean 'MyApp'? names are matched exactly); it has lines of MyApp[1234] (3 lines), MyApp[1301] (2 lines) (1 program): give one of these names or PIDs\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) == before)
        #expect(ImportStandardInputTests.names(in: scratch.url.path) == ["app.lifetrace", "app.log"])
        // A log whose lines name no process.
        try Data("A viewDidLoad\nA viewDidAppear\n".utf8).write(to: URL(fileURLWithPath: log))
        let none = runCLI(["import", log, "-o", trace, "--process", "MyApp"])
        #expect(none.code == .usageOrInput)
        #expect(none.err.contains("--process 'MyApp': no line names a process (an NSLog/os_log prefix such as MyApp[1234:56789], or log show's PID column); import it without --process"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: trace)) == before)
    }

    @Test("the option is checked: empty value, JSONL, and documented in --help")
    func optionChecks() throws {
        let empty = runCLI(["import", Self.fixture, "-o", "/nonexistent/x.lifetrace", "--process", ""])
        #expect(empty.code == .usageOrInput)
        #expect(empty.err.contains("--process needs a program name (MyApp) or a process ID (1234)"))
        let jsonl = runCLI(["import", Self.fixture, "--format", "jsonl", "--process", "1234", "-o", "/nonexistent/x.lifetrace"])
        #expect(jsonl.code == .usageOrInput)
        #expect(jsonl.err.contains("--process applies to --format text only"))
        let help = runCLI(["import", "--help"]).out
        #expect(help.contains("--process NAME|PID"))
        #expect(help.contains("Import only the lines of this process"))
    }

    @Test("the compact log stream fixture: the mixed import gives false appearance_balance warnings; each PID alone none")
    func fixtureAudit() throws {
        let scratch = try CLIScratch("import-process-fixture")
        let mixed = runCLI(["import", Self.fixture, "-o", scratch.path("mixed.lifetrace")])
        #expect(mixed.code == .success)
        #expect(mixed.err.contains("mixes the lines of 3 processes"))
        #expect(mixed.err.contains("NotesWidget[880]: 2 lines (1 with events), first at line 8"))
        let mixedAudit = runCLI(["audit", scratch.path("mixed.lifetrace")])
        #expect(mixedAudit.out.components(separatedBy: "(appearance_balance)").count - 1 == 2)
        for pid in ["2231", "2290"] {
            let trace = scratch.path("\(pid).lifetrace")
            let result = runCLI(["import", Self.fixture, "-o", trace, "--process", pid])
            #expect(result.code == .success)
            #expect(result.err.isEmpty, "\(result.err)")
            let audit = runCLI(["audit", trace])
            #expect(audit.code == .success)
            #expect(audit.out.contains("0 errors, 0 warnings, 0 notes") || audit.err.contains("0 errors, 0 warnings, 0 notes"), "\(audit.out)")
        }
    }

    @Test("piped in: the selection and the note work the same; an unknown process keeps what was read")
    func standardInput() throws {
        let scratch = try CLIScratch("import-process-stdin")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.fixture))
        let mixed = try ImportStandardInputTests.pipe(bytes, ["import", "-", "-o", "mixed.lifetrace"], in: scratch.url.path)
        #expect(mixed.status == 0, "\(mixed.err)")
        #expect(mixed.err.contains("<stdin> mixes the lines of 3 processes"))
        let one = try ImportStandardInputTests.pipe(bytes, ["import", "-", "-o", "one.lifetrace", "--process", "2290"], in: scratch.url.path)
        #expect(one.status == 0, "\(one.err)")
        #expect(one.out.hasPrefix("imported 5 events from <stdin> into one.lifetrace"))
        #expect(runCLI(["import", Self.fixture, "-o", scratch.path("file.lifetrace"), "--process", "2290"]).code == .success)
        #expect(runCLI(["events", scratch.path("one.lifetrace")]).out.replacingOccurrences(of: "<stdin>", with: Self.fixture)
            == runCLI(["events", scratch.path("file.lifetrace")]).out)
        let unknown = try ImportStandardInputTests.pipe(bytes, ["import", "-", "-o", "x.lifetrace", "--process", "Mail"], in: scratch.url.path)
        #expect(unknown.status == 2)
        #expect(unknown.err.contains("<stdin>: --process 'Mail': no line of the log is from that process; it has lines of Notes[2231] (8 lines), Notes[2290] (7 lines), NotesWidget[880] (2 lines) (2 programs)"))
        #expect(unknown.err.contains("is kept in x.lifetrace.stdin.log"))
        #expect(ImportStandardInputTests.names(in: scratch.url.path)
            == ["file.lifetrace", "mixed.lifetrace", "one.lifetrace", "x.lifetrace.stdin.log"])
    }
}
