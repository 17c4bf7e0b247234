import Testing
import TraceModel
@testable import ConsoleImport

/// One line of each style the importer reads, with the event it must give.
@Suite("Line styles")
struct LineStyleTests {
    struct Example: Sendable, CustomTestStringConvertible {
        var line: String
        var summary: String
        var testDescription: String { line }
    }

    static func parseOne(_ line: String) throws -> Event {
        let result = try ConsoleLogParser().parse(lines: [line])
        #expect(result.skippedLines.isEmpty, "skipped: \(line)")
        return try #require(result.events.first)
    }

    @Test("styles named in issue 7", arguments: [
        Example(line: "2025-03-14 09:12:00.000114+0100 App[2231:90112] NoteEditorViewController viewWillDisappear(_:)",
                summary: "NoteEditorViewController#1 viewWillDisappear"),
        Example(line: "12:40:01.102 InboxViewController viewDidLoad", summary: "InboxViewController#1 viewDidLoad"),
        Example(line: "[2025-03-14T09:12:00.123Z] SettingsViewController viewDidAppear",
                summary: "SettingsViewController#1 viewDidAppear"),
        Example(line: "⏱ 3.120 | StoryViewController | viewDidLoad", summary: "StoryViewController#1 viewDidLoad"),
        Example(line: "7 CatalogViewController viewWillAppear", summary: "CatalogViewController#1 viewWillAppear"),
        Example(line: "-[FirstViewController viewWillAppear:]", summary: "FirstViewController#1 viewWillAppear"),
        Example(line: "PagerContainerViewController.viewDidAppear(_:)", summary: "PagerContainerViewController#1 viewDidAppear"),
        Example(line: "[Dashboard] viewWillAppear", summary: "Dashboard#1 viewWillAppear"),
        Example(line: "ProfileViewController: viewDidLoad", summary: "ProfileViewController#1 viewDidLoad"),
        Example(line: "ProfileViewController | viewDidDisappear", summary: "ProfileViewController#1 viewDidDisappear"),
        Example(line: "PhotoPageViewController<0> viewWillAppear", summary: "PhotoPageViewController<0> viewWillAppear"),
        Example(line: "viewWillAppear:2", summary: "2 viewWillAppear"),
        Example(line: "viewDidLoad — View încărcată în memorie", summary: "(anonymous)#1 viewDidLoad"),
    ])
    func issueStyles(example: Example) throws {
        #expect(try Self.parseOne(example.line).summary == example.summary)
    }

    /// Styles found in public reports (quoted lines; class names as reported).
    @Test("styles found in public bug reports", arguments: [
        // github.com/defagos/CoconutKit/issues/4: a logging macro around NSLog, with the receiver and `animated`.
        Example(line: "2012-02-16 16:49:41.008 CoconutKit-dev[14824:15203] [INFO] (-[LifeCycleTestViewController viewWillDisappear:]) - Called for object <LifeCycleTestViewController: 0x8b37770>, animated = YES",
                summary: "LifeCycleTestViewController#1 viewWillDisappear animated=true"),
        // remkoh.dev "UIViewController lifecycle in a StoryBoard": `vc1 – loadView` with an en dash.
        Example(line: "vc1 – loadView", summary: "vc1#1 loadView"),
        // Stack Overflow 48653763 (UIPageViewController setViewControllers): bullet lists and the pre-Swift-4.2
        // spelling `willMove(toParentViewController:)`.
        Example(line: "- viewWillLayoutSubviews()", summary: "(anonymous)#1 viewWillLayoutSubviews"),
        Example(line: "willMove(toParentViewController:)", summary: "(anonymous)#1 willMove(toParent:)"),
        // github.com/uias/Pageboy/issues/233: a child logged with its instance id after the method.
        Example(line: "viewWillAppear 0D2C7F77-A822-4EF7-A0DA-D4C91F71B118",
                summary: "0D2C7F77-A822-4EF7-A0DA-D4C91F71B118 viewWillAppear"),
        // github.com/coddang/iOS_BootCamp_SSAC/issues/29: `print(self, #function)`.
        Example(line: "<MyApp.ViewController: 0x7fb2c8d0a2b0> viewDidLoad()", summary: "ViewController#1 viewDidLoad"),
        // inquisitivesingh.wordpress.com "View Controller Lifecycle": `println("view will appear")`.
        Example(line: "view will appear", summary: "(anonymous)#1 viewWillAppear"),
        // openradar 12322346 (lionheart/openradar-mirror#5664): Objective-C selector names alone.
        Example(line: "viewWIllAppear:", summary: "(anonymous)#1 viewWillAppear"),
    ])
    func reportedStyles(example: Example) throws {
        #expect(try Self.parseOne(example.line).summary == example.summary)
    }

    @Test("every callback, also in Objective-C spelling", arguments: [
        ("initWithNibName:bundle:", Callback.initialize), ("init(coder:)", .initialize), ("init(nibName:bundle:)", .initialize),
        ("loadView", .loadView), ("viewIsAppearing(_:)", .viewIsAppearing),
        ("viewWillLayoutSubviews", .viewWillLayoutSubviews), ("viewDidLayoutSubviews", .viewDidLayoutSubviews),
        ("dealloc", .deinitialize), ("deinit", .deinitialize), ("didReceiveMemoryWarning", .didReceiveMemoryWarning),
        ("viewWillTransition(to:with:)", .viewWillTransition),
        ("viewWillTransitionToSize:withTransitionCoordinator:", .viewWillTransition),
        ("willMoveToParentViewController:", .willMoveToParent), ("didMove(toParent:)", .didMoveToParent),
        ("didMoveToParentViewController:", .didMoveToParent),
    ])
    func callbackSpellings(spelling: String, callback: Callback) throws {
        let event = try Self.parseOne("-[DetailViewController \(spelling)]")
        guard case .callback(let payload) = event.payload else {
            Issue.record("not a callback: \(event.summary)")
            return
        }
        #expect(payload.callback == callback)
        #expect(payload.controller.typeName == "DetailViewController")
    }

