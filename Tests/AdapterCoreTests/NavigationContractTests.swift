import AdapterCore
import Replay
import Testing
import TraceModel

/// Navigation flows: the adapter driven in the order UIKit calls it, its events replayed, the state compared
/// with `lifetrace simulate` of the same flow.
///
/// Orders: push, pop and the interactive pops as docs/SCENARIOS.md's command table gives them (from real logs
/// and the public reports it names); the cancelled swipe-back as Stack Overflow 18927878 reports it
/// ("viewWillDisappear is called … User aborts the swipe gesture … viewWillAppear is called, viewDidAppear is
/// called"); `popViewController(animated:)` called when the edge swipe is recognised (MLeaksFinder's
/// provisional pop, Tencent/MLeaksFinder UIViewController+MemoryLeak.m).
@Suite("Contract: navigation flows replay to the simulator's state")
struct NavigationContractTests {
    static let base = """
        at 0s launch
        at 0.1s root nav: UINavigationController(list: ListViewController)
        at 1s push editor: EditorViewController on nav

        """

    /// A navigation controller rooted in a list, on screen, with an editor pushed.
    static func pushedEditor() -> (FakeApp, nav: FakeController, list: FakeController, editor: FakeController) {
        let app = FakeApp()
        let list = FakeController("ListViewController")
        let nav = app.navigationController(root: list)
        app.setRoot(nav, visibleChild: list)
        let editor = FakeController("EditorViewController")
        push(app, editor, on: nav, over: list)
        return (app, nav, list, editor)
    }

    /// `pushViewController(_:animated: true)`: B.willMove(toParent:), B loads, A.viewWillDisappear,
    /// B.viewWillAppear, (animation), A.viewDidDisappear, B.viewDidAppear, B.didMove(toParent:).
    static func push(_ app: FakeApp, _ pushed: FakeController, on nav: FakeController, over top: FakeController) {
        let coordinator = FakeCoordinator(from: top, to: pushed, isInteractive: false)
        app.adapter.push(nav, pushed, animated: true) {
            app.willMove(pushed, to: nav)
            nav.stack!.append(pushed)
            pushed.parent = nav
            nav.coordinator = coordinator
            app.call(top, .viewWillDisappear, animated: true)
            app.willAppear(pushed, true)
        }
        app.call(top, .viewDidDisappear, animated: true)
        app.call(pushed, .viewDidAppear, animated: true)
        app.didMove(pushed, to: nav)
        app.complete(coordinator, on: nav)
    }

    /// The start of a pop (back button or edge swipe): UIKit calls popViewController(animated:), which calls
    /// B.willMove(toParent: nil), B.viewWillDisappear, A.viewWillAppear under the transition's coordinator.
    static func startPop(_ app: FakeApp, _ nav: FakeController, top: FakeController, below: FakeController, interactive: Bool) -> FakeCoordinator {
        let coordinator = FakeCoordinator(from: top, to: below, isInteractive: interactive)
        app.adapter.pop(nav, animated: true) {
            app.willMove(top, to: nil)
            nav.stack!.removeLast()
            nav.coordinator = coordinator
            app.call(top, .viewWillDisappear, animated: true)
            app.willAppear(below, true)
        }
        return coordinator
    }

    /// The end of a pop that completes: B.viewDidDisappear, A.viewDidAppear, B.didMove(toParent: nil), B deinit.
    static func endPop(_ app: FakeApp, _ nav: FakeController, _ coordinator: FakeCoordinator, top: FakeController, below: FakeController) {
        app.call(top, .viewDidDisappear, animated: true)
        app.call(below, .viewDidAppear, animated: true)
        top.parent = nil
        app.didMove(top, to: nil)
        app.complete(coordinator, on: nav)
        app.deallocate(top)
    }

    /// The end of a cancelled swipe-back: A.viewWillDisappear, A.viewDidDisappear, B.viewWillAppear,
    /// B.viewDidAppear; B is back on the stack, A never got viewDidAppear, B never viewDidDisappear.
    static func cancelPop(_ app: FakeApp, _ nav: FakeController, _ coordinator: FakeCoordinator, top: FakeController, below: FakeController) {
        nav.stack!.append(top)
        app.call(below, .viewWillDisappear, animated: true)
        app.call(below, .viewDidDisappear, animated: true)
        app.call(top, .viewWillAppear, animated: true)
        app.call(top, .viewDidAppear, animated: true)
        app.complete(coordinator, on: nav)
    }

