import Testing
import TraceModel
@testable import Replay

/// docs/LIFECYCLE.md rows: tab switch, page scroll (finished and cancelled), child containment.
@Suite("Tabs, pages and containment (docs/LIFECYCLE.md)")
struct ContainerTests {
    static let tabs = ControllerRef(serial: 1, typeName: "UITabBarController")
    static let inbox = ControllerRef(serial: 2, typeName: "InboxViewController")
    static let contacts = ControllerRef(serial: 3, typeName: "ContactsViewController")

    @Test("tab switch A→B: new before old, unlike push")
    func tabSwitch() {
        var store = FoldStore()
        let (tabs, inbox, contacts) = (Self.tabs, Self.inbox, Self.contacts)
        store.send(cb(.initialize, tabs, 0)) { $0.controllers[1] = .created(tabs, at: 0, ordinal: 0) }
        store.send(cb(.initialize, inbox, 1)) { $0.controllers[2] = .created(inbox, at: 1, ordinal: 1) }
        store.send(cb(.initialize, contacts, 2)) { $0.controllers[3] = .created(contacts, at: 2, ordinal: 2) }
        store.send(op(.setRoot, nil, [tabs], 3)) { $0.windowRoot = 1; $0.with(tabs) { $0.parent = .window } }
        store.send(op(.setViewControllers, tabs, [inbox, contacts], 4)) {
            $0.with(tabs) { $0.viewControllers = [2, 3]; $0.isViewControllerListComplete = true; $0.children = [2, 3] }
            $0.with(inbox) { $0.parent = .controller(1) }
            $0.with(contacts) { $0.parent = .controller(1) }
        }
        store.send(op(.selectTab, tabs, [inbox], 5, index: 0)) {
            $0.with(tabs) { $0.containerKind = .tabBar; $0.selectedController = 2; $0.selectedIndex = 0 }
        }
        store.send(cb(.viewDidLoad, inbox, 6)) { $0.with(inbox) { $0.isViewLoaded = true; $0.viewDidLoadCount = 1 } }
        store.send(cb(.viewWillAppear, inbox, 7)) { $0.set(inbox, .appearing, at: 7) }
        store.send(cb(.viewDidAppear, inbox, 8)) { $0.set(inbox, .appeared, at: 8) }

        store.send(op(.selectTab, tabs, [contacts], 100, index: 1)) { $0.with(tabs) { $0.selectedController = 3; $0.selectedIndex = 1 } }
        store.send(cb(.viewDidLoad, contacts, 101)) { $0.with(contacts) { $0.isViewLoaded = true; $0.viewDidLoadCount = 1 } }
        store.send(cb(.viewWillAppear, contacts, 102)) { $0.set(contacts, .appearing, at: 102) }
        store.send(cb(.viewWillDisappear, inbox, 103)) { $0.set(inbox, .disappearing, at: 103) }
        store.send(cb(.viewDidDisappear, inbox, 104)) { $0.set(inbox, .disappeared, at: 104) }
        store.send(cb(.viewDidAppear, contacts, 105)) { $0.set(contacts, .appeared, at: 105) }
        #expect(store.state.diagnostics.isEmpty)
    }

    static let pager = ControllerRef(serial: 1, typeName: "UIPageViewController")
    static let page0 = ControllerRef(serial: 2, typeName: "PhotoPageViewController", label: "0")
    static let page1 = ControllerRef(serial: 3, typeName: "PhotoPageViewController", label: "1")

    static func pagerStore() -> FoldStore {
        var store = FoldStore()
        store.replay([
            cb(.initialize, pager, 0), cb(.initialize, page0, 1), cb(.initialize, page1, 2),
            op(.setViewControllers, pager, [page0], 3),
            cb(.viewWillAppear, page0, 4), cb(.viewDidAppear, page0, 5),
        ])
        return store
    }

    static func beginScroll(_ store: inout FoldStore) {
        let (pager, page0, page1) = (Self.pager, Self.page0, Self.page1)
        store.send(op(.interactiveTransitionBegin, pager, [page0, page1], 100)) {
            $0.with(pager) { $0.containerKind = .page }
            $0.transitions = [InFlightTransition(kind: .pageScroll, container: 1, from: 2, to: 3, since: ms(100), ordinal: 6)]
        }
        store.send(cb(.viewWillAppear, page1, 101)) { $0.set(page1, .appearing, at: 101) }
        store.send(cb(.viewWillDisappear, page0, 102)) { $0.set(page0, .disappearing, at: 102) }
        #expect(store.state.appearance(page0) == .disappearing)
        #expect(store.state.appearance(page1) == .appearing)
    }

