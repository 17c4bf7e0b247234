import Simulator
import Testing
import TraceModel

/// One test per row of docs/LIFECYCLE.md's table: the simulated order against the documented one.
@Suite("docs/LIFECYCLE.md lifecycle contract")
struct LifecycleContractTests {
    static let navigation = """
        at 0s   root nav: UINavigationController(a: A)
        at 1s   push b: B on nav
        """

    @Test("push A→B: B loads, A will-disappears before B will-appears, presenter's did first")
    func push() throws {
        let run = try Run(Self.navigation)
        let steps = run.events(from: "push")
        #expect(Run.order(steps) == [
            "B.willMove(UINavigationController)", "B.loadView", "B.viewDidLoad", "A.viewWillDisappear",
            "B.viewWillAppear", "A.viewDidDisappear", "B.viewDidAppear", "B.didMove(UINavigationController)",
        ])
        // (B layout) comes between B.viewWillAppear and A.viewDidDisappear.
        let full = Run.order(steps, excluding: [])
        let layout = try #require(full.firstIndex(of: "B.viewWillLayoutSubviews"))
        #expect(layout > full.firstIndex(of: "B.viewWillAppear")!)
        #expect(layout < full.firstIndex(of: "A.viewDidDisappear")!)
    }

    @Test("pop B→A with the back button: willMove(nil) first, didMove(nil) then deinit last")
    func pop() throws {
        let run = try Run(Self.navigation + "\nat 3s   pop nav")
        #expect(Run.order(run.events(from: "pop")) == [
            "B.willMove(nil)", "B.viewWillDisappear", "A.viewWillAppear", "B.viewDidDisappear", "A.viewDidAppear",
            "B.didMove(nil)", "B.deinit",
        ])
    }

    @Test("pop of a controller kept alive by a retain cycle: no deinit")
    func popRetained() throws {
        let run = try Run("class B\n    viewDidLoad: capture-self\n" + Self.navigation + "\nat 3s   pop nav")
        let order = Run.order(run.events(from: "pop"))
        #expect(order.last == "B.didMove(nil)")
        #expect(!order.contains("B.deinit"))
    }

    @Test("interactive pop, finished: as pop; the did-callbacks come after the finger lifts")
    func interactivePopFinished() throws {
        let run = try Run(Self.navigation + "\nat 3s   begin-swipe-back nav\nat 3.4s finish-swipe-back nav")
        #expect(Run.order(run.events(from: "begin-swipe-back")) == [
            "B.willMove(nil)", "B.viewWillDisappear", "A.viewWillAppear", "B.viewDidDisappear", "A.viewDidAppear",
            "B.didMove(nil)", "B.deinit",
        ])
        let beforeLift = Run.order(run.events(from: "begin-swipe-back", until: "finish-swipe-back"))
        #expect(!beforeLift.contains("B.viewDidDisappear") && !beforeLift.contains("A.viewDidAppear"))
        for event in run.events(from: "finish-swipe-back") {
            #expect(event.timestamp >= 3_400_000_000)
        }
    }

    @Test("interactive pop, cancelled: B never gets viewDidDisappear, A never gets viewDidAppear")
    func interactivePopCancelled() throws {
        let run = try Run(Self.navigation + "\nat 3s   begin-swipe-back nav\nat 3.4s cancel-swipe-back nav")
        let order = Run.order(run.events(from: "begin-swipe-back"), excluding: Run.layoutAndInit.union([.willMoveToParent]))
        #expect(order == [
            "B.viewWillDisappear", "A.viewWillAppear", "A.viewWillDisappear", "A.viewDidDisappear", "B.viewWillAppear",
            "B.viewDidAppear",
        ])
        // UIKit calls willMove(toParent: nil) as the gesture starts, and nothing undoes it.
        #expect(Run.order(run.events(from: "begin-swipe-back")).first == "B.willMove(nil)")
        #expect(!Run.order(run.events).contains("B.deinit"))
    }

    @Test("present full screen: presenter's did-callback comes last; dismiss reverses it")
    func presentFullScreen() throws {
        let run = try Run("""
            at 0s   root a: A
            at 1s   present b: B from a as fullScreen
            at 3s   dismiss b
            """)
        #expect(Run.order(run.events(from: "present", until: "dismiss")) == [
            "B.loadView", "B.viewDidLoad", "A.viewWillDisappear", "B.viewWillAppear", "B.viewDidAppear",
            "A.viewDidDisappear",
        ])
        #expect(Run.order(run.events(from: "dismiss")) == [
            "B.viewWillDisappear", "A.viewWillAppear", "B.viewDidDisappear", "A.viewDidAppear", "B.deinit",
        ])
    }

    @Test(
        "present pageSheet/formSheet/overFullScreen/custom: the presenter gets no callbacks on present or dismiss",
        arguments: ["pageSheet", "formSheet", "overFullScreen", "custom", "automatic", "overCurrentContext", "popover"]
    )
    func presentKeepsPresenter(style: String) throws {
        let run = try Run("""
            at 0s   root a: A
            at 1s   present b: B from a as \(style)
            at 3s   dismiss b
            """)
        let order = Run.order(run.events(from: "present"))
        #expect(!order.contains { $0.hasPrefix("A.") })
        #expect(order == [
            "B.loadView", "B.viewDidLoad", "B.viewWillAppear", "B.viewDidAppear", "B.viewWillDisappear",
            "B.viewDidDisappear", "B.deinit",
        ])
    }

    @Test("a covered screen keeps its timers running under a sheet")
    func timerUnderSheet() throws {
        let run = try Run("""
            class A
                viewDidAppear: timer.start id=refresh
                viewDidDisappear: timer.stop id=refresh
            at 0s   root a: A
            at 1s   present b: B from a as pageSheet
            """)
        let marks = run.events.compactMap { event -> String? in
            if case .mark(let mark) = event.payload { return mark.name }
            return nil
        }
        #expect(marks == ["timer.start"])
    }

    @Test("sheet swipe-down: presentationControllerShouldDismiss → WillDismiss → DidDismiss")
    func sheetSwipeDown() throws {
        let run = try Run("""
            at 0s   root a: A
            at 1s   present b: B from a as pageSheet
            at 3s   swipe-down b
            """)
        #expect(Run.order(run.events(from: "swipe-down"), containers: true) == [
            "▸presentationControllerShouldDismiss", "▸presentationControllerWillDismiss", "B.viewWillDisappear",
            "B.viewDidDisappear", "▸presentationControllerDidDismiss", "B.deinit",
        ])
    }

    @Test("sheet swipe-down with isModalInPresentation: only DidAttemptToDismiss, the sheet stays")
    func sheetSwipeDownRefused() throws {
        let run = try Run("""
            class B
                modalInPresentation
            at 0s   root a: A
            at 1s   present b: B from a as formSheet
            at 3s   swipe-down b
            """)
        #expect(Run.order(run.events(from: "swipe-down"), containers: true) == ["▸presentationControllerDidAttemptToDismiss"])
    }

    @Test("tab switch A→B: new before old; viewDidLoad only the first time")
    func tabSwitch() throws {
        let run = try Run("""
            at 0s   root tabs: UITabBarController(a: A, b: B)
            at 1s   select-tab tabs b
            at 2s   select-tab tabs 0
            at 3s   select-tab tabs 1
            """)
        #expect(Run.order(run.events(from: "select-tab tabs b", until: "select-tab tabs 0")) == [
            "B.loadView", "B.viewDidLoad", "B.viewWillAppear", "A.viewWillDisappear", "A.viewDidDisappear",
            "B.viewDidAppear",
        ])
        #expect(Run.order(run.events(from: "select-tab tabs 1")) == [
            "B.viewWillAppear", "A.viewWillDisappear", "A.viewDidDisappear", "B.viewDidAppear",
        ])
    }

    @Test("UIPageViewController scroll, finished and cancelled")
    func pageScroll() throws {
        let run = try Run("""
            at 0s   root pages: UIPageViewController(cur: Cur)
            at 1s   scroll pages to new: New
            at 3s   begin-scroll pages to other: Other
            at 3.3s cancel-scroll pages
            """)
        let appearance: Set<Callback> = Set(Callback.allCases.filter { !$0.isAppearanceCallback })
        #expect(Run.order(run.events(from: "scroll", until: "begin-scroll"), excluding: appearance) == [
            "New.viewWillAppear", "Cur.viewWillDisappear", "New.viewDidAppear", "Cur.viewDidDisappear",
        ])
        #expect(Run.order(run.events(from: "begin-scroll"), excluding: appearance) == [
            "Other.viewWillAppear", "New.viewWillDisappear", "New.viewWillAppear", "New.viewDidAppear",
            "Other.viewWillDisappear", "Other.viewDidDisappear",
        ])
    }

    @Test("child containment: addChild calls willMove, the container calls didMove; removal mirrors it")
    func containment() throws {
        let run = try Run("""
            at 0s   root p: P
            at 1s   add-child c: C to p
            at 2s   remove-child c
            """)
        #expect(Run.order(run.events(from: "add-child", until: "remove-child"), containers: true) == [
            "▸addChild", "C.willMove(P)", "▸attachView", "C.loadView", "C.viewDidLoad", "C.viewWillAppear",
            "C.viewDidAppear", "C.didMove(P)",
        ])
        #expect(Run.order(run.events(from: "remove-child"), containers: true) == [
            "C.willMove(nil)", "C.viewWillDisappear", "C.viewDidDisappear", "▸removeFromParent", "C.didMove(nil)",
            "C.deinit",
        ])
    }

    @Test("a child added without addChild draws but is orphaned: no containment or appearance callbacks")
    func orphanChild() throws {
        let run = try Run("""
            at 0s   root nav: UINavigationController(p: P)
            at 1s   add-view c: C to p
            at 2s   push q: Q on nav
            """)
        let added = Run.order(run.events(from: "add-view"), excluding: [.initialize], only: ["C"])
        #expect(added == ["C.loadView", "C.viewDidLoad", "C.viewWillLayoutSubviews", "C.viewDidLayoutSubviews"])
        #expect(Run.order(run.events(from: "add-view"), containers: true).first == "▸attachView")
        #expect(!Run.order(run.events(from: "add-view")).contains { $0.hasPrefix("C.viewWillDisappear") })
    }

    @Test("viewIsAppearing: after viewWillAppear, before layout and viewDidAppear; the first reliable geometry")
    func viewIsAppearing() throws {
        let run = try Run("""
            class A
                viewWillAppear: geometry.read
                viewIsAppearing: geometry.read
            at 0s   root a: A
            """)
        #expect(Run.order(run.events, excluding: [.initialize, .loadView, .viewDidLoad]) == [
            "A.viewWillAppear", "A.viewIsAppearing", "A.viewWillLayoutSubviews", "A.viewDidLayoutSubviews",
            "A.viewDidAppear",
        ])
        let reads = run.events.compactMap { event -> Double? in
            if case .mark(let mark) = event.payload { return mark[field: "width"]?.doubleValue }
            return nil
        }
        #expect(reads == [375, 390])
    }

    @Test("app to background and back: no viewWillDisappear/viewDidDisappear, scene callbacks in order")
    func background() throws {
        let run = try Run("""
            scene main
            at 0s   launch
            at 0s   root a: A
            at 1s   background
            at 2s   foreground
            """)
        let steps = Array(run.events(from: "background"))
        #expect(Run.order(steps).isEmpty)
        let transitions = steps.compactMap { event -> String? in
            if case .app(let app) = event.payload, app.phase != .end { return app.delegateMethodName }
            return nil
        }
        #expect(transitions == [
            "sceneWillResignActive(_:)", "sceneDidEnterBackground(_:)", "sceneWillEnterForeground(_:)",
            "sceneDidBecomeActive(_:)",
        ])
    }

    @Test("SwiftUI in UIHostingController: onAppear while appearing, a sheet over the host gives neither")
    func hosting() throws {
        let run = try Run("""
            at 0s   root host: UIHostingController<ProfileView>
            at 1s   present s: S from host as pageSheet
            at 2s   swipe-down s
            """)
        var order: [String] = []
        for event in run.events {
            switch event.payload {
            case .swiftUI(let swiftUI): order.append("\(swiftUI.view).\(swiftUI.action)")
            case .callback(let callback) where callback.phase == .begin && callback.callback.isAppearanceCallback:
                if callback.controller.typeName.hasPrefix("UIHosting") { order.append("host.\(callback.callback.name)") }
            default: break
            }
        }
        #expect(order == ["host.viewWillAppear", "ProfileView.onAppear", "host.viewDidAppear"])
    }

    @Test("onAppear follows render-tree membership: a cancelled swipe-back over a host counts an appearance")
    func onAppearOverCounts() throws {
        let run = try Run("""
            at 0s   root nav: UINavigationController(host: UIHostingController<FeedView>)
            at 1s   push d: D on nav
            at 2s   begin-swipe-back nav
            at 2.3s cancel-swipe-back nav
            """)
        let onAppears = run.events.filter { if case .swiftUI(let e) = $0.payload { e.action == .onAppear } else { false } }
        let didAppears = Run.order(run.events).filter { $0 == "UIHostingController<FeedView>.viewDidAppear" }
        #expect(onAppears.count == 2)
        #expect(didAppears.count == 1)
    }
}