    @Test("app, scene, presentation and SwiftUI names", arguments: [
        ("AppDelegate application(_:didFinishLaunchingWithOptions:)", "application(_:didFinishLaunchingWithOptions:)"),
        ("AppDelegate applicationWillEnterForeground(_:)", "applicationWillEnterForeground(_:)"),
        ("-[AppDelegate applicationDidBecomeActive:]", "applicationDidBecomeActive(_:)"),
        ("AppDelegate applicationWillTerminate", "applicationWillTerminate(_:)"),
        ("SceneDelegate scene(_:willConnectTo:options:)", "scene(_:willConnectTo:options:) scene=default"),
        ("SceneDelegate sceneDidDisconnect(_:)", "sceneDidDisconnect(_:) scene=default"),
        ("SheetViewController presentationControllerShouldDismiss(_:)", "presentationControllerShouldDismiss SheetViewController#1"),
        ("SheetViewController presentationControllerDidAttemptToDismiss", "presentationControllerDidAttemptToDismiss SheetViewController#1"),
        ("ProfileView.onAppear", "ProfileView.onAppear"),
        ("ProfileView onDisappear", "ProfileView.onDisappear"),
    ])
    func otherNames(line: String, summary: String) throws {
        #expect(try Self.parseOne(line).summary == summary)
    }

    @Test("begin/end suffixes make intervals")
    func intervals() throws {
        let result = try ConsoleLogParser().parse(lines: [
            "0.100 EditorViewController viewWillDisappear begin",
            "0.180 EditorViewController viewWillDisappear end",
            "0.200 EditorViewController viewDidDisappear",
        ])
        #expect(result.events.map(\.phase) == [.begin, .end, .instant])
        #expect(result.lines == [
            "0.100 EditorViewController#1 viewWillDisappear begin", "0.180 EditorViewController#1 viewWillDisappear end",
            "0.200 EditorViewController#1 viewDidDisappear",
        ])
    }

    @Test("lines that are not callbacks are skipped and counted with their line numbers")
    func skipping() throws {
        let result = try ConsoleLogParser().parse(lines: [
            "HomeViewController viewDidLoad", "", "Fetching feed…", "-[HomeViewController fetchFeed:]",
            "HomeViewController refreshControlChanged",
        ])
        #expect(result.events.count == 1)
        #expect(result.skippedLines.map(\.line) == [3, 4, 5])
        #expect(result.lineCount == 5)
    }

    @Test("strict mode names the first unreadable line")
    func strict() {
        let parser = ConsoleLogParser(isStrict: true, sourceFile: "console.log")
        #expect(throws: ConsoleImportError.self) {
            _ = try parser.parse(lines: ["HomeViewController viewDidLoad", "Fetching feed…"])
        }
        do {
            _ = try parser.parse(lines: ["HomeViewController viewDidLoad", "Fetching feed…"])
        } catch {
            #expect(error.code == .unreadableLine)
            #expect(error.line == 2)
            #expect(error.description.hasPrefix("console.log:2: "))
        }
    }

    @Test("each distinct controller gets its own serial; a name seen after deinit is a new controller")
    func serials() throws {
        let result = try ConsoleLogParser().parse(lines: [
            "DetailViewController viewDidLoad", "PhotoViewController<0> viewDidLoad", "PhotoViewController<1> viewDidLoad",
            "DetailViewController deinit", "DetailViewController viewDidLoad",
        ])
        #expect(result.events.compactMap(\.controller?.displayName) == [
            "DetailViewController#1", "PhotoViewController<0>", "PhotoViewController<1>", "DetailViewController#1",
            "DetailViewController#4",
        ])
    }
}

@Suite("Line styles: files")
struct LineFileTests {
    @Test("`log show` columns: thread, type, activity, pid, ttl, process")
    func logShow() throws {
        let line = "2025-03-14 09:12:00.000114+0100 0x15d4b    Default     0x0                  2231   0    Notes: NoteEditorViewController viewDidLoad"
        let result = try ConsoleLogParser().parse(lines: [line])
        #expect(result.events.map(\.summary) == ["NoteEditorViewController#1 viewDidLoad"])
        #expect(result.wallClockAtZero == 1_741_939_920_000_114_000)
    }

    @Test("CRLF and CR line ends count lines like LF")
    func lineEnds() throws {
        let result = try ConsoleLogParser().parse(text: "A viewDidLoad\r\nnoise\r\nA viewWillAppear\rA viewDidAppear\n")
        #expect(result.lineCount == 4)
        #expect(result.events.compactMap { $0.source?.line } == [1, 3, 4])
        #expect(result.skippedLines.map(\.line) == [2])
        #expect(result.events.first?.source?.text == "A viewDidLoad")
    }

    @Test("a line of only punctuation or a bare number is skipped, never a crash", arguments: [
        "-", "[", "]", "<>", "⏱", "12:", "2025-13-40 25:61:61.000 A viewDidLoad", "99999999999999999999 x", "-[", "+[ ]", ":::",
    ])
    func oddLines(line: String) throws {
        _ = try ConsoleLogParser().parse(lines: [line])
    }
}
