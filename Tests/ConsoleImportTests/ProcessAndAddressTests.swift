import Testing
import TraceModel
@testable import ConsoleImport

/// Process IDs in NSLog/os_log prefixes start runs; printed object addresses tell instances apart.
@Suite("Processes and addresses")
struct ProcessAndAddressTests {
    static func summaries(_ lines: [String], marks: [String] = []) throws -> [String] {
        let rules = try marks.map { spec throws(ConsoleImportError) in try MarkRule(parsing: spec) }
        return try ConsoleLogParser(markRules: rules).parse(lines: lines).events.map(\.summary)
    }

    @Test("a second launch (the PID changes) starts a run; names then mean new controllers")
    func secondLaunch() throws {
        let lines = [
            "2024-05-01 10:00:00.123456+0200 MyApp[1234:56789] DetailViewController viewDidLoad",
            "2024-05-01 10:00:00.200000+0200 MyApp[1234:56789] DetailViewController viewWillAppear(_:)",
            "2024-05-01 10:00:03.000000+0200 MyApp[1234:56790] network reachable",
            "2024-05-01 10:04:59.000000+0200 MyApp[1301:57001] app launched again",
            "2024-05-01 10:05:00.000000+0200 MyApp[1301:57001] DetailViewController viewDidLoad",
        ]
        let result = try ConsoleLogParser().parse(lines: lines)
        #expect(result.events.map(\.summary) == [
            "DetailViewController#1 viewDidLoad", "DetailViewController#1 viewWillAppear",
            "recorder run started MyApp[1301]", "DetailViewController#2 viewDidLoad",
        ])
        // The run starts at the first line of the new process, which stays a skipped line.
        #expect(result.events[2].source?.line == 4)
        #expect(result.events[2].timestamp == 298_876_544_000)
        #expect(result.skippedLines.map(\.line) == [3, 4])
        #expect(result.processes == ["MyApp[1234]", "MyApp[1301]"])
        #expect(result.runStartCount == 1)
    }

    @Test("one process, or no process token at all: no run event (as before)")
    func oneProcess() throws {
        let timed = try ConsoleLogParser().parse(lines: [
            "2024-05-01 10:00:00.000 MyApp[1234:56789] A viewDidLoad", "2024-05-01 10:00:01.000 MyApp[1234:1a2b] A viewDidAppear",
        ])
        #expect(timed.events.map(\.summary) == ["A#1 viewDidLoad", "A#1 viewDidAppear"])
        #expect(timed.processes == ["MyApp[1234]"])
        let bare = try ConsoleLogParser().parse(lines: ["A viewDidLoad", "A viewDidAppear"])
        #expect(bare.events.map(\.summary) == ["A#1 viewDidLoad", "A#1 viewDidAppear"])
        #expect(bare.processes.isEmpty)
        #expect(bare.runStartCount == 0)
    }

    @Test("another program's lines (an extension in a Console export) and an ended process's lines start no run")
    func otherPrograms() throws {
        #expect(try Self.summaries([
            "2024-05-01 10:00:00.000 MyApp[1234:5] A viewDidLoad",
            "2024-05-01 10:00:00.100 MyAppWidget[880:3] B viewDidLoad",
            "2024-05-01 10:00:00.200 MyApp[1234:5] A viewDidAppear",
            "2024-05-01 10:01:00.000 MyApp[1300:5] A viewDidLoad",
            "2024-05-01 10:01:00.100 MyApp[1234:5] A viewWillDisappear",
        ]) == [
            "A#1 viewDidLoad", "B#2 viewDidLoad", "A#1 viewDidAppear", "recorder run started MyApp[1300]",
            "A#3 viewDidLoad", "A#3 viewWillDisappear",
        ])
    }

    @Test("the PID column of `log show` starts runs too")
    func logShow() throws {
        #expect(try Self.summaries([
            "2025-03-14 09:12:00.000114+0100 0x15d4b    Default     0x0                  2231   0    Notes: ListViewController viewDidLoad",
            "2025-03-14 09:20:00.000114+0100 0x16e02    Default     0x0                  2290   0    Notes: ListViewController viewDidLoad",
        ]) == ["ListViewController#1 viewDidLoad", "recorder run started Notes[2290]", "ListViewController#2 viewDidLoad"])
    }

    @Test("a process name with a space (an app called `DTSidePanels Demo`) is read after a time, with PID and thread")
    func nameWithSpace() throws {
        let result = try ConsoleLogParser().parse(lines: [
            "2013-06-18 21:30:00.447 DTSidePanels Demo[81753:c07] -[PanelViewController viewDidLoad]",
            "2013-06-18 21:31:00.000 DTSidePanels Demo[81790:c07] -[PanelViewController viewDidLoad]",
            // Not a process: a lifecycle name among the words, or no thread after the PID.
            "2013-06-18 21:31:01.000 Panel viewDidAppear items[3:4]",
            "2013-06-18 21:31:02.000 Panel list items[3] viewWillDisappear",
        ])
        #expect(result.processes == ["DTSidePanels Demo[81753]", "DTSidePanels Demo[81790]"])
        #expect(result.events.map(\.summary) == [
            "PanelViewController#1 viewDidLoad", "recorder run started DTSidePanels Demo[81790]",
            "PanelViewController#2 viewDidLoad", "Panel#3 viewDidAppear", "(anonymous)#4 viewWillDisappear",
        ])
    }

    @Test("two addresses of one class are two controllers; a reused address after deinit is a new one")
    func addresses() throws {
        #expect(try Self.summaries([
            "<MyApp.DetailViewController: 0x7fa1c2d04a10> viewDidLoad",
            "<MyApp.DetailViewController: 0x7fa1c2e05b20> viewDidLoad",
            "<MyApp.DetailViewController: 0x7fa1c2d04a10> viewWillAppear",
            "<MyApp.DetailViewController: 0x7fa1c2d04a10> deinit",
            "<MyApp.DetailViewController: 0x7fa1c2e05b20> viewWillAppear",
            "<MyApp.DetailViewController: 0x7fa1c2d04a10> viewDidLoad",
        ]) == [
            "DetailViewController#1 viewDidLoad", "DetailViewController#2 viewDidLoad",
            "DetailViewController#1 viewWillAppear", "DetailViewController#1 deinit",
            "DetailViewController#2 viewWillAppear", "DetailViewController#3 viewDidLoad",
        ])
    }

    @Test("another class at a known address: the old object is gone, so its class there later is a new one")
    func addressTakenOver() throws {
        #expect(try Self.summaries([
            "<MyApp.DetailViewController: 0x600000c04000> viewDidLoad",
            "<MyApp.ListViewController: 0x600000c04000> viewDidLoad",
            "<MyApp.DetailViewController: 0x600000c04000> viewWillAppear",
        ]) == [
            "DetailViewController#1 viewDidLoad", "ListViewController#2 viewDidLoad", "DetailViewController#3 viewWillAppear",
        ])
    }

    @Test("lines with and without the address: the unaddressed name is the instance last mentioned")
    func mixed() throws {
        #expect(try Self.summaries([
            "DetailViewController viewDidLoad",
            "<MyApp.DetailViewController: 0x7fa1c2d04a10> viewWillAppear",
            "<MyApp.DetailViewController: 0x7fa1c2e05b20> viewDidLoad",
            "DetailViewController viewWillAppear",
            "<MyApp.DetailViewController: 0x7fa1c2d04a10> viewDidAppear",
            "DetailViewController viewDidAppear",
        ]) == [
            "DetailViewController#1 viewDidLoad", "DetailViewController#1 viewWillAppear",
            "DetailViewController#2 viewDidLoad", "DetailViewController#2 viewWillAppear",
            "DetailViewController#1 viewDidAppear", "DetailViewController#1 viewDidAppear",
        ])
    }

    @Test("the address in every place a line prints the object", arguments: [
        // print(#function, self)
        (["viewDidLoad() <MyApp.DetailViewController: 0x7fa1c2d04a10>", "viewDidLoad() <MyApp.DetailViewController: 0x7fa1c2e05b20>"],
         ["DetailViewController#1 viewDidLoad", "DetailViewController#2 viewDidLoad"]),
        // NSLog(@"%s %@", __PRETTY_FUNCTION__, self)
        (["-[DetailViewController viewDidLoad] <DetailViewController: 0x600000c04000>",
          "-[DetailViewController viewDidLoad] <DetailViewController: 0x600000c05100>"],
         ["DetailViewController#1 viewDidLoad", "DetailViewController#2 viewDidLoad"]),
        // NSLog(@"viewWillAppear: %@", self)
        (["viewWillAppear: <DetailViewController: 0x600000c04000>", "viewWillAppear: <DetailViewController: 0x600000c05100>"],
         ["DetailViewController#1 viewWillAppear", "DetailViewController#2 viewWillAppear"]),
        // A parent printed with its address.
        (["<MyApp.Child: 0x1> didMove(toParent: Optional(<MyApp.Shell: 0x2>))", "<MyApp.Child: 0x3> didMove(toParent: Optional(<MyApp.Shell: 0x4>))"],
         ["Child#1 didMove(toParent:) parent=Shell#2", "Child#3 didMove(toParent:) parent=Shell#4"]),
    ])
    func printedObjects(lines: [String], summaries: [String]) throws {
        #expect(try Self.summaries(lines) == summaries)
    }

    @Test("a mark on a line that prints the object goes to that instance")
    func markByAddress() throws {
        #expect(try Self.summaries([
            "<MyApp.EditorViewController: 0x7fa1c2d04a10> viewDidLoad",
            "<MyApp.EditorViewController: 0x7fa1c2e05b20> viewDidLoad",
            "<MyApp.EditorViewController: 0x7fa1c2d04a10> saveDraft",
        ], marks: ["saveDraft=save,key=draft"]) == [
            "EditorViewController#1 viewDidLoad", "EditorViewController#2 viewDidLoad",
            "mark save key=draft @ EditorViewController#1",
        ])
    }
}
