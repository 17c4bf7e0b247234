import Testing
import TraceModel
@testable import Audit

/// The real logs of Tests/Fixtures/cases, re-typed as the instant-only events the console importer produces
/// (times from the first line). The importer's end-to-end tests run the real files; these pin the rules'
/// behaviour on the same shapes without depending on the importer.
@Suite("Rules on the shapes of the real cases")
struct RealCaseShapeTests {
    func audit(_ log: String) throws -> [Finding] {
        try Auditor().audit(InstantLog(log).events)
    }

    @Test("case 01: save only in viewWillDisappear, pop cancelled, later edit lost at background")
    func case01() throws {
        let findings = try audit("""
            0.000000 NotesListViewController viewDidLoad
            0.004756 NotesListViewController viewWillAppear
            0.311288 NotesListViewController viewDidAppear
            2.119919 NoteEditorViewController viewDidLoad
            2.121096 NotesListViewController viewWillDisappear
            2.121890 NoteEditorViewController viewWillAppear
            2.470037 NotesListViewController viewDidDisappear
            2.471076 NoteEditorViewController viewDidAppear
            4.002697 NoteEditorViewController edit key=draft
            5.903663 NoteEditorViewController viewWillDisappear
            5.903988 NoteEditorViewController save critical=true key=draft
            5.905386 NotesListViewController viewWillAppear
            6.288816 NotesListViewController viewWillDisappear
            6.289297 NotesListViewController viewDidDisappear
            6.289898 NoteEditorViewController viewWillAppear
            6.290757 NoteEditorViewController viewDidAppear
            8.511235 NoteEditorViewController edit key=draft
            9.700136 app willResignActive scene=main
            10.214361 app didEnterBackground scene=main
            """)
        #expect(findings.map(\.ruleID) == ["critical_save_placement", "unsaved_edit_at_exit"])
        let save = try #require(findings.first)
        #expect(save.severity == .error)
        #expect(save.ordinal == 10)
        #expect(save.timestamp == 5_903_988_000)
        #expect(save.callback == "viewWillDisappear")
        #expect(save.controller == "NoteEditorViewController#2")
        #expect(save.related.map(\.ordinal) == [9, 14])
        #expect(save.related.last?.timestamp == 6_289_898_000)
        let lost = try #require(findings.last)
        #expect(lost.severity == .error)
        #expect(lost.timestamp == 10_214_361_000)
        #expect(lost.callback == "sceneDidEnterBackground(_:)")
        #expect(lost.related.map(\.timestamp) == [8_511_235_000])
        #expect(lost.message.contains("8.511 s") && lost.message.contains("10.214 s"))
    }