    static func containerOperations(_ app: FakeApp) throws -> [String] {
        try app.events().compactMap { event in
            if case .container(let container) = event.payload { return container.operation.name }
            return nil
        }
    }

    @Test("push")
    func push() throws {
        let (app, _, _, _) = Self.pushedEditor()
        #expect(StateProjection(try app.replayed()) == (try StateProjection.simulated(Self.base)))
    }

    @Test("pop with the back button")
    func backButton() throws {
        let (app, nav, list, editor) = Self.pushedEditor()
        let coordinator = Self.startPop(app, nav, top: editor, below: list, interactive: false)
        Self.endPop(app, nav, coordinator, top: editor, below: list)
        let replayed = StateProjection(try app.replayed())
        #expect(replayed == (try StateProjection.simulated(Self.base + "at 3s pop nav\n")))
        #expect(replayed.lines.contains("EditorViewController: dead removal=popped"))
    }

    @Test("swipe-back finished: begin recorded before the pop UIKit calls when the swipe is recognised")
    func swipeBackFinished() throws {
        let (app, nav, list, editor) = Self.pushedEditor()
        nav.popGesture = .began
        let coordinator = Self.startPop(app, nav, top: editor, below: list, interactive: true)
        nav.popGesture = .ended
        coordinator.fingerLifts(cancelled: false)
        Self.endPop(app, nav, coordinator, top: editor, below: list)
        #expect(
            StateProjection(try app.replayed())
                == (try StateProjection.simulated(Self.base + "at 3s begin-swipe-back nav\nat 3.5s finish-swipe-back nav\n")))
        #expect(
            try Self.containerOperations(app).suffix(3)
                == ["interactiveTransitionBegin", "popViewController", "interactiveTransitionFinish"])
    }

    @Test("swipe-back cancelled: the editor stays on the stack, on screen")
    func swipeBackCancelled() throws {
        let (app, nav, list, editor) = Self.pushedEditor()
        nav.popGesture = .began
        let coordinator = Self.startPop(app, nav, top: editor, below: list, interactive: true)
        nav.popGesture = .ended
        coordinator.fingerLifts(cancelled: true)
        Self.cancelPop(app, nav, coordinator, top: editor, below: list)
        let replayed = StateProjection(try app.replayed())
        #expect(replayed == (try StateProjection.simulated(Self.base + "at 3s begin-swipe-back nav\nat 3.5s cancel-swipe-back nav\n")))
        #expect(replayed.lines.contains("EditorViewController: appeared parent=UINavigationController"))
        #expect(
            try Self.containerOperations(app).suffix(3)
                == ["interactiveTransitionBegin", "popViewController", "interactiveTransitionCancel"])
    }

    @Test("an interactive pop the gesture did not announce (the pop recorded first) is provisional in the replay")
    func popBeforeBegin() throws {
        // A custom interactive pop (the app's own gesture calls popViewController): the pop gesture recogniser
        // is idle, so the pop is recorded first and the begin at viewWillDisappear — the order the replay holds.
        let (app, nav, list, editor) = Self.pushedEditor()
        let coordinator = Self.startPop(app, nav, top: editor, below: list, interactive: true)
        coordinator.fingerLifts(cancelled: true)
        Self.cancelPop(app, nav, coordinator, top: editor, below: list)
        #expect(
            try Self.containerOperations(app).suffix(3)
                == ["popViewController", "interactiveTransitionBegin", "interactiveTransitionCancel"])
        #expect(
            StateProjection(try app.replayed())
                == (try StateProjection.simulated(Self.base + "at 3s begin-swipe-back nav\nat 3.5s cancel-swipe-back nav\n")))
    }

    @Test("long-press back menu: popToViewController pops everything above the chosen controller")
    func longPressBackMenu() throws {
        // iOS 14's back-button menu lists the stack (sarunw.com, "What should you know about a navigation history
        // stack in iOS 14"); choosing an entry pops to it, as popToViewController(_:animated:) does.
        let (app, nav, list, editor) = Self.pushedEditor()
        let preview = FakeController("PreviewViewController")
        Self.push(app, preview, on: nav, over: editor)
        let coordinator = FakeCoordinator(from: preview, to: list, isInteractive: false)
        app.adapter.popTo(nav, list, animated: true) {
            app.willMove(preview, to: nil)
            app.willMove(editor, to: nil)
            nav.stack = [list]
            nav.coordinator = coordinator
            app.call(preview, .viewWillDisappear, animated: true)
            app.willAppear(list, true)
        }
        app.call(preview, .viewDidDisappear, animated: true)
        app.call(list, .viewDidAppear, animated: true)
        for popped in [preview, editor] {
            popped.parent = nil
            app.didMove(popped, to: nil)
        }
        app.complete(coordinator, on: nav)
        app.deallocate(preview)
        app.deallocate(editor)
        let scenario = Self.base + "at 2s push preview: PreviewViewController on nav\nat 3s pop-to-root nav\n"
        #expect(StateProjection(try app.replayed()) == (try StateProjection.simulated(scenario)))
    }

    @Test("zoom transition grabbed and reversed: the push is undone")
    func zoomReversed() throws {
        let (app, nav, list, _) = Self.pushedEditorless()
        let photo = FakeController("PhotoViewController")
        // iOS 18 zoom transitions are interruptible: the user can grab the zooming view and drag it back.
        let coordinator = FakeCoordinator(from: list, to: photo, isInteractive: false, isInterruptible: true)
        app.adapter.push(nav, photo, animated: true) {
            app.willMove(photo, to: nav)
            nav.stack!.append(photo)
            photo.parent = nav
            nav.coordinator = coordinator
            app.call(list, .viewWillDisappear, animated: true)
            app.willAppear(photo, true)
        }
        coordinator.isInteractive = true
        coordinator.fingerLifts(cancelled: true)
        nav.stack!.removeLast()
        app.call(photo, .viewWillDisappear, animated: true)
        app.call(list, .viewWillAppear, animated: true)
        app.call(photo, .viewDidDisappear, animated: true)
        app.call(list, .viewDidAppear, animated: true)
        app.complete(coordinator, on: nav)
        app.deallocate(photo)
        let scenario = """
            at 0s launch
            at 0.1s root nav: UINavigationController(list: ListViewController)
            at 1s push photo: PhotoViewController on nav
            at 2s pop nav

            """
        #expect(StateProjection(try app.replayed()) == (try StateProjection.simulated(scenario)))
        #expect(
            try Self.containerOperations(app).suffix(3)
                == ["pushViewController", "interactiveTransitionBegin", "interactiveTransitionCancel"])
    }

    @Test("zoom transition grabbed and let go forward: the push stands")
    func zoomFinished() throws {
        let (app, nav, list, _) = Self.pushedEditorless()
        let photo = FakeController("PhotoViewController")
        let coordinator = FakeCoordinator(from: list, to: photo, isInteractive: false, isInterruptible: true)
        app.adapter.push(nav, photo, animated: true) {
            app.willMove(photo, to: nav)
            nav.stack!.append(photo)
            photo.parent = nav
            nav.coordinator = coordinator
            app.call(list, .viewWillDisappear, animated: true)
            app.willAppear(photo, true)
        }
        coordinator.isInteractive = true
        coordinator.fingerLifts(cancelled: false)
        app.call(list, .viewDidDisappear, animated: true)
        app.call(photo, .viewDidAppear, animated: true)
        app.didMove(photo, to: nav)
        app.complete(coordinator, on: nav)
        let scenario = """
            at 0s launch
            at 0.1s root nav: UINavigationController(list: ListViewController)
            at 1s push photo: PhotoViewController on nav

            """
        #expect(StateProjection(try app.replayed()) == (try StateProjection.simulated(scenario)))
    }

    /// A navigation controller rooted in a list, on screen, nothing pushed.
    static func pushedEditorless() -> (FakeApp, nav: FakeController, list: FakeController, Void) {
        let app = FakeApp()
        let list = FakeController("ListViewController")
        let nav = app.navigationController(root: list)
        app.setRoot(nav, visibleChild: list)
        return (app, nav, list, ())
    }
}