    @Test("page scroll finished: new willAppear, current willDisappear, new didAppear, current didDisappear")
    func pageScroll() {
        var store = Self.pagerStore()
        Self.beginScroll(&store)
        let (pager, page0, page1) = (Self.pager, Self.page0, Self.page1)
        store.send(cb(.viewDidAppear, page1, 103)) { $0.set(page1, .appeared, at: 103) }
        store.send(cb(.viewDidDisappear, page0, 104)) { $0.set(page0, .disappeared, at: 104) }
        store.send(op(.interactiveTransitionFinish, pager, [page0, page1], 105)) {
            $0.transitions = []
            $0.with(pager) { $0.viewControllers = [3]; $0.children = [3] }
            $0.with(page0) { $0.parent = .none; $0.removal = Removal(kind: .replaced, time: ms(105), ordinal: 11) }
            $0.with(page1) { $0.parent = .controller(1) }
        }
        #expect(store.state.diagnostics.isEmpty)
    }

    @Test("page scroll cancelled: current gets willAppear/didAppear again, new gets willDisappear/didDisappear without didAppear")
    func pageScrollCancelled() {
        var store = Self.pagerStore()
        Self.beginScroll(&store)
        let (pager, page0, page1) = (Self.pager, Self.page0, Self.page1)
        store.send(cb(.viewWillAppear, page0, 103)) { $0.set(page0, .appearing, at: 103) }
        store.send(cb(.viewDidAppear, page0, 104)) { $0.set(page0, .appeared, at: 104) }
        store.send(cb(.viewWillDisappear, page1, 105)) { $0.set(page1, .disappearing, at: 105) }
        store.send(cb(.viewDidDisappear, page1, 106)) { $0.set(page1, .disappeared, at: 106) }
        store.send(op(.interactiveTransitionCancel, pager, [page0, page1], 107)) { $0.transitions = [] }
        #expect(store.state.diagnostics.isEmpty)
        #expect(store.state[pager]?.viewControllers == [2])
    }

    static let parent = ControllerRef(serial: 1, typeName: "DashboardViewController")
    static let child = ControllerRef(serial: 2, typeName: "ChartViewController")

    @Test("child containment: addChild, attach the view, didMove; removal: willMove(nil), removeFromParent, didMove(nil)")
    func containment() {
        var store = FoldStore()
        let (parent, child) = (Self.parent, Self.child)
        store.send(cb(.initialize, parent, 0)) { $0.controllers[1] = .created(parent, at: 0, ordinal: 0) }
        store.send(cb(.initialize, child, 1)) { $0.controllers[2] = .created(child, at: 1, ordinal: 1) }
        store.send(op(.addChild, parent, [child], 2)) {
            $0.with(parent) { $0.children = [2] }
            $0.with(child) { $0.parent = .controller(1) }
        }
        store.send(cb(.willMoveToParent, child, 3, parent: .controller(parent)))
        store.send(op(.attachView, parent, [child], 4)) { $0.with(child) { $0.viewAttachedTo = 1 } }
        store.send(cb(.didMoveToParent, child, 5, parent: .controller(parent)))
        store.send(cb(.willMoveToParent, child, 6, parent: ParentArgument.none))
        store.send(op(.removeFromParent, parent, [child], 7)) {
            $0.with(parent) { $0.children = [] }
            $0.with(child) { $0.parent = .none; $0.removal = Removal(kind: .removedFromParent, time: ms(7), ordinal: 7) }
        }
        store.send(cb(.didMoveToParent, child, 8, parent: ParentArgument.none))
        #expect(store.state.diagnostics.isEmpty)
    }

    @Test("didMove(toParent: nil) alone records the removal (imported logs)")
    func didMoveToNilAlone() {
        var store = FoldStore()
        let child = Self.child
        let nav = ControllerRef(serial: 3, typeName: "UINavigationController")
        store.send(cb(.didMoveToParent, child, 0, parent: .controller(nav))) {
            var state = ControllerState(ref: child, firstSeen: 0, ordinal: 0)
            state.parent = .controller(3)
            $0.controllers[2] = state
            var navState = ControllerState(ref: nav, firstSeen: 0, ordinal: 0)
            navState.children = [2]
            $0.controllers[3] = navState
        }
        store.send(cb(.didMoveToParent, child, 10, parent: ParentArgument.none)) {
            $0.with(nav) { $0.children = [] }
            $0.with(child) { $0.parent = .none; $0.removal = Removal(kind: .movedToNilParent, time: ms(10), ordinal: 1) }
        }
    }
}
