import AdapterCore
import LifetraceTestSupport
import Recorder
import Replay
import TraceModel

/// An adapter over `FakeUIKit`, recording into memory, with the pieces of UIKit's behaviour the contract tests
/// compose: each helper calls the adapter's entry points in the order UIKit calls the methods they stand for.
final class FakeApp {
    let ui = FakeUIKit()
    let sink = InMemorySink()
    let recorder: Recorder
    let adapter: Adapter<FakeUIKit>
    private var loaded: Set<ObjectIdentifier> = []

    init() {
        recorder = Recorder(sink: sink, clock: ManualClock(start: 1))
        adapter = Adapter(recorder: recorder, ui: ui)
    }

    /// Everything recorded so far (after the recorder's `runStarted`).
    func events() throws -> [Event] {
        try recorder.flush()
        return sink.written
    }

    /// The replayed state of everything recorded so far.
    func replayed() throws -> ReplayState {
        var state = ReplayState()
        for (ordinal, event) in try events().enumerated() { state.apply(event, ordinal: UInt64(ordinal)) }
        return state
    }

    // MARK: One controller's callbacks

    func call(_ controller: FakeController, _ callback: Callback, animated: Bool? = nil) {
        adapter.callback(controller, callback, animated: animated) {}
    }

    func willMove(_ controller: FakeController, to parent: FakeController?) {
        adapter.move(controller, .willMoveToParent, toParent: parent) {}
    }

    func didMove(_ controller: FakeController, to parent: FakeController?) {
        adapter.move(controller, .didMoveToParent, toParent: parent) {}
    }

    /// `view` read for the first time: loadView, viewDidLoad.
    func loadIfNeeded(_ controller: FakeController) {
        guard loaded.insert(ObjectIdentifier(controller)).inserted else { return }
        call(controller, .loadView)
        call(controller, .viewDidLoad)
    }

    func willAppear(_ controller: FakeController, _ animated: Bool) {
        loadIfNeeded(controller)
        call(controller, .viewWillAppear, animated: animated)
    }

    /// The last reference goes: the instrumented dealloc, inside which the associated-object sentinel goes.
    func deallocate(_ controller: FakeController) {
        let key = ObjectIdentifier(controller)
        guard let ref = recorder.registry.ref(for: key) else { return }
        adapter.deallocate(key) {
            adapter.controllerReleased(key: key, ref: ref)
        }
    }

    // MARK: Containers, as UIKit builds them

    /// `UINavigationController(rootViewController:)` — Apple: "a convenience method for initializing the receiver
    /// and pushing a root view controller onto the navigation stack".
    func navigationController(root: FakeController, type: String = "UINavigationController") -> FakeController {
        let nav = FakeController(type)
        nav.stack = []
        adapter.push(nav, root, animated: false) {
            willMove(root, to: nav)
            nav.stack = [root]
            root.parent = nav
            didMove(root, to: nav)
        }
        return nav
    }

    /// `UITabBarController()` then `viewControllers = tabs`: the tabs are added, the first one selected.
    func tabBarController(_ tabs: [FakeController]) -> FakeController {
        let bar = FakeController("UITabBarController")
        adapter.setViewControllers(bar, tabs, animated: false) {
            bar.tabs = tabs
            for tab in tabs {
                willMove(tab, to: bar)
                tab.parent = bar
                didMove(tab, to: bar)
            }
        }
        adapter.selectTab(bar, index: 0) {}
        return bar
    }

    /// `window.rootViewController = root` and the window shown: root and its visible child appear, unanimated.
    func setRoot(_ root: FakeController, visibleChild: FakeController?) {
        adapter.setRoot(root) {}
        willAppear(root, false)
        if let visibleChild { willAppear(visibleChild, false) }
        call(root, .viewDidAppear, animated: false)
        if let visibleChild { call(visibleChild, .viewDidAppear, animated: false) }
    }

    /// Ends a coordinator's transition: the completion handlers run, the coordinator goes.
    func complete(_ coordinator: FakeCoordinator, on container: FakeController) {
        coordinator.complete()
        container.coordinator = nil
    }
}
