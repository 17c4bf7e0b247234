import Testing
import TraceModel
@testable import Replay

/// docs/LIFECYCLE.md rows: app to background and back, viewIsAppearing, SwiftUI in a hosting controller.
@Suite("App state, viewIsAppearing, SwiftUI (docs/LIFECYCLE.md)")
struct AppAndSwiftUITests {
    static let list = NavigationTests.list

    @Test("background: no appearance callbacks; a save inside didEnterBackground is attributed to it")
    func background() {
        var store = FoldStore()
        store.replay(NavigationTests.setupEvents)
        let list = Self.list
        store.send(markEvent(MarkName.edit, list, 50, [MarkField("key", .string("draft"))])) {
            $0.with(list) { $0.unsaved = [UnsavedEdit(key: "draft", firstEdit: ms(50), firstOrdinal: 10, lastEdit: ms(50), lastOrdinal: 10, count: 1)] }
        }
        store.send(appEvent(.willResignActive, 100)) { $0.app = .inactive }
        let background = ActiveCallback(kind: .app(.didEnterBackground), controller: nil, since: ms(101), ordinal: 12, isInstant: false)
        store.send(appEvent(.didEnterBackground, 101, .begin)) {
            $0.app = .background
            $0.appCallbacks = [background]
            $0.executing = [background]
        }
        #expect(store.state.enclosingCallback(of: list) == background)
        #expect(store.state.enclosingCallback(of: nil) == background)
        store.send(.mark(.save(key: "draft", critical: true, controller: list), at: ms(102))) { $0.with(list) { $0.unsaved = [] } }
        store.send(appEvent(.didEnterBackground, 103, .end)) { $0.appCallbacks = []; $0.executing = [] }
        store.send(appEvent(.willEnterForeground, 200)) { $0.app = .inactive }
        store.send(appEvent(.didBecomeActive, 201)) { $0.app = .active }
        #expect(store.state.appearance(list) == .appeared)
        #expect(store.state.diagnostics.isEmpty)
    }

    @Test("scene callbacks update the scene and the app follows its most foreground scene")
    func scenes() {
        var store = FoldStore()
        store.send(appEvent(.willConnect, 0, scene: "S1")) { $0.scenes = ["S1": .connected]; $0.app = .connected }
        store.send(appEvent(.willEnterForeground, 1, scene: "S1")) { $0.scenes["S1"] = .inactive; $0.app = .inactive }
        store.send(appEvent(.didBecomeActive, 2, scene: "S1")) { $0.scenes["S1"] = .active; $0.app = .active }
        store.send(appEvent(.willConnect, 3, scene: "S2")) { $0.scenes["S2"] = .connected }
        store.send(appEvent(.willResignActive, 4, scene: "S1")) { $0.scenes["S1"] = .inactive; $0.app = .inactive }
        store.send(appEvent(.didEnterBackground, 5, scene: "S1")) { $0.scenes["S1"] = .background; $0.app = .connected }
        store.send(appEvent(.didDisconnect, 6, scene: "S2")) { $0.scenes["S2"] = .disconnected; $0.app = .background }
        store.send(appEvent(.willTerminate, 7)) { $0.app = .terminated }
    }

    @Test("viewIsAppearing runs between viewWillAppear and viewDidAppear; a geometry read inside it is attributed to it")
    func viewIsAppearing() {
        var store = FoldStore()
        let screen = ControllerRef(serial: 1, typeName: "ProfileViewController")
        store.send(cb(.initialize, screen, 0)) { $0.controllers[1] = .created(screen, at: 0, ordinal: 0) }
        store.send(cb(.viewWillAppear, screen, 1)) { $0.set(screen, .appearing, at: 1) }
        let appearing = ActiveCallback(kind: .controller(.viewIsAppearing), controller: screen, since: ms(2), ordinal: 2, isInstant: false)
        store.send(cb(.viewIsAppearing, screen, 2, .begin)) {
            $0.with(screen) { $0.callbacks = [appearing] }
            $0.executing = [appearing]
        }
        #expect(store.state.enclosingCallback(of: screen)?.callback == .viewIsAppearing)
        store.send(markEvent(MarkName.geometryRead, screen, 3, [MarkField("width", .double(390)), MarkField("height", .double(844))]))
        store.send(cb(.viewIsAppearing, screen, 4, .end)) { $0.with(screen) { $0.callbacks = [] }; $0.executing = [] }
        #expect(store.state.appearance(screen) == .appearing)
        store.send(cb(.viewDidAppear, screen, 5)) { $0.set(screen, .appeared, at: 5) }
    }

