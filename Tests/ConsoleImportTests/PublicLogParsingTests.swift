import Foundation
import Testing
import TraceModel
@testable import ConsoleImport

/// The logs of Tests/Fixtures/public at the parser level, and the general forms of the line styles they showed.
@Suite("Public logs: parsing")
struct PublicLogParsingTests {
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/public")

    static func parse(_ name: String) throws -> ConsoleImportResult {
        let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        return try ConsoleLogParser(sourceFile: name).parse(text: text)
    }

    static func summary(_ line: String) throws -> String {
        let result = try ConsoleLogParser().parse(lines: [line])
        #expect(result.skippedLines.isEmpty, "skipped: \(line)")
        return try #require(result.events.first).summary
    }

    @Test("CSDN: `CurrentView Will Disappear`, the type name glued to the words")
    func csdn() throws {
        let result = try Self.parse("csdn-cancelled-swipe-back.log")
        #expect(result.lines == [
            "0.000 CurrentView#1 viewWillAppear", "3.093 CurrentView#1 viewWillDisappear",
            "3.093 CurrentView#1 viewDidDisappear", "3.093 NewView#2 viewWillAppear", "3.093 NewView#2 viewDidAppear",
        ])
        #expect(result.skippedLines.map(\.line) == [1, 2])
    }

    @Test("wjhsh.net: words with aligned columns")
    func aligned() throws {
        let result = try Self.parse("wjhsh-push-pop-aligned.log")
        #expect(result.lines == [
            "0.000 A#1 viewWillDisappear", "0.001 B#2 viewWillAppear", "0.002 A#1 viewDidDisappear",
            "0.003 B#2 viewDidAppear", "0.004 B#2 viewWillDisappear", "0.005 A#1 viewWillAppear",
            "0.006 B#2 viewDidDisappear", "0.007 A#1 viewDidAppear",
        ])
        // The two comment lines and the two banners.
        #expect(result.skippedLines.map(\.line) == [1, 2, 3, 10])
    }

    @Test("DTFoundation #33: parents after the Objective-C bracket, `animated:1`")
    func dtFoundation() throws {
        let result = try Self.parse("dtfoundation-side-panel-reparent.log")
        #expect(result.lines == [
            "0.000 LoggingNavigationController#1 willMove(toParent:) parent=nil",
            "0.000 LoggingNavigationController#1 didMove(toParent:) parent=nil",
            "0.000 LoggingNavigationController#1 willMove(toParent:) parent=DTSidePanelController#2",
            "0.001 ModalPanelViewController#3 viewWillAppear animated=true",
            "0.001 LoggingNavigationController#1 viewWillAppear animated=true",
            "0.253 ModalPanelViewController#3 viewDidAppear animated=true",
            "0.254 LoggingNavigationController#1 viewDidAppear animated=true",
        ])
    }

    @Test("openradar 12322346: bare names, one anonymous controller")
    func radar() throws {
        let result = try Self.parse("openradar-12322346-no-will-appear.log")
        #expect(result.lines == [
            "0.000 (anonymous)#1 loadView", "0.001 (anonymous)#1 viewDidLoad", "0.002 (anonymous)#1 viewDidAppear",
        ])
    }

    @Test("MNPageViewController #8: a page tag after `selector: `, colour components after it")
    func pageTags() throws {
        let result = try Self.parse("mnpageviewcontroller-duplicate-will-disappear.log")
        #expect(result.lines == [
            "0.000 2 viewWillAppear", "0.008 2 viewDidAppear", "5.459 0 viewWillDisappear", "5.460 3 viewWillAppear",
            "5.467 0 viewWillDisappear", "5.467 3 viewDidAppear", "9.247 1 viewWillDisappear", "9.248 1 viewWillDisappear",
        ])
    }

    @Test("vastdevblog: `<A: 0x6c11b10> viewDidLoad`; the navigation controller's delegate lines are marks on the controller shown")
    func printedSelves() throws {
        let result = try Self.parse("vastdevblog-two-instances-by-address.log")
        // The UINavigationController printed on the delegate lines is the delegate's object, not a controller of
        // the log's history: the five willShow/didShow lines go to A or B, the controller each prints.
        #expect(result.controllers.map(\.displayName) == ["A#1", "B#2"])
        #expect(result.events.count == 16)
        #expect(result.events.filter { $0.summary.hasPrefix("mark uikit.callback") }.map(\.summary) == [
            "mark uikit.callback method=navigationController(_:willShow:animated:) of=UINavigationControllerDelegate @ A#1",
            "mark uikit.callback method=navigationController(_:didShow:animated:) of=UINavigationControllerDelegate @ A#1",
            "mark uikit.callback method=navigationController(_:didShow:animated:) of=UINavigationControllerDelegate @ A#1",
            "mark uikit.callback method=prepare(for:sender:) of=UIViewController @ A#1",
            "mark uikit.callback method=navigationController(_:willShow:animated:) of=UINavigationControllerDelegate @ B#2",
            "mark uikit.callback method=navigationController(_:didShow:animated:) of=UINavigationControllerDelegate @ B#2",
        ])
        // The two header lines and the two text field lines.
        #expect(result.skippedLines.map(\.line) == [1, 2, 17, 18])
    }

    @Test("readke.com: numbered `N: Class selector:` lines; `loadViewIfNeeded` is a uikit.callback mark")
    func numbered() throws {
        let result = try Self.parse("readke-numbered-push-pop.log")
        #expect(Array(result.lines.prefix(4)) == [
            "0.000 A_ViewController#1 init", "0.001 A_ViewController#1 loadView", "0.002 A_ViewController#1 viewDidLoad",
            "0.003 mark uikit.callback method=loadViewIfNeeded() of=UIViewController @ A_ViewController#1",
        ])
        #expect(result.lines.last == "0.025 B_ViewController#2 deinit")
        #expect(result.skippedLines.map(\.line) == [1, 2])
    }

    @Test("the name after a bare selector and a space", arguments: [
        // openradar 14058168 (lionheart/openradar-mirror#4931): "Root" is the window's root controller.
        ("2013-06-04 17:28:12.095 ChildViewControllerTest[3833:c07] viewWillAppear: Root", "Root viewWillAppear"),
        ("viewDidAppear: 2 UIDeviceRGBColorSpace 1 0.5 0 1", "2 viewDidAppear"),
        ("viewDidAppear: YES", "(anonymous)#1 viewDidAppear animated=true"),
        ("viewWillDisappear: begin", "(anonymous)#1 viewWillDisappear begin"),
        ("viewWillAppear: called", "(anonymous)#1 viewWillAppear"),
        ("viewWillAppear: animated=1", "(anonymous)#1 viewWillAppear animated=true"),
        ("-[Feed viewWillAppear:] Root", "Feed#1 viewWillAppear"),
    ])
    func nameAfterSelector(line: String, summary: String) throws {
        #expect(try Self.summary(line) == summary)
    }

    @Test("the parent in every spelling", arguments: [
        ("-[Child willMoveToParentViewController:] (null)", "Child#1 willMove(toParent:) parent=nil"),
        ("-[Child didMoveToParentViewController:] <null>", "Child#1 didMove(toParent:) parent=nil"),
        ("-[Child didMoveToParentViewController:] <Shell: 0xabad3f0>", "Child#1 didMove(toParent:) parent=Shell#2"),
        ("Child willMove(toParent: nil)", "Child#1 willMove(toParent:) parent=nil"),
        ("Child didMove(toParent: Optional(<MyApp.Shell: 0x7fb2c8d0a2b0>))", "Child#1 didMove(toParent:) parent=Shell#2"),
        ("Child didMove(toParent:) MyApp.Shell", "Child#1 didMove(toParent:) parent=Shell#2"),
        ("Child didMove(toParent:) nil", "Child#1 didMove(toParent:) parent=nil"),
        ("Child didMove(toParent: self)", "Child#1 didMove(toParent:)"),
        ("Child didMove(toParent:)", "Child#1 didMove(toParent:)"),
    ])
    func parents(line: String, summary: String) throws {
        #expect(try Self.summary(line) == summary)
    }

    @Test("callbacks in words", arguments: [
        ("CurrentView Will Appear", "CurrentView#1 viewWillAppear"),
        ("NewView Did appear", "NewView#1 viewDidAppear"),
        ("A  view did  disappear <A_ViewController: 0x7fa11067a730>", "A#1 viewDidDisappear"),
        ("view\twill appear", "(anonymous)#1 viewWillAppear"),
        ("Inbox: view will layout subviews", "Inbox#1 viewWillLayoutSubviews"),
        ("ProfileView did load begin", "ProfileView#1 viewDidLoad begin"),
    ])
    func words(line: String, summary: String) throws {
        #expect(try Self.summary(line) == summary)
    }

    @Test("words that only look like a callback are skipped", arguments: [
        "preview will appear soon", "Overview: the view will appearance", "CurrentViewWill Appear",
    ])
    func notWords(line: String) throws {
        let result = try ConsoleLogParser().parse(lines: [line])
        #expect(result.events.isEmpty, "read as \(result.events.map(\.summary))")
    }
}
