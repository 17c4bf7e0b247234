import Foundation
import Replay
import Testing
import TraceModel

/// Every row of Tests/Fixtures/cases/README.md: imported with its flags, replayed, and checked against the
/// states the row expects. (The audit findings are checked in RealCaseAuditTests.)
@Suite("Real cases: import + replay")
final class RealCaseReplayTests {
    let directory: URL

    init() throws {
        directory = try RealCase.temporaryDirectory()
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func run(_ name: String) throws -> RealCase {
        try RealCase(name, into: directory)
    }

    func controller(_ state: ReplayState, _ name: String) throws -> ControllerState {
        try #require(state.controller(named: name), "no controller \(name) in \(state.sortedControllers.map(\.ref.displayName))")
    }

    /// Appearance anomalies the replayer reports, as `kind controller seconds`.
    func anomalies(_ run: RealCase) -> [String] {
        run.finalState.diagnostics.filter(\.kind.isAppearanceAnomaly).map {
            "\($0.kind) \($0.controller?.displayName ?? "-") \(run.seconds($0.time))"
        }
    }

    @Test("01: cancelled pop; at 6.0 s editor disappearing and list appearing; at the end editor appeared, list disappeared, app in background")
    func case01() throws {
        let run = try run("01-cancelled-pop-save")
        let mid = run.state(atSeconds: 6.0)
        #expect(try controller(mid, "NoteEditorViewController#2").appearance == .disappearing)
        #expect(try controller(mid, "NotesListViewController#1").appearance == .appearing)
        let end = run.finalState
        #expect(try controller(end, "NoteEditorViewController#2").appearance == .appeared)
        #expect(try controller(end, "NotesListViewController#1").appearance == .disappeared)
        #expect(end.app == .background)
        #expect(anomalies(run).isEmpty)
        // The save happened inside viewWillDisappear (the instant just before it), at 5.904 s.
        let saveIndex = try #require(run.events.firstIndex { if case .mark(let mark) = $0.payload { mark.name == "save" } else { false } })
        var before = ReplayState()
        for (ordinal, event) in run.events.prefix(saveIndex).enumerated() { before.apply(event, ordinal: UInt64(ordinal)) }
        let editor = try controller(before, "NoteEditorViewController#2").ref
        #expect(before.enclosingCallback(of: editor)?.callback == .viewWillDisappear)
        #expect(run.seconds(run.events[saveIndex].timestamp) == "5.904")
        // The edit at 8.511 s is still unsaved at the end.
        #expect(try controller(end, "NoteEditorViewController#2").unsaved.map(\.key) == ["draft"])
    }

    @Test("02: push then pop; the detail controller is dead, the catalog appeared")
    func case02() throws {
        let run = try run("02-push-pop-dealloc")
        let end = run.finalState
        let detail = try controller(end, "ProductDetailViewController#1")
        #expect(detail.isAlive == false)
        #expect(try controller(end, "CatalogViewController#2").appearance == .appeared)
        #expect(anomalies(run).isEmpty)
        #expect(end.diagnostics.isEmpty)
    }

    @Test("03: sheet over a dashboard; both appeared while the sheet is up; the dashboard's timer is live at the end")
    func case03() throws {
        let run = try run("03-sheet-presenter-silent")
        // Event 7 is the sheet's viewDidAppear ([Filters] viewDidAppear, line 7).
        var sheetUp = ReplayState()
        for (ordinal, event) in run.events.prefix(7).enumerated() { sheetUp.apply(event, ordinal: UInt64(ordinal)) }
        #expect(run.events[6].source?.line == 7)
        #expect(try controller(sheetUp, "Dashboard#1").appearance == .appeared)
        #expect(try controller(sheetUp, "Filters#2").appearance == .appeared)
        let end = run.finalState
        #expect(try controller(end, "Dashboard#1").resources.map(\.label) == ["timer:refresh"])
        #expect(try controller(end, "Filters#2").isAlive == false)
        #expect(anomalies(run).isEmpty)
    }

    @Test("04: FirstViewController gets viewDidDisappear twice (one anomaly, at its second viewDidDisappear)")
    func case04() throws {
        let run = try run("04-double-did-disappear")
        let diagnostics = run.finalState.diagnostics.filter(\.kind.isAppearanceAnomaly)
        #expect(diagnostics.map(\.kind) == [.duplicateDidDisappear])
        #expect(diagnostics.first?.controller?.displayName == "FirstViewController#1")
        // The second viewDidDisappear is line 19 of the log.
        let ordinal = try #require(diagnostics.first?.ordinal)
        #expect(run.events[Int(ordinal)].source?.line == 19)
    }

    @Test("05: TrendingTabViewController gets viewDidAppear twice")
    func case05() throws {
        let run = try run("05-double-did-appear-forwarding")
        let diagnostics = run.finalState.diagnostics.filter(\.kind.isAppearanceAnomaly)
        #expect(diagnostics.map(\.kind) == [.duplicateDidAppear])
        #expect(diagnostics.first?.controller?.displayName == "TrendingTabViewController#2")
    }

    @Test("06: tab switch; contacts appeared, inbox disappeared, no anomaly")
    func case06() throws {
        let run = try run("06-tab-switch")
        let end = run.finalState
        #expect(try controller(end, "ContactsViewController#2").appearance == .appeared)
        #expect(try controller(end, "InboxViewController#1").appearance == .disappeared)
        #expect(end.diagnostics.isEmpty)
    }

    @Test("07: cancelled page scroll; <0> appeared, <1> disappeared, no anomaly")
    func case07() throws {
        let run = try run("07-page-scroll-cancelled")
        let end = run.finalState
        #expect(try controller(end, "PhotoPageViewController<0>").appearance == .appeared)
        #expect(try controller(end, "PhotoPageViewController<1>").appearance == .disappeared)
        #expect(end.diagnostics.isEmpty)
    }

    @Test("08: popped at 9.381 s, never deinitialized by the end (30.001 s)")
    func case08() throws {
        let run = try run("08-popped-never-deinit")
        let end = run.finalState
        let story = try controller(end, "StoryViewController#2")
        #expect(story.isAlive)
        let removal = try #require(story.removal)
        #expect(run.seconds(removal.time) == "9.381")
        #expect(run.seconds(try #require(end.time)) == "30.001")
        #expect(anomalies(run).isEmpty)
    }

    @Test("09: edits at 4.516 s and 8.877 s, background at 12.910 s, no disappearance on backgrounding")
    func case09() throws {
        let run = try run("09-background-draft-lost")
        let end = run.finalState
        let conversation = try controller(end, "ConversationViewController#1")
        #expect(conversation.appearance == .appeared)
        let unsaved = try #require(conversation.unsaved.first)
        #expect(run.seconds(unsaved.firstEdit) == "4.516")
        #expect(run.seconds(unsaved.lastEdit) == "8.877")
        #expect(end.app == .background)
        let background = try #require(run.events.last)
        #expect(run.seconds(background.timestamp) == "12.910")
        #expect(anomalies(run).isEmpty)
    }

    @Test("10: one anonymous controller, appeared at the end")
    func case10() throws {
        let run = try run("10-seed-print-style")
        let end = run.finalState
        #expect(end.controllers.count == 1)
        #expect(try controller(end, "(anonymous)#1").appearance == .appeared)
        #expect(end.diagnostics.isEmpty)
    }

    @Test("11: page 0 gets viewWillDisappear twice, at 5.467 s; page 3 appeared at the end")
    func case11() throws {
        let run = try run("11-page-tags-duplicate-will")
        let end = run.finalState
        let diagnostics = end.diagnostics.filter(\.kind.isAppearanceAnomaly)
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.controller?.displayName == "0")
        #expect(diagnostics.first.map { run.seconds($0.time) } == "5.467")
        #expect(try controller(end, "3").appearance == .appeared)
    }
}
