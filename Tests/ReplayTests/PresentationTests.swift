import Testing
import TraceModel
@testable import Replay

/// docs/LIFECYCLE.md rows for presentation: full screen and page sheet (with a swipe-down).
@Suite("Presentation (docs/LIFECYCLE.md)")
struct PresentationTests {
    static let list = NavigationTests.list
    static let modal = ControllerRef(serial: 4, typeName: "ComposeViewController")

    @Test("present full screen: the presenter's viewDidDisappear comes last; dismiss reverses")
    func fullScreen() {
        var store = FoldStore()
        store.replay(NavigationTests.setupEvents)
        let (list, modal) = (Self.list, Self.modal)
        store.send(cb(.initialize, modal, 100)) { $0.controllers[4] = .created(modal, at: 100, ordinal: 10) }
        store.send(cb(.viewDidLoad, modal, 101)) { $0.with(modal) { $0.isViewLoaded = true; $0.viewDidLoadCount = 1 } }
        store.send(op(.present, list, [modal], 102, style: .fullScreen)) {
            $0.with(list) { $0.presentedController = 4 }
            $0.with(modal) { $0.presentingController = 2; $0.presentationStyle = .fullScreen }
        }
        store.send(cb(.viewWillDisappear, list, 103)) { $0.set(list, .disappearing, at: 103) }
        store.send(cb(.viewWillAppear, modal, 104)) { $0.set(modal, .appearing, at: 104) }
        store.send(cb(.viewDidAppear, modal, 105)) { $0.set(modal, .appeared, at: 105) }
        // Presenter still disappearing while the presented one has appeared.
        #expect(store.state.appearance(list) == .disappearing)
        store.send(cb(.viewDidDisappear, list, 106)) { $0.set(list, .disappeared, at: 106) }

        store.send(op(.dismiss, list, [modal], 200)) {
            $0.with(list) { $0.presentedController = nil }
            $0.with(modal) {
                $0.presentingController = nil
                $0.presentationStyle = nil
                $0.removal = Removal(kind: .dismissed, time: ms(200), ordinal: 17)
            }
        }
        store.send(cb(.viewWillDisappear, modal, 201)) { $0.set(modal, .disappearing, at: 201) }
        store.send(cb(.viewWillAppear, list, 202)) { $0.set(list, .appearing, at: 202) }
        store.send(cb(.viewDidDisappear, modal, 203)) { $0.set(modal, .disappeared, at: 203) }
        store.send(cb(.viewDidAppear, list, 204)) { $0.set(list, .appeared, at: 204) }
        #expect(store.state.diagnostics.isEmpty)
    }

    @Test("page sheet: only the sheet gets callbacks; the covered presenter stays appeared with its timer running")
    func pageSheetSwipeDown() {
        var store = FoldStore()
        store.replay(NavigationTests.setupEvents)
        let (list, sheet) = (Self.list, Self.modal)
        store.send(cb(.initialize, sheet, 100)) { $0.controllers[4] = .created(sheet, at: 100, ordinal: 10) }
        store.send(cb(.viewDidLoad, sheet, 101)) { $0.with(sheet) { $0.isViewLoaded = true; $0.viewDidLoadCount = 1 } }
        store.send(markEvent(MarkName.timerStart, list, 102, [MarkField("id", .string("refresh"))])) {
            $0.with(list) { $0.resources = [LiveResource(kind: .timer, id: "refresh", since: ms(102), ordinal: 12, startedIn: nil)] }
        }
        store.send(op(.present, list, [sheet], 103, style: .pageSheet)) {
            $0.with(list) { $0.presentedController = 4 }
            $0.with(sheet) { $0.presentingController = 2; $0.presentationStyle = .pageSheet }
        }
        store.send(cb(.viewWillAppear, sheet, 104)) { $0.set(sheet, .appearing, at: 104) }
        store.send(cb(.viewDidAppear, sheet, 105)) { $0.set(sheet, .appeared, at: 105) }
        #expect(store.state.appearance(list) == .appeared)
        #expect(store.state.appearance(sheet) == .appeared)

        store.send(op(.presentationControllerShouldDismiss, list, [sheet], 200))
        store.send(op(.presentationControllerWillDismiss, list, [sheet], 201)) {
            $0.transitions = [InFlightTransition(kind: .sheetDismiss, container: 2, from: 4, to: 2, since: ms(201), ordinal: 17)]
        }
        store.send(cb(.viewWillDisappear, sheet, 202)) { $0.set(sheet, .disappearing, at: 202) }
        store.send(cb(.viewDidDisappear, sheet, 203)) { $0.set(sheet, .disappeared, at: 203) }
        store.send(op(.presentationControllerDidDismiss, list, [sheet], 204)) {
            $0.transitions = []
            $0.with(list) { $0.presentedController = nil }
            $0.with(sheet) {
                $0.presentingController = nil
                $0.presentationStyle = nil
                $0.removal = Removal(kind: .dismissed, time: ms(204), ordinal: 20)
            }
        }
        store.send(cb(.deinitialize, sheet, 205)) {
            $0.with(sheet) { $0.deinitTime = ms(205); $0.deinitOrdinal = 21 }
            $0.retainedDead = [4]
            $0.deadSerials.insert(4)
        }
        #expect(store.state.diagnostics.isEmpty)
        #expect(store.state[list]?.resources.map(\.label) == ["timer:refresh"])
    }

    @Test("an abandoned sheet swipe-down closes its transition when the sheet appears again")
    func abandonedSwipeDown() {
        var store = FoldStore()
        store.replay(NavigationTests.setupEvents + [
            cb(.initialize, Self.modal, 100), op(.present, Self.list, [Self.modal], 101, style: .formSheet),
            cb(.viewWillAppear, Self.modal, 102), cb(.viewDidAppear, Self.modal, 103),
        ])
        let sheet = Self.modal
        store.send(op(.presentationControllerWillDismiss, Self.list, [sheet], 200)) {
            $0.transitions = [InFlightTransition(kind: .sheetDismiss, container: 2, from: 4, to: 2, since: ms(200), ordinal: 14)]
        }
        store.send(cb(.viewWillDisappear, sheet, 201)) { $0.set(sheet, .disappearing, at: 201) }
        store.send(cb(.viewWillAppear, sheet, 202)) { $0.set(sheet, .appearing, at: 202) }
        store.send(cb(.viewDidAppear, sheet, 203)) { $0.set(sheet, .appeared, at: 203); $0.transitions = [] }
        #expect(store.state[sheet]?.presentingController == 2)
    }
}
