import Testing
import TraceModel
@testable import Replay

/// docs/LIFECYCLE.md rows for a navigation controller: push, pop, interactive pop finished and cancelled.
@Suite("Navigation transitions (docs/LIFECYCLE.md)")
struct NavigationTests {
    static let nav = ControllerRef(serial: 1, typeName: "UINavigationController")
    static let list = ControllerRef(serial: 2, typeName: "ListViewController")
    static let detail = ControllerRef(serial: 3, typeName: "DetailViewController")

    /// Window → navigation controller → [list], everything appeared. Ordinals 0…9, times 0…9 ms.
    static let setupEvents: [Event] = [
        cb(.initialize, nav, 0), cb(.initialize, list, 1),
        op(.setRoot, nil, [nav], 2), op(.setViewControllers, nav, [list], 3),
        cb(.viewDidLoad, nav, 4), cb(.viewDidLoad, list, 5),
        cb(.viewWillAppear, nav, 6), cb(.viewWillAppear, list, 7),
        cb(.viewDidAppear, nav, 8), cb(.viewDidAppear, list, 9),
    ]

    /// Push of the detail controller after the setup (ordinals 10…19, times 100…109 ms).
    static let pushEvents: [Event] = [
        cb(.initialize, detail, 100),
        op(.push, nav, [detail], 101),
        cb(.willMoveToParent, detail, 102, parent: .controller(nav)),
        cb(.loadView, detail, 103),
        cb(.viewDidLoad, detail, 104),
        cb(.viewWillDisappear, list, 105),
        cb(.viewWillAppear, detail, 106),
        cb(.viewDidDisappear, list, 107),
        cb(.viewDidAppear, detail, 108),
        cb(.didMoveToParent, detail, 109, parent: .controller(nav)),
    ]

    static func pushedStore() -> FoldStore {
        var store = FoldStore()
        store.replay(setupEvents + pushEvents)
        return store
    }

    @Test("the setup builds the whole expected state")
    func setup() {
        var state = ReplayState()
        for (ordinal, event) in Self.setupEvents.enumerated() { state.apply(event, ordinal: UInt64(ordinal)) }

        var expected = ReplayState()
        expected.startTime = 0
        expected.time = ms(9)
        expected.eventCount = 10
        expected.lastOrdinal = 9
        expected.windowRoot = 1
        var nav = ControllerState.created(Self.nav, at: 0, ordinal: 0)
        nav.parent = .window
        nav.children = [2]
        nav.viewControllers = [2]
        nav.isViewControllerListComplete = true
        nav.isViewLoaded = true
        nav.viewDidLoadCount = 1
        nav.appearance = .appeared
        nav.appearanceSince = ms(8)
        var list = ControllerState.created(Self.list, at: 1, ordinal: 1)
        list.parent = .controller(1)
        list.isViewLoaded = true
        list.viewDidLoadCount = 1
        list.appearance = .appeared
        list.appearanceSince = ms(9)
        expected.controllers = [1: nav, 2: list]
        expected.lastCallback = ActiveCallback(kind: .controller(.viewDidAppear), controller: Self.list, since: ms(9), ordinal: 9, isInstant: true)
        #expect(state == expected, "\(FoldStore.difference(state, expected))")
    }

    @Test("push A→B: B loads, A disappears while B appears, B joins the stack")
    func push() {
        var store = FoldStore()
        store.replay(Self.setupEvents)
        let (nav, list, detail) = (Self.nav, Self.list, Self.detail)
        store.send(Self.pushEvents[0]) { $0.controllers[3] = .created(detail, at: 100, ordinal: 10) }
        store.send(Self.pushEvents[1]) {
            $0.with(nav) { $0.containerKind = .navigation; $0.viewControllers = [2, 3]; $0.children = [2, 3] }
            $0.with(detail) { $0.parent = .controller(1) }
        }
        store.send(Self.pushEvents[2])
        store.send(Self.pushEvents[3]) { $0.with(detail) { $0.isViewLoaded = true } }
        store.send(Self.pushEvents[4]) { $0.with(detail) { $0.viewDidLoadCount = 1 } }
        store.send(Self.pushEvents[5]) { $0.set(list, .disappearing, at: 105) }
        store.send(Self.pushEvents[6]) { $0.set(detail, .appearing, at: 106) }
        // Mid-push: both controllers are in flight.
        #expect(store.state.appearance(list) == .disappearing)
        #expect(store.state.appearance(detail) == .appearing)
        store.send(Self.pushEvents[7]) { $0.set(list, .disappeared, at: 107) }
        store.send(Self.pushEvents[8]) { $0.set(detail, .appeared, at: 108) }
        store.send(Self.pushEvents[9])
        #expect(store.state.diagnostics.isEmpty)
        #expect(store.state[nav]?.viewControllers == [2, 3])
    }

