import Testing
import TraceModel
@testable import ConsoleImport

/// The real logs of Tests/Fixtures/cases, parsed alone: every event with its time (seconds from the first line,
/// rounded to the millisecond, as the cases README counts them).
@Suite("Real cases: parsing")
struct RealCaseParsingTests {
    @Test("01: NSLog with UTC offset, marks for save and edit")
    func cancelledPopSave() throws {
        let result = try Fixtures.parse(
            "01-cancelled-pop-save.log",
            marks: ["saveDraft=save,critical=true,key=draft", "textDidChange=edit,key=draft"])
        #expect(result.lines == [
            "0.000 NotesListViewController#1 viewDidLoad",
            "0.005 NotesListViewController#1 viewWillAppear",
            "0.311 NotesListViewController#1 viewDidAppear",
            "2.120 NoteEditorViewController#2 viewDidLoad",
            "2.121 NotesListViewController#1 viewWillDisappear",
            "2.122 NoteEditorViewController#2 viewWillAppear",
            "2.470 NotesListViewController#1 viewDidDisappear",
            "2.471 NoteEditorViewController#2 viewDidAppear",
            "4.003 mark edit key=draft @ NoteEditorViewController#2",
            "5.904 NoteEditorViewController#2 viewWillDisappear",
            "5.904 mark save critical=true key=draft @ NoteEditorViewController#2",
            "5.905 NotesListViewController#1 viewWillAppear",
            "6.289 NotesListViewController#1 viewWillDisappear",
            "6.289 NotesListViewController#1 viewDidDisappear",
            "6.290 NoteEditorViewController#2 viewWillAppear",
            "6.291 NoteEditorViewController#2 viewDidAppear",
            "8.511 mark edit key=draft @ NoteEditorViewController#2",
            "9.700 sceneWillResignActive(_:) scene=default",
            "10.214 sceneDidEnterBackground(_:) scene=default",
        ])
        // 2025-03-14 09:12:00.000114+0100 is 08:12:00.000114 UTC.
        #expect(result.clock == .wallClock(start: 1_741_939_920_000_114_000, hasOffset: true))
        #expect(result.hasSyntheticTimes == false)
        #expect(result.skippedLines.isEmpty)
        // The save is 5.903988 s after the first line: the README's 5.904 is the rounded value.
        #expect(result.events[10].timestamp == 5_903_988_000)
    }

    @Test("02: numbered list without times, initWithCoder and dealloc")
    func pushPopDealloc() throws {
        let result = try Fixtures.parse("02-push-pop-dealloc.log")
        #expect(result.clock == .synthetic)
        #expect(result.hasSyntheticTimes)
        #expect(result.events.map(\.timestamp) == (0..<16).map { UInt64($0) * 1_000_000 })
        #expect(result.events.map(\.summary) == [
            "ProductDetailViewController#1 init", "ProductDetailViewController#1 loadView",
            "ProductDetailViewController#1 viewDidLoad", "CatalogViewController#2 viewWillDisappear",
            "ProductDetailViewController#1 viewWillAppear", "ProductDetailViewController#1 viewWillLayoutSubviews",
            "ProductDetailViewController#1 viewDidLayoutSubviews", "ProductDetailViewController#1 viewWillLayoutSubviews",
            "ProductDetailViewController#1 viewDidLayoutSubviews", "CatalogViewController#2 viewDidDisappear",
            "ProductDetailViewController#1 viewDidAppear", "ProductDetailViewController#1 viewWillDisappear",
            "CatalogViewController#2 viewWillAppear", "ProductDetailViewController#1 viewDidDisappear",
            "CatalogViewController#2 viewDidAppear", "ProductDetailViewController#1 deinit",
        ])
    }

    @Test("03: [Tag] lines, presentation-controller delegate, timer mark on the tagged controller")
    func sheetPresenterSilent() throws {
        let result = try Fixtures.parse("03-sheet-presenter-silent.log", marks: ["timer started=timer.start,id=refresh"])
        #expect(result.events.map(\.summary) == [
            "Dashboard#1 viewDidLoad", "Dashboard#1 viewWillAppear", "Dashboard#1 viewDidAppear",
            "mark timer.start id=refresh @ Dashboard#1",
            "Filters#2 viewDidLoad", "Filters#2 viewWillAppear", "Filters#2 viewDidAppear",
            "presentationControllerWillDismiss Filters#2",
            "Filters#2 viewWillDisappear", "Filters#2 viewDidDisappear",
            "presentationControllerDidDismiss Filters#2", "Filters#2 deinit",
        ])
        #expect(result.skippedLines.isEmpty)
    }

    @Test("03 without --mark: the timer line is skipped and counted")
    func sheetWithoutMarks() throws {
        let result = try Fixtures.parse("03-sheet-presenter-silent.log")
        #expect(result.skippedLines == [SkippedLine(line: 4, text: "[Dashboard] timer started: refresh")])
        #expect(result.events.count == 11)
    }

    @Test("04: -[Class selector:] lines; prepareForSegue:sender: is kept as a uikit.callback mark")
    func doubleDidDisappear() throws {
        let result = try Fixtures.parse("04-double-did-disappear.log")
        #expect(result.skippedLines == [])
        let first = result.events.filter { $0.controller?.typeName == "FirstViewController" }.map(\.summary)
        #expect(first == [
            "FirstViewController#1 viewDidLoad", "FirstViewController#1 viewWillAppear",
            "FirstViewController#1 viewDidAppear",
            "mark uikit.callback method=prepare(for:sender:) of=UIViewController @ FirstViewController#1",
            "FirstViewController#1 viewWillDisappear",
            "FirstViewController#1 viewWillLayoutSubviews", "FirstViewController#1 viewDidLayoutSubviews",
            "FirstViewController#1 viewDidDisappear", "FirstViewController#1 viewDidDisappear",
        ])
        #expect(result.controllers.map(\.displayName) == ["FirstViewController#1", "SecondViewController#2", "ThirdViewController#3"])
        #expect(result.events.count == 23)
    }

    @Test("05: Class.method(_:) (#function with the type)")
    func doubleDidAppear() throws {
        let result = try Fixtures.parse("05-double-did-appear-forwarding.log")
        #expect(result.events.map(\.summary) == [
            "PagerContainerViewController#1 viewDidLoad", "PagerContainerViewController#1 viewWillAppear",
            "TrendingTabViewController#2 viewDidLoad", "TrendingTabViewController#2 viewWillAppear",
            "TrendingTabViewController#2 viewDidAppear", "PagerContainerViewController#1 viewDidAppear",
            "TrendingTabViewController#2 viewDidAppear",
        ])
    }

    @Test("06: time of day")
    func tabSwitch() throws {
        let result = try Fixtures.parse("06-tab-switch.log")
        #expect(result.clock == .timeOfDay(start: (12 * 3600 + 40 * 60 + 1) * 1_000_000_000 + 102_000_000))
        #expect(result.lines == [
            "0.000 InboxViewController#1 viewDidLoad", "0.002 InboxViewController#1 viewWillAppear",
            "0.289 InboxViewController#1 viewDidAppear", "6.748 ContactsViewController#2 viewDidLoad",
            "6.750 ContactsViewController#2 viewWillAppear", "6.751 InboxViewController#1 viewWillDisappear",
            "6.759 InboxViewController#1 viewDidDisappear", "6.760 ContactsViewController#2 viewDidAppear",
        ])
    }

    @Test("07: Class<0> instance suffixes are two controllers with labels")
    func pageScrollCancelled() throws {
        let result = try Fixtures.parse("07-page-scroll-cancelled.log")
        #expect(result.controllers == [
            ControllerRef(serial: 1, typeName: "PhotoPageViewController", label: "0"),
            ControllerRef(serial: 2, typeName: "PhotoPageViewController", label: "1"),
        ])
        #expect(result.lines == [
            "0.000 PhotoPageViewController<0> viewWillAppear", "0.210 PhotoPageViewController<0> viewDidAppear",
            "3.000 PhotoPageViewController<1> viewDidLoad", "3.001 PhotoPageViewController<1> viewWillAppear",
            "3.002 PhotoPageViewController<0> viewWillDisappear", "3.400 PhotoPageViewController<0> viewWillAppear",
            "3.401 PhotoPageViewController<0> viewDidAppear", "3.402 PhotoPageViewController<1> viewWillDisappear",
            "3.403 PhotoPageViewController<1> viewDidDisappear",
        ])
    }

    @Test("08: leading seconds with | columns, willMove/didMove parents")
    func poppedNeverDeinit() throws {
        let result = try Fixtures.parse("08-popped-never-deinit.log")
        #expect(result.clock == .seconds)
        #expect(result.lines == [
            "0.000 FeedViewController#1 viewDidAppear", "3.120 StoryViewController#2 viewDidLoad",
            "3.121 FeedViewController#1 viewWillDisappear", "3.122 StoryViewController#2 viewWillAppear",
            "3.498 FeedViewController#1 viewDidDisappear", "3.499 StoryViewController#2 viewDidAppear",
            "3.499 StoryViewController#2 didMove(toParent:) parent=UINavigationController#3",
            "9.000 StoryViewController#2 willMove(toParent:) parent=nil",
            "9.001 StoryViewController#2 viewWillDisappear", "9.002 FeedViewController#1 viewWillAppear",
            "9.380 StoryViewController#2 viewDidDisappear", "9.381 FeedViewController#1 viewDidAppear",
            "9.381 StoryViewController#2 didMove(toParent:) parent=nil",
            "30.000 FeedViewController#1 viewWillDisappear", "30.001 FeedViewController#1 viewDidDisappear",
        ])
    }

    @Test("09: NSLog without UTC offset, app-delegate callbacks")
    func backgroundDraftLost() throws {
        let result = try Fixtures.parse("09-background-draft-lost.log", marks: ["composerTextChanged=edit,key=draft"])
        #expect(result.clock == .wallClock(start: 1_730_581_450_500_000_000, hasOffset: false))
        #expect(result.lines == [
            "0.000 ConversationViewController#1 viewDidLoad", "0.002 ConversationViewController#1 viewWillAppear",
            "0.340 ConversationViewController#1 viewDidAppear",
            "4.516 mark edit key=draft @ ConversationViewController#1",
            "8.877 mark edit key=draft @ ConversationViewController#1",
            "12.401 applicationWillResignActive(_:)", "12.910 applicationDidEnterBackground(_:)",
        ])
    }

    @Test("10: no class at all: one anonymous controller")
    func seedPrintStyle() throws {
        let result = try Fixtures.parse("10-seed-print-style.log")
        #expect(result.controllers == [ControllerRef(serial: 1, typeName: "(anonymous)")])
        #expect(result.events.map(\.summary) == [
            "(anonymous)#1 viewDidLoad", "(anonymous)#1 viewWillAppear", "(anonymous)#1 viewDidAppear",
        ])
        #expect(result.hasSyntheticTimes)
    }

    @Test("11: method:tag, a paging library's page tag as the controller")
    func pageTags() throws {
        let result = try Fixtures.parse("11-page-tags-duplicate-will.log")
        #expect(result.controllers.map(\.displayName) == ["2", "0", "3"])
        #expect(result.lines == [
            "0.000 2 viewWillAppear", "0.008 2 viewDidAppear", "5.459 0 viewWillDisappear",
            "5.460 3 viewWillAppear", "5.467 0 viewWillDisappear", "5.467 3 viewDidAppear",
        ])
    }

    @Test("every event keeps its raw line, file and line number", arguments: [
        "01-cancelled-pop-save.log", "02-push-pop-dealloc.log", "04-double-did-disappear.log", "11-page-tags-duplicate-will.log",
    ])
    func sourcesKept(name: String) throws {
        let lines = try Fixtures.text(name).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let result = try Fixtures.parse(name)
        for event in result.events {
            let source = try #require(event.source)
            let line = try #require(source.line)
            #expect(source.file == name)
            #expect(source.text == lines[Int(line) - 1])
        }
        // Every line is either an event or a skipped line.
        let used = Set(result.events.compactMap { $0.source?.line.map(Int.init) })
        let skipped = Set(result.skippedLines.map(\.line))
        #expect(used.union(skipped).count == lines.filter { !$0.isEmpty }.count)
    }
}
