import Testing
import TraceModel
@testable import Replay

/// Several recording runs in one trace: a `runStarted` after earlier events ends the previous process.
@Suite("Recording runs: runStarted ends the previous process")
struct RunTests {
    static let nav = NavigationTests.nav
    static let list = NavigationTests.list
    static let detail = NavigationTests.detail

    static func run(_ process: String, _ time: UInt64) -> Event {
        Event(timestamp: ms(time), .recorder(.runStarted(process: process)))
    }

    /// Run 1 (the navigation setup and push of `NavigationTests`, ordinals 0…19, app launched and active at
    /// ordinals 20…21), an unsaved edit and a viewWillDisappear begun on the detail controller (22…23).
    static func killedMidCallbackStore() -> FoldStore {
        var store = NavigationTests.pushedStore()
        let detail = Self.detail
        store.send(appEvent(.didFinishLaunching, 110)) { $0.app = .launched }
        store.send(appEvent(.didBecomeActive, 111)) { $0.app = .active }
        store.send(markEvent(MarkName.edit, detail, 200, [MarkField("key", .string("draft"))])) {
            $0.with(detail) { $0.unsaved = [UnsavedEdit(key: "draft", firstEdit: ms(200), firstOrdinal: 22, lastEdit: ms(200), lastOrdinal: 22, count: 1)] }
        }
        let willDisappear = ActiveCallback(kind: .controller(.viewWillDisappear), controller: detail, since: ms(210), ordinal: 23, isInstant: false)
        store.send(cb(.viewWillDisappear, detail, 210, .begin)) {
            $0.set(detail, .disappearing, at: 210)
            $0.with(detail) { $0.callbacks = [willDisappear] }
            $0.executing = [willDisappear]
        }
        store.send(op(.interactiveTransitionBegin, Self.nav, [detail, Self.list], 211)) {
            $0.transitions = [InFlightTransition(kind: .interactivePop, container: 1, from: 3, to: 2, since: ms(211), ordinal: 24)]
        }
        return store
    }

    @Test("a runStarted as the first event changes nothing but the bookkeeping")
    func firstRun() {
        var store = FoldStore()
        store.send(Self.run("App[1]", 0))
        #expect(store.state.diagnostics.isEmpty)
    }

    @Test("the next run ends every live controller with its process (not a deinit), clears callbacks, transitions, app state, and reports the callback it died in")
    func killedMidCallback() {
        var store = Self.killedMidCallbackStore()
        let (nav, list, detail) = (Self.nav, Self.list, Self.detail)
        store.send(Self.run("App[2]", 900)) {
            for ref in [nav, list, detail] {
                $0.with(ref) { $0.processEndTime = ms(900); $0.processEndOrdinal = 25 }
            }
            // What the process left stays on the records: appearance, links, the unsaved draft.
            $0.with(detail) { $0.callbacks = [] }
            $0.executing = []
            $0.transitions = []
            $0.app = .unknown
            $0.windowRoot = nil
            $0.retainedDead = [1, 2, 3]
            $0.deadSerials.insert(1)
            $0.deadSerials.insert(2)
            $0.deadSerials.insert(3)
            // Through `report`, which also counts it (`diagnosticCounts`) and keeps it as the latest.
            $0.report(
                .processEndedInCallback, 25, ms(900), detail,
                "a new run started (App[2]) while the previous process was still inside DetailViewController#3.viewWillDisappear: it ended mid-callback (crash or kill)"
            )
        }
        #expect(store.state[detail]?.isAlive == false)
        #expect(store.state[detail]?.endedWithProcess == true)
        #expect(store.state[detail]?.deinitTime == nil)
        #expect(store.state[detail]?.unsaved.map(\.key) == ["draft"])
        #expect(store.state.enclosingCallback(of: detail) == nil)
    }

    @Test("the new run starts clean: new serials are fresh controllers; an old serial named again is an event after its end")
    func nextRun() {
        var store = Self.killedMidCallbackStore()
        store.replay([Self.run("App[2]", 900)])
        let newNav = ControllerRef(serial: 4, typeName: "UINavigationController")
        store.send(appEvent(.didFinishLaunching, 901)) { $0.app = .launched }
        store.send(cb(.initialize, newNav, 902)) { $0.controllers[4] = .created(newNav, at: 902, ordinal: 27) }
        store.send(op(.setRoot, nil, [newNav], 903)) {
            $0.windowRoot = 4
            $0.with(newNav) { $0.parent = .window }
        }
        store.send(cb(.viewDidAppear, Self.list, 904)) {
            $0.set(Self.list, .appeared, at: 904)
            $0.report(.eventAfterDeinit, 29, ms(904), Self.list, "viewDidAppear instant after its process ended")
            $0.report(.didWithoutWill, 29, ms(904), Self.list, "viewDidAppear without viewWillAppear (was disappeared)")
        }
        #expect(store.state.controllers.values.filter(\.isAlive).map(\.ref.serial) == [4])
    }

    @Test("a run ending without callbacks executing has no diagnostic; controllers already deinitialized keep their deinit")
    func cleanEnd() {
        var store = NavigationTests.pushedStore()
        store.send(op(.pop, Self.nav, [Self.detail], 200)) {
            $0.with(Self.nav) { $0.viewControllers = [2]; $0.children = [2] }
            $0.with(Self.detail) { $0.parent = .none; $0.removal = Removal(kind: .popped, time: ms(200), ordinal: 20) }
        }
        store.send(cb(.deinitialize, Self.detail, 201)) {
            $0.with(Self.detail) { $0.deinitTime = ms(201); $0.deinitOrdinal = 21 }
            $0.retainedDead = [3]
            $0.deadSerials.insert(3)
        }
        store.send(Self.run("App[2]", 300)) {
            for ref in [Self.nav, Self.list] {
                $0.with(ref) { $0.processEndTime = ms(300); $0.processEndOrdinal = 22 }
            }
            $0.windowRoot = nil
            $0.retainedDead = [3, 1, 2]
            $0.deadSerials.insert(1)
            $0.deadSerials.insert(2)
        }
        #expect(store.state.diagnostics.isEmpty)
        #expect(store.state[Self.detail]?.processEndTime == nil)
    }

    @Test("checkpoints of version 4 round-trip the end of a process; version 3 is refused")
    func checkpoint() throws {
        var store = Self.killedMidCallbackStore()
        store.replay([Self.run("App[2]", 900)])
        let payload = store.state.checkpointPayload()
        #expect(try ReplayState(checkpointPayload: payload) == store.state)
        var old = payload
        old[4] = 3
        #expect(throws: CheckpointError.self) { try ReplayState(checkpointPayload: old) }
        do {
            _ = try ReplayState(checkpointPayload: old)
        } catch let error as CheckpointError {
            #expect(error.code == .unsupportedVersion)
        }
    }
}