    @Test("pop B→A with the back button: B removed at the pop, then dies")
    func pop() {
        var store = Self.pushedStore()
        let (nav, list, detail) = (Self.nav, Self.list, Self.detail)
        store.send(op(.pop, nav, [detail], 200)) {
            $0.with(nav) { $0.viewControllers = [2]; $0.children = [2] }
            $0.with(detail) { $0.parent = .none; $0.removal = Removal(kind: .popped, time: ms(200), ordinal: 20) }
        }
        store.send(cb(.willMoveToParent, detail, 201, parent: ParentArgument.none))
        store.send(cb(.viewWillDisappear, detail, 202)) { $0.set(detail, .disappearing, at: 202) }
        store.send(cb(.viewWillAppear, list, 203)) { $0.set(list, .appearing, at: 203) }
        store.send(cb(.viewDidDisappear, detail, 204)) { $0.set(detail, .disappeared, at: 204) }
        store.send(cb(.viewDidAppear, list, 205)) { $0.set(list, .appeared, at: 205) }
        store.send(cb(.didMoveToParent, detail, 206, parent: ParentArgument.none))
        store.send(cb(.deinitialize, detail, 207, .begin)) {
            let deinitCall = ActiveCallback(kind: .controller(.deinitialize), controller: detail, since: ms(207), ordinal: 27, isInstant: false)
            $0.with(detail) { $0.deinitTime = ms(207); $0.deinitOrdinal = 27; $0.callbacks = [deinitCall] }
            $0.executing = [deinitCall]
        }
        // A mark inside deinit is not an event after deinit.
        store.send(markEvent(MarkName.teardown, detail, 208, [MarkField("what", .string("observers"))]))
        store.send(cb(.deinitialize, detail, 209, .end)) {
            $0.with(detail) { $0.callbacks = [] }
            $0.executing = []
            $0.retainedDead = [3]
            $0.deadSerials.insert(3)
        }
        #expect(store.state.diagnostics.isEmpty)
        #expect(store.state[detail]?.isAlive == false)
    }

    @Test("setViewControllers dropping B: B removed (`replaced`) at the operation, like a pop; nothing more until it dies")
    func setViewControllersDrops() {
        var store = Self.pushedStore()
        let (nav, list, detail) = (Self.nav, Self.list, Self.detail)
        store.send(op(.setViewControllers, nav, [list], 200)) {
            $0.with(nav) { $0.viewControllers = [2]; $0.children = [2]; $0.isViewControllerListComplete = true }
            $0.with(detail) { $0.parent = .none; $0.removal = Removal(kind: .replaced, time: ms(200), ordinal: 20) }
        }
        store.send(cb(.viewWillDisappear, detail, 201)) { $0.set(detail, .disappearing, at: 201) }
        store.send(cb(.viewWillAppear, list, 202)) { $0.set(list, .appearing, at: 202) }
        store.send(cb(.viewDidDisappear, detail, 203)) { $0.set(detail, .disappeared, at: 203) }
        store.send(cb(.viewDidAppear, list, 204)) { $0.set(list, .appeared, at: 204) }
        #expect(store.state.diagnostics.isEmpty)
        #expect(store.state[detail]?.isAlive == true)
        #expect(store.state[detail]?.removal?.kind == .replaced)
    }

