import Testing
import TraceModel
@testable import Replay

/// The real cases of Tests/Fixtures/cases/README.md, built by hand as the instant-only events an importer
/// produces from each log (one serial per distinct controller, times in ms from the first line). The importer's
/// own tests later run the same expectations through the real importer.
@Suite("Real cases (Tests/Fixtures/cases), hand-built")
struct CaseEndStateTests {
    /// Folds `(ms, callback or mark, controller)` lines; returns the state after each prefix on demand.
    struct Log {
        var events: [Event] = []
        mutating func callback(_ time: Double, _ ref: ControllerRef, _ callback: Callback, parent: ParentArgument? = nil) {
            events.append(.callback(CallbackEvent(callback, .instant, controller: ref, parent: parent), at: ns(time)))
        }
        mutating func mark(_ time: Double, _ mark: MarkEvent) {
            events.append(.mark(mark, at: ns(time)))
        }
        mutating func app(_ time: Double, _ transition: AppTransition, scene: String? = nil) {
            events.append(.app(AppEvent(transition, scene: scene), at: ns(time)))
        }
        mutating func container(_ time: Double, _ operation: ContainerOperation, _ container: ControllerRef?, _ refs: [ControllerRef]) {
            events.append(.container(ContainerEvent(operation, container: container, controllers: refs), at: ns(time)))
        }
        func ns(_ milliseconds: Double) -> UInt64 { UInt64((milliseconds * 1_000_000).rounded()) }

        /// The state after every event with timestamp ≤ `milliseconds` (all events when `nil`).
        func state(at milliseconds: Double? = nil) -> ReplayState {
            var state = ReplayState()
            for (ordinal, event) in events.enumerated() {
                if let milliseconds, event.timestamp > ns(milliseconds) { break }
                state.apply(event, ordinal: UInt64(ordinal))
            }
            return state
        }
    }

    @Test("01 cancelled pop save: at 6.0 s editor disappearing and list appearing; at the end editor appeared, list disappeared, background, draft unsaved")
    func cancelledPopSave() throws {
        let list = ControllerRef(serial: 1, typeName: "NotesListViewController")
        let editor = ControllerRef(serial: 2, typeName: "NoteEditorViewController")
        var log = Log()
        log.callback(0, list, .viewDidLoad)
        log.callback(4.756, list, .viewWillAppear)
        log.callback(311.288, list, .viewDidAppear)
        log.callback(2119.919, editor, .viewDidLoad)
        log.callback(2121.096, list, .viewWillDisappear)
        log.callback(2121.890, editor, .viewWillAppear)
        log.callback(2470.037, list, .viewDidDisappear)
        log.callback(2471.076, editor, .viewDidAppear)
        log.mark(4002.697, .edit(key: "draft", controller: editor))
        log.callback(5903.663, editor, .viewWillDisappear)
        log.mark(5903.988, .save(key: "draft", critical: true, controller: editor))
        log.callback(5905.386, list, .viewWillAppear)
        log.callback(6288.816, list, .viewWillDisappear)
        log.callback(6289.297, list, .viewDidDisappear)
        log.callback(6289.898, editor, .viewWillAppear)
        log.callback(6290.757, editor, .viewDidAppear)
        log.mark(8511.235, .edit(key: "draft", controller: editor))
        log.app(9700.136, .willResignActive, scene: "default")
        log.app(10214.361, .didEnterBackground, scene: "default")

        let beforeSave = log.state(at: 5903.7)
        let enclosing = try #require(beforeSave.enclosingCallback(of: editor))
        #expect(enclosing.callback == .viewWillDisappear)
        #expect(beforeSave.controllerRef(of: enclosing) == editor)
        #expect(enclosing.isInstant)

        let mid = log.state(at: 6000)
        #expect(mid[editor]?.appearance == .disappearing)
        #expect(mid[list]?.appearance == .appearing)
        #expect(mid[editor]?.unsaved.isEmpty == true)

        let end = log.state()
        #expect(end[editor]?.appearance == .appeared)
        #expect(end[list]?.appearance == .disappeared)
        #expect(end.app == .background)
        #expect(end[editor]?.unsaved.map(\.key) == ["draft"])
        #expect(end[editor]?.unsaved.first?.firstEdit == log.ns(8511.235))
        #expect(end.diagnostics.isEmpty)
        #expect(end[editor]?.parent == .unknown)
        #expect(end.transitions.isEmpty)
    }

