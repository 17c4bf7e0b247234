import Testing
import TraceModel
@testable import Audit

/// Traces with two recording runs: the second `runStarted` ends the first run's process (killed).
@Suite("Rules across recording runs")
struct RunBoundaryTests {
    static let nav = ControllerRef(serial: 1, typeName: "UINavigationController")
    static let list = ControllerRef(serial: 2, typeName: "ListViewController")
    static let editor = ControllerRef(serial: 3, typeName: "EditorViewController")

    /// Run 1: list appears, editor pushed, edited; `popAt` seconds pops the editor when given; the process is
    /// killed and run 2 starts at 100 s and lasts 30 s.
    static func twoRuns(popAt: Double?, saved: Bool = false) -> [Event] {
        var trace = ExampleTrace()
        trace.runStarted("Notes[100]")
        trace.appear(list)
        trace.push(editor, over: list, navigation: nav)
        trace.mark(.edit(key: "note", controller: editor))
        if saved { trace.mark(.save(key: "note", critical: true, controller: editor)) }
        if let popAt {
            trace.wait(popAt)
            trace.pop(editor, revealing: list, navigation: nav)
        }
        var events = trace.events
        let runTwo = UInt64(100_000_000_000)
        events.append(Event(timestamp: runTwo, .recorder(.runStarted(process: "Notes[200]"))))
        let fresh = ControllerRef(serial: 4, typeName: "ListViewController")
        events.append(.callback(CallbackEvent(.initialize, .instant, controller: fresh), at: runTwo + 1_000_000))
        events.append(.callback(CallbackEvent(.viewWillAppear, .instant, controller: fresh), at: runTwo + 2_000_000))
        events.append(.callback(CallbackEvent(.viewDidAppear, .instant, controller: fresh), at: runTwo + 30_000_000_000))
        return events
    }

    @Test("a controller alive when run 1 is killed is no leak; its unsaved edit is reported as lost at the next runStarted")
    func killedWithEditorOnScreen() throws {
        let events = Self.twoRuns(popAt: nil)
        let findings = try Auditor().audit(events)
        #expect(findings.filter { $0.ruleID == "leaked_controller" }.isEmpty)
        let lost = findings.filter { $0.ruleID == "unsaved_edit_at_exit" }
        #expect(lost.count == 1)
        let finding = try #require(lost.first)
        #expect(finding.controller == "EditorViewController#3")
        #expect(finding.ordinal == UInt64(events.count - 4))
        #expect(finding.message.contains("its process ended"))
        #expect(finding.message.hasSuffix("the change was lost."))
        #expect(findings.filter { $0.ruleID != "unsaved_edit_at_exit" }.isEmpty, "\(findings.map(\.message))")
    }

    @Test("saved before the kill: no finding at all")
    func savedBeforeKill() throws {
        #expect(try Auditor().audit(Self.twoRuns(popAt: nil, saved: true)).isEmpty)
    }

    @Test("popped 1 s before the kill: the process ended within the grace, so no leak")
    func poppedJustBeforeKill() throws {
        let findings = try Auditor().audit(Self.twoRuns(popAt: 0, saved: true)).filter { $0.ruleID == "leaked_controller" }
        #expect(findings.isEmpty)
    }

    @Test("orphan_child: an addChild whose didMove never came before the kill is inconclusive at the next run's start")
    func orphanPendingAtKill() throws {
        let parent = ControllerRef(serial: 1, typeName: "HomeViewController")
        let child = ControllerRef(serial: 2, typeName: "BannerViewController")
        var trace = ExampleTrace()
        trace.runStarted("Home[1]")
        trace.appear(parent)
        trace.callback(.initialize, child)
        trace.container(.addChild, parent, [child])
        trace.runStarted("Home[2]")
        trace.wait(5)
        trace.appear(ExampleTrace.controller(3, "HomeViewController"))
        let findings = try Auditor().audit(trace.events).filter { $0.ruleID == "orphan_child" }
        #expect(findings.count == 1)
        #expect(findings.first?.verdict == .inconclusive)
        #expect(findings.first?.message.contains("its process ended") == true)
    }

    @Test("popped and still alive 30 s later in the same run, then killed: the leak is reported at the run's end")
    func leakedBeforeKill() throws {
        var events = Self.twoRuns(popAt: 0, saved: true)
        let index = try #require(events.firstIndex { if case .recorder(.runStarted(process: "Notes[200]")) = $0.payload { true } else { false } })
        let lastOfRun = events[index - 1].timestamp
        events.insert(.callback(CallbackEvent(.viewWillLayoutSubviews, .instant, controller: Self.list), at: lastOfRun + 30_000_000_000), at: index)
        let findings = try Auditor().audit(events).filter { $0.ruleID == "leaked_controller" }
        #expect(findings.count == 1)
        #expect(findings.first?.verdict == .violation)
        #expect(findings.first?.message.contains("the process then ended") == true)
    }
}
