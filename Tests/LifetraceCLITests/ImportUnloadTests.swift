import Audit
import ConsoleImport
import Replay
import Testing
import TraceModel

/// iOS 3–5 released a hidden controller's view under memory pressure (`viewDidUnload`) and loaded it again on
/// the next access: the reload is a new load, not a second viewDidLoad of one view.
@Suite("Imported viewDidUnload: the view is unloaded, and the reload is legal")
struct ImportUnloadTests {
    static func events(_ lines: [String]) throws -> [Event] {
        try ConsoleLogParser().parse(lines: lines).events
    }

    static let reload = [
        "-[ListViewController viewDidLoad]", "-[ListViewController viewWillAppear:]", "-[ListViewController viewDidAppear:]",
        "-[ListViewController viewWillDisappear:]",
        "-[ListViewController viewDidDisappear:]", "-[ListViewController didReceiveMemoryWarning]",
        "-[ListViewController viewWillUnload]", "-[ListViewController viewDidUnload]",
        "-[ListViewController loadView]", "-[ListViewController viewDidLoad]", "-[ListViewController viewWillAppear:]",
    ]

    @Test("after viewDidUnload the replayed view is not loaded; viewDidLoad loads it again")
    func replayedState() throws {
        let events = try Self.events(Self.reload)
        var state = ReplayState()
        for (ordinal, event) in events.prefix(8).enumerated() { state.apply(event, ordinal: UInt64(ordinal)) }
        let unloaded = try #require(state.controller(named: "ListViewController#1"))
        #expect(unloaded.isViewLoaded == false)
        #expect(unloaded.viewDidLoadCount == 0)
        for (ordinal, event) in events.enumerated().dropFirst(8) { state.apply(event, ordinal: UInt64(ordinal)) }
        let reloaded = try #require(state.controller(named: "ListViewController#1"))
        #expect(reloaded.isViewLoaded)
        #expect(reloaded.viewDidLoadCount == 1)
        #expect(state.diagnostics.isEmpty)
    }

    @Test("view_did_load_once accepts the reload after an unload, and still reports one without it")
    func ruleAcceptsReload() throws {
        let withUnload = try Auditor().audit(Self.events(Self.reload)).map(\.ruleID)
        #expect(!withUnload.contains("view_did_load_once"))
        let withoutUnload = Self.reload.filter { !$0.contains("Unload") }
        #expect(try Auditor().audit(Self.events(withoutUnload)).map(\.ruleID).filter { $0 == "view_did_load_once" }.count == 1)
    }
}