    @Test("02 push/pop/dealloc: the detail controller is dead and the catalog appeared")
    func pushPopDealloc() {
        let detail = ControllerRef(serial: 1, typeName: "ProductDetailViewController")
        let catalog = ControllerRef(serial: 2, typeName: "CatalogViewController")
        var log = Log()
        let lines: [(ControllerRef, Callback)] = [
            (detail, .initialize), (detail, .loadView), (detail, .viewDidLoad), (catalog, .viewWillDisappear),
            (detail, .viewWillAppear), (detail, .viewWillLayoutSubviews), (detail, .viewDidLayoutSubviews),
            (detail, .viewWillLayoutSubviews), (detail, .viewDidLayoutSubviews), (catalog, .viewDidDisappear),
            (detail, .viewDidAppear), (detail, .viewWillDisappear), (catalog, .viewWillAppear), (detail, .viewDidDisappear),
            (catalog, .viewDidAppear), (detail, .deinitialize),
        ]
        for (index, line) in lines.enumerated() { log.callback(Double(index), line.0, line.1) }
        let end = log.state()
        #expect(end[detail]?.isAlive == false)
        #expect(end[detail]?.deinitTime == log.ns(15))
        #expect(end[detail]?.appearance == .disappeared)
        #expect(end[catalog]?.appearance == .appeared)
        #expect(end.diagnostics.isEmpty)
    }

    @Test("03 sheet over a silent presenter: both appeared while the sheet is up; the dashboard's timer is live at the end")
    func sheetPresenterSilent() {
        let dashboard = ControllerRef(serial: 1, typeName: "Dashboard")
        let filters = ControllerRef(serial: 2, typeName: "Filters")
        var log = Log()
        log.callback(0, dashboard, .viewDidLoad)
        log.callback(1, dashboard, .viewWillAppear)
        log.callback(2, dashboard, .viewDidAppear)
        log.mark(3, MarkEvent(MarkName.timerStart, controller: dashboard, fields: [MarkField("id", .string("refresh"))]))
        log.callback(4, filters, .viewDidLoad)
        log.callback(5, filters, .viewWillAppear)
        log.callback(6, filters, .viewDidAppear)
        log.container(7, .presentationControllerWillDismiss, nil, [filters])
        log.callback(8, filters, .viewWillDisappear)
        log.callback(9, filters, .viewDidDisappear)
        log.container(10, .presentationControllerDidDismiss, nil, [filters])
        log.callback(11, filters, .deinitialize)
        let up = log.state(at: 6)
        #expect(up[dashboard]?.appearance == .appeared)
        #expect(up[filters]?.appearance == .appeared)
        let end = log.state()
        #expect(end[dashboard]?.appearance == .appeared)
        #expect(end[dashboard]?.resources.map(\.label) == ["timer:refresh"])
        #expect(end[filters]?.removal?.kind == .dismissed)
        #expect(end.transitions.isEmpty)
        #expect(end.diagnostics.isEmpty)
    }

    @Test("04 double viewDidDisappear: one diagnostic on FirstViewController at its second viewDidDisappear")
    func doubleDidDisappear() {
        let first = ControllerRef(serial: 1, typeName: "FirstViewController")
        let second = ControllerRef(serial: 2, typeName: "SecondViewController")
        let third = ControllerRef(serial: 3, typeName: "ThirdViewController")
        var log = Log()
        let lines: [(ControllerRef, Callback)] = [
            (first, .viewDidLoad), (first, .viewWillAppear), (first, .viewDidAppear),
            (second, .loadView), (second, .viewDidLoad), (first, .viewWillDisappear), (second, .viewWillAppear),
            (second, .viewWillLayoutSubviews), (second, .viewDidLayoutSubviews), (first, .viewWillLayoutSubviews),
            (first, .viewDidLayoutSubviews), (second, .viewDidAppear), (first, .viewDidDisappear),
            (third, .loadView), (third, .viewDidLoad), (second, .viewWillDisappear), (third, .viewWillAppear),
            (first, .viewDidDisappear), (third, .viewWillLayoutSubviews), (third, .viewDidLayoutSubviews),
            (third, .viewDidAppear), (second, .viewDidDisappear),
        ]
        for (index, line) in lines.enumerated() { log.callback(Double(index), line.0, line.1) }
        let end = log.state()
        #expect(end.diagnostics.map(\.kind) == [.duplicateDidDisappear])
        #expect(end.diagnostics.first?.controller == first)
        #expect(end.diagnostics.first?.ordinal == 17)
        #expect(end[third]?.appearance == .appeared)
        #expect(end[second]?.appearance == .disappeared)
    }

