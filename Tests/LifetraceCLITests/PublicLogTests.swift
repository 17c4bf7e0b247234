import Audit
import Foundation
import Replay
import Testing
import TraceModel
@testable import LifetraceCLI

/// The logs of Tests/Fixtures/public (console output quoted from public bug reports and blog posts; sources in
/// each file's header and in Tests/Fixtures/public/README.md), run end to end: `lifetrace import`, read back,
/// replayed, audited with the default rules. The expectations are what each report says happened.
@Suite("Public logs: import + replay + audit")
final class PublicLogTests {
    let directory: URL

    init() throws {
        directory = try RealCase.temporaryDirectory()
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func run(_ name: String) throws -> RealCase {
        try RealCase(name, into: directory, fixtures: RealCase.publicDirectory)
    }

    /// `rule severity controller seconds callback` per finding of the default rules.
    func findings(_ run: RealCase) throws -> [String] {
        try Auditor().audit(run.events).map {
            "\($0.ruleID) \($0.severity) \($0.controller ?? "-") \(run.seconds($0.timestamp)) \($0.callback ?? "-")"
        }
    }

    /// `controller callback` per callback event, in order.
    func callbacks(_ run: RealCase) -> [String] {
        run.events.compactMap {
            guard case .callback(let callback) = $0.payload else { return nil }
            return "\(run.seconds($0.timestamp)) \(callback.controller.displayName) \(callback.callback)"
        }
    }

    func controller(_ state: ReplayState, _ name: String) throws -> ControllerState {
        try #require(state.controller(named: name), "no controller \(name) in \(state.sortedControllers.map(\.ref.displayName))")
    }

    @Test("CSDN blog: a right-swipe back abandoned half-way is a legal cancellation (no finding)")
    func cancelledSwipeBack() throws {
        let run = try run("csdn-cancelled-swipe-back")
        // Before: every line was skipped (`CurrentView Will Appear` was not read as a callback).
        #expect(callbacks(run) == [
            "0.000 CurrentView#1 viewWillAppear", "3.093 CurrentView#1 viewWillDisappear",
            "3.093 CurrentView#1 viewDidDisappear", "3.093 NewView#2 viewWillAppear", "3.093 NewView#2 viewDidAppear",
        ])
        // While the finger is down, the screen underneath is appearing; after the cancel it is gone again and
        // the top screen is back.
        #expect(try controller(run.state(atSeconds: 1.0), "CurrentView#1").appearance == .appearing)
        let end = run.finalState
        #expect(try controller(end, "CurrentView#1").appearance == .disappeared)
        #expect(try controller(end, "NewView#2").appearance == .appeared)
        #expect(try findings(run) == [])
    }

    @Test("wjhsh.net: push and pop logged in aligned columns; no finding, A appeared and B disappeared at the end")
    func alignedPushPop() throws {
        let run = try run("wjhsh-push-pop-aligned")
        // Before: the four `view did  …` lines (two spaces) were skipped and the audit saw half a transition.
        #expect(callbacks(run) == [
            "0.000 A#1 viewWillDisappear", "0.001 B#2 viewWillAppear", "0.002 A#1 viewDidDisappear",
            "0.003 B#2 viewDidAppear", "0.004 B#2 viewWillDisappear", "0.005 A#1 viewWillAppear",
            "0.006 B#2 viewDidDisappear", "0.007 A#1 viewDidAppear",
        ])
        #expect(try controller(run.state(atSeconds: 0.0035), "B#2").appearance == .appeared)
        let end = run.finalState
        #expect(try controller(end, "A#1").appearance == .appeared)
        #expect(try controller(end, "B#2").appearance == .disappeared)
        #expect(try findings(run) == [])
    }

    @Test("DTFoundation #33: (null) and <DTSidePanelController: 0x…> after the Objective-C bracket are parents")
    func sidePanelReparent() throws {
        let run = try run("dtfoundation-side-panel-reparent")
        let parents: [String] = run.events.compactMap {
            guard case .callback(let callback) = $0.payload, let parent = callback.parent else { return nil }
            switch parent {
            case .none: return "\(callback.callback) nil"
            case .controller(let ref): return "\(callback.callback) \(ref.displayName)"
            }
        }
        // Before: no parent was read, so the removal and the re-adding were invisible to the replayer.
        #expect(parents == [
            "willMove(toParent:) nil", "didMove(toParent:) nil", "willMove(toParent:) DTSidePanelController#2",
        ])
        // After didMove(toParent: nil) the panel is known to have no parent (before: unknown).
        var removed = ReplayState()
        for (ordinal, event) in run.events.prefix(2).enumerated() { removed.apply(event, ordinal: UInt64(ordinal)) }
        #expect(try controller(removed, "LoggingNavigationController#1").parent == .none)
        let end = run.finalState
        #expect(try controller(end, "LoggingNavigationController#1").appearance == .appeared)
        #expect(try controller(end, "ModalPanelViewController#3").appearance == .appeared)
        // A removal followed by re-adding in the same millisecond is no leak, and the quoted lines break no
        // containment or appearance rule (the report is about callbacks of another panel, past these lines).
        #expect(try findings(run) == [])
    }

    @Test("openradar 12322346: the swapped-in child gets viewDidAppear without viewWillAppear")
    func radarNoWillAppear() throws {
        let run = try run("openradar-12322346-no-will-appear")
        #expect(callbacks(run) == [
            "0.000 (anonymous)#1 loadView", "0.001 (anonymous)#1 viewDidLoad", "0.002 (anonymous)#1 viewDidAppear",
        ])
        #expect(try findings(run) == ["appearance_balance warning (anonymous)#1 0.002 viewDidAppear"])
    }

    @Test("MNPageViewController #8: `viewWillAppear: 2 …` names page 2; pages 0 and 1 get viewWillDisappear twice")
    func pageTagsAfterSpace() throws {
        let run = try run("mnpageviewcontroller-duplicate-will-disappear")
        // Before: `viewWillAppear: 2` with a space named no controller; all eight lines were one anonymous one.
        #expect(callbacks(run) == [
            "0.000 2 viewWillAppear", "0.008 2 viewDidAppear", "5.459 0 viewWillDisappear", "5.460 3 viewWillAppear",
            "5.467 0 viewWillDisappear", "5.467 3 viewDidAppear", "9.247 1 viewWillDisappear", "9.248 1 viewWillDisappear",
        ])
        #expect(try findings(run) == [
            "appearance_balance warning 0 5.467 viewWillDisappear",
            "appearance_balance warning 1 9.248 viewWillDisappear",
        ])
        #expect(try controller(run.finalState, "3").appearance == .appeared)
    }

    @Test("vastdevblog: two controllers printed as `<A: 0x6c11b10>`; the quote ends mid-pop (B disappearing, A appearing)")
    func printedSelves() throws {
        let run = try run("vastdevblog-two-instances-by-address")
        // The navigation delegate's and the segue's lines are uikit.callback marks in between (1 ms each).
        #expect(callbacks(run) == [
            "0.000 A#1 viewDidLoad", "0.001 A#1 viewWillAppear", "0.004 A#1 viewDidAppear", "0.007 B#2 viewDidLoad",
            "0.008 A#1 viewWillDisappear", "0.009 B#2 viewWillAppear", "0.011 A#1 viewDidDisappear",
            "0.012 B#2 viewDidAppear", "0.014 B#2 viewWillDisappear", "0.015 A#1 viewWillAppear",
        ])
        let end = run.finalState
        #expect(try controller(end, "A#1").appearance == .appearing)
        #expect(try controller(end, "B#2").appearance == .disappearing)
        #expect(try findings(run) == [])
    }

    @Test("readke.com: a numbered log `N: Class selector:`; push, pop and B's dealloc, no finding")
    func numberedPushPop() throws {
        let run = try run("readke-numbered-push-pop")
        #expect(callbacks(run).count == 23)
        let end = run.finalState
        #expect(try controller(end, "A_ViewController#1").appearance == .appeared)
        #expect(try controller(end, "B_ViewController#2").isAlive == false)
        #expect(try findings(run) == [])
    }

    /// traces/public/*.lifetrace are `tools/import-cases` output (no flags), checked in so `lifetrace audit`
    /// audits them; importing is reproducible, so a stale file shows up as different bytes.
    /// Every log of Tests/Fixtures/public.
    static let publicLogNames: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: RealCase.publicDirectory.path)) ?? [])
        .filter { $0.hasSuffix(".log") }.map { String($0.dropLast(4)) }.sorted()

    @Test("traces/public re-imports to the checked-in bytes", arguments: publicLogNames)
    func fresh(name: String) throws {
        let root = RealCase.publicDirectory.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let fresh = directory.appendingPathComponent("\(name).fresh.lifetrace")
        let relative = "Tests/Fixtures/public/\(name).log"
        let request = ImportCommand.ImportRequest(
            input: root.appendingPathComponent(relative).path, recordedPath: relative, format: "text", rules: [],
            destination: fresh.path)
        _ = try ImportCommand.importFile(request)
        let checkedIn = try Data(contentsOf: root.appendingPathComponent("traces/public/\(name).lifetrace"))
        #expect(try Data(contentsOf: fresh) == checkedIn, "traces/public/\(name).lifetrace is stale: run tools/import-cases")
    }
}