    @Test("case 02: push then pop with dealloc: no findings")
    func case02() throws {
        let findings = try audit("""
            0.000 ProductDetailViewController init
            0.001 ProductDetailViewController loadView
            0.002 ProductDetailViewController viewDidLoad
            0.003 CatalogViewController viewWillDisappear
            0.004 ProductDetailViewController viewWillAppear
            0.005 ProductDetailViewController viewWillLayoutSubviews
            0.006 ProductDetailViewController viewDidLayoutSubviews
            0.007 CatalogViewController viewDidDisappear
            0.008 ProductDetailViewController viewDidAppear
            0.009 ProductDetailViewController viewWillDisappear
            0.010 CatalogViewController viewWillAppear
            0.011 ProductDetailViewController viewDidDisappear
            0.012 CatalogViewController viewDidAppear
            0.013 ProductDetailViewController deinit
            """)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    @Test("case 04: FirstViewController gets viewDidDisappear twice: one appearance_balance")
    func case04() throws {
        let findings = try audit("""
            0.00 FirstViewController viewDidLoad
            0.01 FirstViewController viewWillAppear
            0.02 FirstViewController viewDidAppear
            0.03 SecondViewController loadView
            0.04 SecondViewController viewDidLoad
            0.05 FirstViewController viewWillDisappear
            0.06 SecondViewController viewWillAppear
            0.07 SecondViewController viewWillLayoutSubviews
            0.08 SecondViewController viewDidLayoutSubviews
            0.09 FirstViewController viewWillLayoutSubviews
            0.10 FirstViewController viewDidLayoutSubviews
            0.11 SecondViewController viewDidAppear
            0.12 FirstViewController viewDidDisappear
            0.13 ThirdViewController loadView
            0.14 ThirdViewController viewDidLoad
            0.15 SecondViewController viewWillDisappear
            0.16 ThirdViewController viewWillAppear
            0.17 FirstViewController viewDidDisappear
            0.18 ThirdViewController viewWillLayoutSubviews
            0.19 ThirdViewController viewDidLayoutSubviews
            0.20 ThirdViewController viewDidAppear
            0.21 SecondViewController viewDidDisappear
            """)
        #expect(findings.map(\.ruleID) == ["appearance_balance"])
        #expect(findings.first?.controller == "FirstViewController#1")
        #expect(findings.first?.ordinal == 17)
        #expect(findings.first?.severity == .warning)
    }

    @Test("case 05: viewDidAppear twice on the forwarded tab")
    func case05() throws {
        let findings = try audit("""
            0.0 PagerContainerViewController viewDidLoad
            0.1 PagerContainerViewController viewWillAppear
            0.2 TrendingTabViewController viewDidLoad
            0.3 TrendingTabViewController viewWillAppear
            0.4 TrendingTabViewController viewDidAppear
            0.5 PagerContainerViewController viewDidAppear
            0.6 TrendingTabViewController viewDidAppear
            """)
        #expect(findings.map(\.ruleID) == ["appearance_balance"])
        #expect(findings.first?.controller == "TrendingTabViewController#2")
        #expect(findings.first?.message.contains("viewDidAppear twice") == true)
    }

    @Test("cases 06 and 07: tab switch and a cancelled page scroll are legal")
    func legalOrders() throws {
        let tabs = try audit("""
            0.000 InboxViewController viewDidLoad
            0.002 InboxViewController viewWillAppear
            0.289 InboxViewController viewDidAppear
            6.748 ContactsViewController viewDidLoad
            6.750 ContactsViewController viewWillAppear
            6.751 InboxViewController viewWillDisappear
            6.759 InboxViewController viewDidDisappear
            6.760 ContactsViewController viewDidAppear
            """)
        #expect(tabs.isEmpty)
        let pages = try audit("""
            0.000 PhotoPageViewController<0> viewWillAppear
            0.210 PhotoPageViewController<0> viewDidAppear
            3.000 PhotoPageViewController<1> viewDidLoad
            3.001 PhotoPageViewController<1> viewWillAppear
            3.002 PhotoPageViewController<0> viewWillDisappear
            3.400 PhotoPageViewController<0> viewWillAppear
            3.401 PhotoPageViewController<0> viewDidAppear
            3.402 PhotoPageViewController<1> viewWillDisappear
            3.403 PhotoPageViewController<1> viewDidDisappear
            """)
        #expect(pages.isEmpty, "\(pages.map(\.message))")
    }

    @Test("case 08: popped, never deinitialized: leaked_controller at the removal, 9.381 s")
    func case08() throws {
        let findings = try audit("""
            0.000 FeedViewController viewDidAppear
            3.120 StoryViewController viewDidLoad
            3.121 FeedViewController viewWillDisappear
            3.122 StoryViewController viewWillAppear
            3.498 FeedViewController viewDidDisappear
            3.499 StoryViewController viewDidAppear
            3.499 StoryViewController didMove(toParent:) UINavigationController
            9.000 StoryViewController willMove(toParent:) nil
            9.001 StoryViewController viewWillDisappear
            9.002 FeedViewController viewWillAppear
            9.380 StoryViewController viewDidDisappear
            9.381 FeedViewController viewDidAppear
            9.381 StoryViewController didMove(toParent:) nil
            30.000 FeedViewController viewWillDisappear
            30.001 FeedViewController viewDidDisappear
            """)
        #expect(findings.map(\.ruleID) == ["leaked_controller"])
        let leak = try #require(findings.first)
        #expect(leak.severity == .error && leak.verdict == .violation)
        #expect(leak.timestamp == 9_381_000_000)
        #expect(leak.controller == "StoryViewController#2")
        #expect(leak.message.contains("9.381 s") && leak.message.contains("30.001 s"))
    }

    @Test("case 08 cut at 12 s: the 5 s grace has not run out, so the finding is an inconclusive note")
    func case08Cut() throws {
        let findings = try audit("""
            0.000 FeedViewController viewDidAppear
            3.499 StoryViewController didMove(toParent:) UINavigationController
            9.000 StoryViewController willMove(toParent:) nil
            9.381 StoryViewController didMove(toParent:) nil
            12.000 FeedViewController viewWillDisappear
            """)
        #expect(findings.map(\.verdict) == [.inconclusive])
        #expect(findings.first?.severity == .note)
    }

    @Test("case 09: chat draft typed twice, app backgrounded: one unsaved_edit_at_exit listing both edits")
    func case09() throws {
        let findings = try audit("""
            0.000 ConversationViewController viewDidLoad
            0.002 ConversationViewController viewWillAppear
            0.340 ConversationViewController viewDidAppear
            4.516 ConversationViewController edit key=draft
            8.877 ConversationViewController edit key=draft
            12.401 app willResignActive
            12.910 app didEnterBackground
            """)
        #expect(findings.map(\.ruleID) == ["unsaved_edit_at_exit"])
        #expect(findings.first?.related.map(\.timestamp) == [4_516_000_000, 8_877_000_000])
        #expect(findings.first?.timestamp == 12_910_000_000)
        #expect(findings.first?.callback == "applicationDidEnterBackground(_:)")
    }

    @Test("case 11: page 0 gets viewWillDisappear twice: one appearance_balance at 5.467 s")
    func case11() throws {
        let findings = try audit("""
            0.000 <2> viewWillAppear
            0.008 <2> viewDidAppear
            5.459 <0> viewWillDisappear
            5.460 <3> viewWillAppear
            5.467 <0> viewWillDisappear
            5.467 <3> viewDidAppear
            """)
        #expect(findings.map(\.ruleID) == ["appearance_balance"])
        #expect(findings.first?.timestamp == 5_467_000_000)
        #expect(findings.first?.controller == "0")
    }

    @Test("instant attribution: a save logged after another controller's callback line is not inside viewWillDisappear")
    func attributionWindow() throws {
        let inside = try audit("""
            0.0 Editor viewDidAppear
            1.0 Editor viewWillDisappear
            1.1 Editor save critical=true key=draft
            1.2 List viewWillAppear
            """)
        #expect(inside.map(\.ruleID) == ["critical_save_placement"])
        #expect(inside.first?.related.first?.ordinal == 1)
        let after = try audit("""
            0.0 Editor viewDidAppear
            1.0 Editor viewWillDisappear
            1.1 List viewWillAppear
            1.2 Editor save critical=true key=draft
            """)
        #expect(after.isEmpty)
    }

    @Test("a save right after an instant viewDidDisappear counts as made before the exit")
    func saveInsideInstantExit() throws {
        let findings = try audit("""
            0.0 Editor viewDidAppear
            0.5 Editor edit key=draft
            1.0 Editor viewWillDisappear
            1.1 Editor viewDidDisappear
            1.2 Editor save critical=true key=draft
            1.3 List viewDidAppear
            """)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
        let late = try audit("""
            0.0 Editor viewDidAppear
            0.5 Editor edit key=draft
            1.0 Editor viewWillDisappear
            1.1 Editor viewDidDisappear
            1.2 List viewDidAppear
            1.3 Editor save critical=true key=draft
            """)
        #expect(late.map(\.ruleID) == ["unsaved_edit_at_exit"])
    }
}
