import Foundation
import Replay
import Testing
import TraceModel
@testable import LifetraceCLI

/// `lifetrace import` end to end on logs with two launches, two instances of one class, invalid dates and a
/// `--mark` with a field given twice.
@Suite("import: runs, instances, invalid times, duplicate mark fields")
struct ImportRunsAndTimesTests {
    static func importLog(_ text: String, _ extra: [String] = []) throws -> (code: ExitCode, out: String, err: String, events: [Event], log: String) {
        let directory = try ImportCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("app.log").path
        let trace = directory.appendingPathComponent("app.lifetrace").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: log))
        let result = ImportCommandTests.run(["import", log, "-o", trace] + extra)
        let events = result.code == .success ? try ImportCommandTests.events(in: trace) : []
        return (result.code, result.out, result.err, events, log)
    }

    static func finalState(_ events: [Event]) -> ReplayState {
        var state = ReplayState()
        for (ordinal, event) in events.enumerated() { state.apply(event, ordinal: UInt64(ordinal)) }
        return state
    }

    @Test("a relaunch ends the first process's controllers; the second launch's are alive and distinct")
    func relaunch() throws {
        let result = try Self.importLog("""
            2024-05-01 10:00:00.123456+0200 MyApp[1234:56789] <MyApp.DetailViewController: 0x7fa1c2d04a10> viewDidLoad
            2024-05-01 10:00:00.200000+0200 MyApp[1234:56789] <MyApp.DetailViewController: 0x7fa1c2d04a10> viewWillAppear(_:)
            2024-05-01 10:00:00.450000+0200 MyApp[1234:56789] <MyApp.DetailViewController: 0x7fa1c2d04a10> viewDidAppear(_:)
            2024-05-01 10:05:00.000000+0200 MyApp[1301:57001] <MyApp.DetailViewController: 0x7fa1c2d04a10> viewDidLoad

            """)
        #expect(result.code == .success)
        #expect(result.out.contains("2 runs (the process ID changed 1 time): MyApp[1234], MyApp[1301]"))
        #expect(result.out.contains("2 controllers: DetailViewController#1, DetailViewController#2"))
        let state = Self.finalState(result.events)
        let first = try #require(state.controller(named: "DetailViewController#1"))
        let second = try #require(state.controller(named: "DetailViewController#2"))
        #expect(first.endedWithProcess)
        #expect(!second.endedWithProcess)
        #expect(second.isAlive)
    }

    @Test("two live instances of one class, told apart by address")
    func twoInstances() throws {
        let result = try Self.importLog("""
            <MyApp.DetailViewController: 0x7fa1c2d04a10> viewDidLoad()
            <MyApp.DetailViewController: 0x7fa1c2d04a10> viewWillAppear(_:)
            <MyApp.DetailViewController: 0x7fa1c2d04a10> viewDidAppear(_:)
            <MyApp.DetailViewController: 0x7fa1c2e05b20> viewDidLoad()
            <MyApp.DetailViewController: 0x7fa1c2e05b20> viewWillAppear(_:)

            """)
        let state = Self.finalState(result.events)
        #expect(try #require(state.controller(named: "DetailViewController#1")).appearance == .appeared)
        #expect(try #require(state.controller(named: "DetailViewController#2")).appearance == .appearing)
    }

    @Test("invalid dates: warnings naming LOG:LINE, every event kept, exit 0; --strict: exit 2 naming the line")
    func invalidDates() throws {
        let text = """
            2024-05-01 10:00:00.000 MyApp[1234:56789] ListViewController viewDidLoad
            2024-13-45 10:00:00.000 MyApp[1234:56789] ListViewController viewWillAppear
            2024-05-01 10:00:01.000 MyApp[1234:56789] ListViewController viewDidAppear

            """
        let result = try Self.importLog(text)
        #expect(result.code == .success)
        #expect(result.err.contains("app.log:2: warning: invalid time '2024-13-45 10:00:00.000' (month 13); the line is read without a time"))
        #expect(result.events.count == 3)
        let strict = try Self.importLog(text, ["--strict"])
        #expect(strict.code == .usageOrInput)
        #expect(strict.err.contains("app.log:2: invalid time '2024-13-45 10:00:00.000' (month 13)"))
    }

    @Test("--mark with a field given twice exits 2 naming the option and the field")
    func duplicateMarkField() throws {
        let result = try Self.importLog("A viewDidLoad\n", ["--mark", "saveDraft=save,key=draft,key=notes"])
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains("--mark 'saveDraft=save,key=draft,key=notes': field 'key' is given twice"))
    }
}
