import AdapterCore
import Replay
import Testing
import TraceModel

/// Tab bar and page controller flows against `lifetrace simulate`. Orders: docs/SCENARIOS.md's `select-tab`
/// (new before old), `scroll`, `begin-scroll`, `cancel-scroll` rows (real log 07 for the page order).
@Suite("Contract: tab and page flows replay to the simulator's state")
struct ContainerContractTests {
    /// A tab tap: B loads the first time, B.viewWillAppear, A.viewWillDisappear, A.viewDidDisappear,
    /// B.viewDidAppear — run inside whichever setter nests inside the other.
    static func switchTab(_ app: FakeApp, from old: FakeController, to new: FakeController) {
        app.willAppear(new, false)
        app.call(old, .viewWillDisappear, animated: false)
        app.call(old, .viewDidDisappear, animated: false)
        app.call(new, .viewDidAppear, animated: false)
    }

    @Test("tab taps: one selection recorded once, whichever setter calls the other")
    func tabTaps() throws {
        let app = FakeApp()
        let inbox = FakeController("InboxViewController")
        let settings = FakeController("SettingsViewController")
        let bar = app.tabBarController([inbox, settings])
        app.setRoot(bar, visibleChild: inbox)
        // selectedViewController's setter calling selectedIndex's …
        app.adapter.selectTab(bar, settings) {
            app.adapter.selectTab(bar, index: 1) { Self.switchTab(app, from: inbox, to: settings) }
        }
        // … and the other way round.
        app.adapter.selectTab(bar, index: 0) {
            app.adapter.selectTab(bar, inbox) { Self.switchTab(app, from: settings, to: inbox) }
        }
        let scenario = """
            at 0s launch
            at 0.1s root tabs: UITabBarController(inbox: InboxViewController, settings: SettingsViewController)
            at 1s select-tab tabs settings
            at 2s select-tab tabs inbox

            """
        #expect(StateProjection(try app.replayed()) == (try StateProjection.simulated(scenario)))
        let selections = try app.events().compactMap { event -> Int? in
            if case .container(let container) = event.payload, container.operation == .selectTab { return container.index }
            return nil
        }
        #expect(selections == [0, 1, 0])
    }

    @Test("page scroll finished, then one cancelled, inferred from the pages' appearance callbacks")
    func pageScroll() throws {
        let app = FakeApp()
        let first = FakeController("FirstPage")
        let pages = FakeController("UIPageViewController")
        pages.pages = []
        app.adapter.setViewControllers(pages, [first], animated: false) {
            pages.pages = [first]
            app.willMove(first, to: pages)
            first.parent = pages
            app.didMove(first, to: pages)
        }
        app.setRoot(pages, visibleChild: first)
        let second = FakeController("SecondPage")
        addPage(app, second, to: pages)
        app.willAppear(second, true)
        app.call(first, .viewWillDisappear, animated: true)
        app.call(second, .viewDidAppear, animated: true)
        app.call(first, .viewDidDisappear, animated: true)
        pages.pages = [second]
        removePage(app, first, from: pages)
        let third = FakeController("ThirdPage")
        addPage(app, third, to: pages)
        app.willAppear(third, true)
        app.call(second, .viewWillDisappear, animated: true)
        // Let go before the middle: the current page comes back, the new one goes without ever appearing.
        app.call(second, .viewWillAppear, animated: true)
        app.call(second, .viewDidAppear, animated: true)
        app.call(third, .viewWillDisappear, animated: true)
        app.call(third, .viewDidDisappear, animated: true)
        removePage(app, third, from: pages)
        let scenario = """
            at 0s launch
            at 0.1s root pages: UIPageViewController(p0: FirstPage)
            at 3s scroll pages to p1: SecondPage
            at 6s begin-scroll pages to p2: ThirdPage
            at 6.4s cancel-scroll pages

            """
        #expect(StateProjection(try app.replayed()) == (try StateProjection.simulated(scenario)))
        let operations = try NavigationContractTests.containerOperations(app).filter { $0.hasPrefix("interactive") }
        #expect(operations == ["interactiveTransitionBegin", "interactiveTransitionFinish", "interactiveTransitionBegin", "interactiveTransitionCancel"])
    }

    /// The page controller adds the page the drag reveals (the simulator's assumption too: docs/SCENARIOS.md).
    func addPage(_ app: FakeApp, _ page: FakeController, to pages: FakeController) {
        app.adapter.addChild(pages, page) {
            app.willMove(page, to: pages)
            page.parent = pages
        }
        app.didMove(page, to: pages)
    }

    func removePage(_ app: FakeApp, _ page: FakeController, from pages: FakeController) {
        app.willMove(page, to: nil)
        app.adapter.removeFromParent(page) {
            page.parent = nil
            app.didMove(page, to: nil)
        }
        app.deallocate(page)
    }

    @Test("setViewControllers of a page controller infers no scroll")
    func programmaticPages() throws {
        let app = FakeApp()
        let first = FakeController("FirstPage")
        let second = FakeController("SecondPage")
        let pages = FakeController("UIPageViewController")
        pages.pages = [first]
        first.parent = pages
        app.adapter.setViewControllers(pages, [second], animated: true) {
            second.parent = pages
            app.willAppear(second, true)
            app.call(first, .viewWillDisappear, animated: true)
            app.call(second, .viewDidAppear, animated: true)
            app.call(first, .viewDidDisappear, animated: true)
            pages.pages = [second]
        }
        #expect(!(try NavigationContractTests.containerOperations(app)).contains { $0.hasPrefix("interactive") })
    }
}