    @Test("05 manual forwarding on top of automatic: one duplicate viewDidAppear on TrendingTabViewController")
    func doubleDidAppear() {
        let pager = ControllerRef(serial: 1, typeName: "PagerContainerViewController")
        let trending = ControllerRef(serial: 2, typeName: "TrendingTabViewController")
        var log = Log()
        let lines: [(ControllerRef, Callback)] = [
            (pager, .viewDidLoad), (pager, .viewWillAppear), (trending, .viewDidLoad), (trending, .viewWillAppear),
            (trending, .viewDidAppear), (pager, .viewDidAppear), (trending, .viewDidAppear),
        ]
        for (index, line) in lines.enumerated() { log.callback(Double(index), line.0, line.1) }
        let end = log.state()
        #expect(end.diagnostics.map(\.kind) == [.duplicateDidAppear])
        #expect(end.diagnostics.first?.controller == trending)
        #expect(end[pager]?.appearance == .appeared)
    }

    @Test("06 tab switch: contacts appeared, inbox disappeared, no diagnostics")
    func tabSwitch() {
        let inbox = ControllerRef(serial: 1, typeName: "InboxViewController")
        let contacts = ControllerRef(serial: 2, typeName: "ContactsViewController")
        var log = Log()
        log.callback(0, inbox, .viewDidLoad)
        log.callback(2, inbox, .viewWillAppear)
        log.callback(289, inbox, .viewDidAppear)
        log.callback(6748, contacts, .viewDidLoad)
        log.callback(6750, contacts, .viewWillAppear)
        log.callback(6751, inbox, .viewWillDisappear)
        log.callback(6759, inbox, .viewDidDisappear)
        log.callback(6760, contacts, .viewDidAppear)
        let end = log.state()
        #expect(end[contacts]?.appearance == .appeared)
        #expect(end[inbox]?.appearance == .disappeared)
        #expect(end.diagnostics.isEmpty)
    }

    @Test("07 page scroll cancelled: <0> appeared, <1> disappeared, no diagnostics")
    func pageScrollCancelled() {
        let page0 = ControllerRef(serial: 1, typeName: "PhotoPageViewController", label: "0")
        let page1 = ControllerRef(serial: 2, typeName: "PhotoPageViewController", label: "1")
        var log = Log()
        log.callback(0, page0, .viewWillAppear)
        log.callback(210, page0, .viewDidAppear)
        log.callback(3000, page1, .viewDidLoad)
        log.callback(3001, page1, .viewWillAppear)
        log.callback(3002, page0, .viewWillDisappear)
        log.callback(3400, page0, .viewWillAppear)
        log.callback(3401, page0, .viewDidAppear)
        log.callback(3402, page1, .viewWillDisappear)
        log.callback(3403, page1, .viewDidDisappear)
        let mid = log.state(at: 3200)
        #expect(mid[page0]?.appearance == .disappearing)
        #expect(mid[page1]?.appearance == .appearing)
        let end = log.state()
        #expect(end[page0]?.appearance == .appeared)
        #expect(end[page1]?.appearance == .disappeared)
        #expect(end.diagnostics.isEmpty)
        #expect(end.controller(named: "PhotoPageViewController<0>")?.ref == page0)
    }