    @Test("interactive pop cancelled: B never gets viewDidDisappear, A never gets viewDidAppear; the save in viewWillDisappear is attributed to it")
    func interactivePopCancelled() throws {
        var store = Self.pushedStore()
        let (nav, list, detail) = (Self.nav, Self.list, Self.detail)
        store.send(markEvent(MarkName.edit, detail, 290, [MarkField("key", .string("draft"))])) {
            $0.with(detail) { $0.unsaved = [UnsavedEdit(key: "draft", firstEdit: ms(290), firstOrdinal: 20, lastEdit: ms(290), lastOrdinal: 20, count: 1)] }
        }
        store.send(op(.interactiveTransitionBegin, nav, [detail, list], 300)) {
            $0.transitions = [InFlightTransition(kind: .interactivePop, container: 1, from: 3, to: 2, since: ms(300), ordinal: 21)]
        }
        let willDisappear = ActiveCallback(kind: .controller(.viewWillDisappear), controller: detail, since: ms(301), ordinal: 22, isInstant: false)
        store.send(cb(.viewWillDisappear, detail, 301, .begin)) {
            $0.set(detail, .disappearing, at: 301)
            $0.with(detail) { $0.callbacks = [willDisappear] }
            $0.executing = [willDisappear]
        }
        #expect(store.state.enclosingCallback(of: detail) == willDisappear)
        store.send(.mark(.save(key: "draft", critical: true, controller: detail), at: ms(302))) {
            $0.with(detail) { $0.unsaved = [] }
        }
        store.send(cb(.viewWillDisappear, detail, 303, .end)) {
            $0.with(detail) { $0.callbacks = [] }
            $0.executing = []
        }
        store.send(cb(.viewWillAppear, list, 304)) { $0.set(list, .appearing, at: 304) }
        // Halfway through the cancelled swipe-back both are in flight.
        #expect(store.state.appearance(detail) == .disappearing)
        #expect(store.state.appearance(list) == .appearing)
        #expect(store.state.transitions.count == 1)
        store.send(cb(.viewWillDisappear, list, 305)) { $0.set(list, .disappearing, at: 305) }
        store.send(cb(.viewDidDisappear, list, 306)) { $0.set(list, .disappeared, at: 306) }
        store.send(cb(.viewWillAppear, detail, 307)) { $0.set(detail, .appearing, at: 307) }
        store.send(cb(.viewDidAppear, detail, 308)) { $0.set(detail, .appeared, at: 308) }
        store.send(op(.interactiveTransitionCancel, nav, [detail, list], 309)) { $0.transitions = [] }
        #expect(store.state.diagnostics.isEmpty)
        #expect(store.state[nav]?.viewControllers == [2, 3])
        #expect(store.state[detail]?.removal == nil)
    }

    @Test("interactive pop finished: the pop takes effect when the finger lifts")
    func interactivePopFinished() {
        var store = Self.pushedStore()
        let (nav, list, detail) = (Self.nav, Self.list, Self.detail)
        store.send(op(.interactiveTransitionBegin, nav, [detail, list], 300)) {
            $0.transitions = [InFlightTransition(kind: .interactivePop, container: 1, from: 3, to: 2, since: ms(300), ordinal: 20)]
        }
        store.send(cb(.viewWillDisappear, detail, 301)) { $0.set(detail, .disappearing, at: 301) }
        store.send(cb(.viewWillAppear, list, 302)) { $0.set(list, .appearing, at: 302) }
        store.send(op(.pop, nav, [detail], 303)) { $0.transitions[0].popRequested = true }
        store.send(cb(.viewDidDisappear, detail, 304)) { $0.set(detail, .disappeared, at: 304) }
        store.send(cb(.viewDidAppear, list, 305)) { $0.set(list, .appeared, at: 305) }
        store.send(op(.interactiveTransitionFinish, nav, [detail, list], 306)) {
            $0.transitions = []
            $0.with(nav) { $0.viewControllers = [2]; $0.children = [2] }
            $0.with(detail) { $0.parent = .none; $0.removal = Removal(kind: .popped, time: ms(306), ordinal: 26) }
        }
        #expect(store.state.diagnostics.isEmpty)
    }

    @Test("a pop requested during a swipe that is then cancelled changes nothing")
    func popDuringCancelledSwipe() {
        var store = Self.pushedStore()
        let (nav, list, detail) = (Self.nav, Self.list, Self.detail)
        store.send(op(.interactiveTransitionBegin, nav, [detail, list], 300)) {
            $0.transitions = [InFlightTransition(kind: .interactivePop, container: 1, from: 3, to: 2, since: ms(300), ordinal: 20)]
        }
        store.send(op(.pop, nav, [detail], 301)) { $0.transitions[0].popRequested = true }
        store.send(op(.interactiveTransitionCancel, nav, [detail, list], 302)) { $0.transitions = [] }
        #expect(store.state[detail]?.parent == .controller(1))
    }
}