    @Test("SwiftUI onAppear/onDisappear follow render-tree membership; a sheet over the host gives neither")
    func swiftUI() {
        var store = FoldStore()
        let host = ControllerRef(serial: 1, typeName: "UIHostingController<ProfileView>")
        let sheet = ControllerRef(serial: 2, typeName: "SettingsViewController")
        store.send(cb(.initialize, host, 0)) { $0.controllers[1] = .created(host, at: 0, ordinal: 0) }
        store.send(cb(.viewWillAppear, host, 1)) { $0.set(host, .appearing, at: 1) }
        store.send(.init(timestamp: ms(2), .swiftUI(SwiftUIEvent(.onAppear, view: "ProfileView", host: host)))) {
            $0.with(host) { $0.swiftUIViews = [SwiftUIViewState(view: "ProfileView", isInRenderTree: true, appearCount: 1)] }
        }
        store.send(cb(.viewDidAppear, host, 3)) { $0.set(host, .appeared, at: 3) }
        store.send(cb(.initialize, sheet, 4)) { $0.controllers[2] = .created(sheet, at: 4, ordinal: 4) }
        store.send(op(.present, host, [sheet], 5, style: .pageSheet)) {
            $0.with(host) { $0.presentedController = 2 }
            $0.with(sheet) { $0.presentingController = 1; $0.presentationStyle = .pageSheet }
        }
        #expect(store.state[host]?.swiftUIViews.first?.isInRenderTree == true)
        store.send(.init(timestamp: ms(6), .swiftUI(SwiftUIEvent(.onDisappear, view: "ProfileView", host: host)))) {
            $0.with(host) { $0.swiftUIViews[0].isInRenderTree = false }
        }
        store.send(.init(timestamp: ms(7), .swiftUI(SwiftUIEvent(.onAppear, view: "ProfileView", host: host)))) {
            $0.with(host) { $0.swiftUIViews[0] = SwiftUIViewState(view: "ProfileView", isInRenderTree: true, appearCount: 2) }
        }
        store.send(.init(timestamp: ms(8), .swiftUI(SwiftUIEvent(.onAppear, view: "Banner")))) {
            $0.unhostedSwiftUIViews = [SwiftUIViewState(view: "Banner", isInRenderTree: true, appearCount: 1)]
        }
    }

    @Test("resources start and stop; marks without a controller belong to the enclosing callback's controller, else the app")
    func resources() {
        var store = FoldStore()
        let screen = ControllerRef(serial: 1, typeName: "FeedViewController")
        store.send(cb(.initialize, screen, 0)) { $0.controllers[1] = .created(screen, at: 0, ordinal: 0) }
        let didLoad = ActiveCallback(kind: .controller(.viewDidLoad), controller: screen, since: ms(1), ordinal: 1, isInstant: false)
        store.send(cb(.viewDidLoad, screen, 1, .begin)) {
            $0.with(screen) { $0.isViewLoaded = true; $0.viewDidLoadCount = 1; $0.callbacks = [didLoad] }
            $0.executing = [didLoad]
        }
        store.send(markEvent(MarkName.observerAdd, nil, 2, [MarkField("name", .string("keyboard"))])) {
            $0.with(screen) { $0.resources = [LiveResource(kind: .observer, id: "keyboard", since: ms(2), ordinal: 2, startedIn: didLoad)] }
        }
        store.send(markEvent(MarkName.requestStart, screen, 3, [MarkField("id", .int(7))])) {
            $0.with(screen) { $0.resources.append(LiveResource(kind: .request, id: "7", since: ms(3), ordinal: 3, startedIn: didLoad)) }
        }
        store.send(cb(.viewDidLoad, screen, 4, .end)) { $0.with(screen) { $0.callbacks = [] }; $0.executing = [] }
        store.send(markEvent(MarkName.taskStart, nil, 5, [MarkField("id", .string("sync"))])) {
            // The last callback (viewDidLoad) was an interval, not an instant, so nothing encloses this mark.
            $0.appResources = [LiveResource(kind: .task, id: "sync", since: ms(5), ordinal: 5, startedIn: nil)]
        }
        store.send(markEvent(MarkName.requestCancel, screen, 6, [MarkField("id", .int(7))])) { $0.with(screen) { $0.resources.removeLast() } }
        store.send(markEvent(MarkName.taskCancel, nil, 7, [MarkField("id", .string("sync"))])) { $0.appResources = [] }
        store.send(markEvent(MarkName.edit, nil, 8, [MarkField("key", .string("query"))])) {
            $0.appUnsaved = [UnsavedEdit(key: "query", firstEdit: ms(8), firstOrdinal: 8, lastEdit: ms(8), lastOrdinal: 8, count: 1)]
        }
        store.send(markEvent(MarkName.edit, nil, 9, [MarkField("key", .string("query"))])) {
            $0.appUnsaved[0].lastEdit = ms(9)
            $0.appUnsaved[0].lastOrdinal = 9
            $0.appUnsaved[0].count = 2
        }
        store.send(markEvent(MarkName.save, nil, 10)) { $0.appUnsaved = [] }
    }
}