    @Test("08 popped, never deinit: removed at 9.381 s by didMove(toParent: nil), alive at 30.001 s")
    func poppedNeverDeinit() {
        let feed = ControllerRef(serial: 1, typeName: "FeedViewController")
        let story = ControllerRef(serial: 2, typeName: "StoryViewController")
        let nav = ControllerRef(serial: 3, typeName: "UINavigationController")
        var log = Log()
        log.callback(0, feed, .viewDidAppear)
        log.callback(3120, story, .viewDidLoad)
        log.callback(3121, feed, .viewWillDisappear)
        log.callback(3122, story, .viewWillAppear)
        log.callback(3498, feed, .viewDidDisappear)
        log.callback(3499, story, .viewDidAppear)
        log.callback(3499, story, .didMoveToParent, parent: .controller(nav))
        log.callback(9000, story, .willMoveToParent, parent: ParentArgument.none)
        log.callback(9001, story, .viewWillDisappear)
        log.callback(9002, feed, .viewWillAppear)
        log.callback(9380, story, .viewDidDisappear)
        log.callback(9381, feed, .viewDidAppear)
        log.callback(9381, story, .didMoveToParent, parent: ParentArgument.none)
        log.callback(30000, feed, .viewWillDisappear)
        log.callback(30001, feed, .viewDidDisappear)
        let atPush = log.state(at: 3499)
        #expect(atPush[story]?.parent == .controller(3))
        #expect(atPush[nav]?.children == [2])
        let end = log.state()
        #expect(end[story]?.removal == Removal(kind: .movedToNilParent, time: log.ns(9381), ordinal: 12))
        #expect(end[story]?.isAlive == true)
        #expect(end[story]?.parent == ParentLink.none)
        #expect(end[feed]?.appearance == .disappeared)
        #expect(end.time == log.ns(30001))
        #expect(end.diagnostics.isEmpty)
    }

    @Test("09 background draft lost: two edits unsaved, app in background, no disappearance callbacks")
    func backgroundDraftLost() {
        let conversation = ControllerRef(serial: 1, typeName: "ConversationViewController")
        var log = Log()
        log.callback(0, conversation, .viewDidLoad)
        log.callback(2, conversation, .viewWillAppear)
        log.callback(340, conversation, .viewDidAppear)
        log.mark(4516, .edit(key: "draft", controller: conversation))
        log.mark(8877, .edit(key: "draft", controller: conversation))
        log.app(12401, .willResignActive)
        log.app(12910, .didEnterBackground)
        let end = log.state()
        #expect(end.app == .background)
        #expect(end[conversation]?.appearance == .appeared)
        #expect(end[conversation]?.unsaved == [
            UnsavedEdit(key: "draft", firstEdit: log.ns(4516), firstOrdinal: 3, lastEdit: log.ns(8877), lastOrdinal: 4, count: 2),
        ])
        #expect(end.diagnostics.isEmpty)
    }

    @Test("10 print-style seed: one anonymous controller, appeared")
    func seedPrintStyle() {
        let anonymous = ControllerRef(serial: 1, typeName: "")
        var log = Log()
        log.callback(0, anonymous, .viewDidLoad)
        log.callback(1, anonymous, .viewWillAppear)
        log.callback(2, anonymous, .viewDidAppear)
        let end = log.state()
        #expect(end.controllers.count == 1)
        #expect(end[anonymous]?.appearance == .appeared)
        #expect(end.diagnostics.isEmpty)
    }

    @Test("11 page tags: one repeated viewWillDisappear on page 0 at 5.467 s; page 3 appeared")
    func pageTagsDuplicateWill() {
        let page2 = ControllerRef(serial: 1, typeName: "", label: "2")
        let page0 = ControllerRef(serial: 2, typeName: "", label: "0")
        let page3 = ControllerRef(serial: 3, typeName: "", label: "3")
        var log = Log()
        log.callback(0, page2, .viewWillAppear)
        log.callback(8, page2, .viewDidAppear)
        log.callback(5459, page0, .viewWillDisappear)
        log.callback(5460, page3, .viewWillAppear)
        log.callback(5467, page0, .viewWillDisappear)
        log.callback(5467, page3, .viewDidAppear)
        let end = log.state()
        #expect(end.diagnostics.map(\.kind) == [.repeatedWill])
        #expect(end.diagnostics.first?.controller == page0)
        #expect(end.diagnostics.first?.time == log.ns(5467))
        #expect(end[page3]?.appearance == .appeared)
        #expect(end[page0]?.appearance == .disappearing)
    }
}
