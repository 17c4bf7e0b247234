import Foundation
import Testing
import TraceLog
import TraceModel
@testable import Audit

/// The committed sample traces of `teardown_in_will_disappear`, `work_before_visible` and
/// `hosting_children_accumulate` (traces/NAME.lifetrace, from traces/scenarios), read from disk and audited with
/// every rule: each mistake gives exactly its finding, its fixed variant gives none.
@Suite("Sample traces of the visibility and hosting rules")
struct SampleTraceRuleTests {
    static func events(_ name: String) throws -> [Event] {
        try SampleTraces.events(name)
    }

    static func audit(_ name: String, _ configuration: String? = nil) throws -> (events: [Event], findings: [Finding]) {
        let events = try events(name)
        let parsed = try configuration.map { try AuditConfiguration(json: Data($0.utf8), origin: "test.json", rules: BuiltinRules.all) } ?? .default
        return (events, try Auditor(configuration: parsed).audit(events))
    }

    /// The ordinal of the first event matching `predicate`.
    static func ordinal(_ events: [Event], _ predicate: (Event) -> Bool) throws -> UInt64 {
        let index = events.firstIndex(where: predicate)
        return UInt64(try #require(index))
    }

    static func isMark(_ name: String, _ event: Event) -> Bool {
        if case .mark(let mark) = event.payload { return mark.name == name }
        return false
    }

    // MARK: teardown_in_will_disappear

    @Test("teardown-cancelled-pop: one finding at the playback teardown; the restarted download is not reported")
    func teardown() throws {
        let (events, findings) = try Self.audit("teardown-cancelled-pop")
        let finding = try #require(findings.first)
        #expect(findings.count == 1, "\(findings.map(\.message))")
        #expect(finding.ruleID == "teardown_in_will_disappear")
        #expect(finding.severity == .warning && finding.verdict == .violation)
        #expect(finding.controller == "PlayerViewController#3")
        #expect(finding.callback == "viewWillDisappear")
        #expect(finding.ordinal == (try Self.ordinal(events) { Self.isMark("teardown", $0) }))
        #expect(finding.timestamp == events[Int(finding.ordinal)].timestamp)
        #expect(finding.message.contains("(teardown 'playback')"))
        #expect(finding.message.contains("cancelled at 6.300 s"))
        #expect(finding.message.contains("task.cancel 'download' was restarted"))
        let cancel = try Self.ordinal(events) {
            if case .container(let container) = $0.payload { return container.operation == .interactiveTransitionCancel }
            return false
        }
        #expect(finding.related.map(\.ordinal).contains(cancel))
        #expect(finding.related.map(\.ordinal) == finding.related.map(\.ordinal).sorted())
    }

    @Test("teardown-cancelled-pop-fixed: pause/resume around the cancelled pop, teardown in viewDidDisappear: no finding")
    func teardownFixed() throws {
        let findings = try Self.audit("teardown-cancelled-pop-fixed").findings
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    @Test("the teardown marks are a parameter: with only an app-specific name, the scenario gives nothing")
    func teardownMarksConfigurable() throws {
        let findings = try Self.audit("teardown-cancelled-pop", #"{"rules": {"teardown_in_will_disappear": {"marks": ["player.stop"]}}}"#).findings
        #expect(findings.isEmpty)
        let custom = ControllerRef(serial: 1, typeName: "PlayerViewController")
        var trace = ExampleTrace()
        trace.appear(custom)
        trace.interval(.viewWillDisappear, custom) { $0.mark(MarkEvent("player.stop", controller: custom)) }
        trace.callback(.viewWillAppear, custom)
        trace.callback(.viewDidAppear, custom)
        let configuration = try AuditConfiguration(json: Data(#"{"rules": {"teardown_in_will_disappear": {"marks": ["player.stop"]}}}"#.utf8), origin: nil, rules: BuiltinRules.all)
        let mine = try Auditor(configuration: configuration).audit(trace.events).filter { $0.ruleID == "teardown_in_will_disappear" }
        #expect(mine.map(\.message).first?.contains("(player.stop)") == true)
        #expect(try Auditor().audit(trace.events).filter { $0.ruleID == "teardown_in_will_disappear" }.isEmpty)
    }

    @Test("a teardown still not restored when the process ends (new run) is reported at that point, once")
    func teardownAcrossRuns() throws {
        var events = TeardownInWillDisappearRule.examples[0].events
        events.removeLast(3) // cut before the reappearance's viewDidAppear interval (begin, mark, end)
        let later = events.last!.timestamp + 1_000_000_000
        events.append(Event(timestamp: later, .recorder(.runStarted(process: "Player[2]"))))
        let mine = try Auditor().audit(events).filter { $0.ruleID == "teardown_in_will_disappear" }
        #expect(mine.count == 1)
        // The download was not restarted before the process ended, so both teardowns are open.
        #expect(mine.first?.message.contains("teardown 'playback', task.cancel 'download'") == true)
    }

    @Test("a name list must be an array of strings; the error names the key")
    func namesParameterErrors() {
        for text in [#"{"rules": {"teardown_in_will_disappear": {"marks": "teardown"}}}"#, #"{"rules": {"teardown_in_will_disappear": {"marks": [1]}}}"#] {
            do {
                _ = try AuditConfiguration(json: Data(text.utf8), origin: "x.json", rules: BuiltinRules.all)
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.description.contains("rules.teardown_in_will_disappear.marks"), "\(error.description)")
            }
        }
    }

    // MARK: work_before_visible

    @Test("work-before-visible: one finding at the timer started in viewDidLoad, 19.8 s before viewWillAppear")
    func workBeforeVisible() throws {
        let (events, findings) = try Self.audit("work-before-visible")
        let finding = try #require(findings.first)
        #expect(findings.count == 1, "\(findings.map(\.message))")
        #expect(finding.ruleID == "work_before_visible")
        #expect(finding.severity == .warning && finding.verdict == .violation)
        #expect(finding.controller == "DashboardViewController#1")
        #expect(finding.callback == "viewDidLoad")
        #expect(finding.ordinal == (try Self.ordinal(events) { Self.isMark("timer.start", $0) }))
        #expect(finding.message.contains("starts work in viewDidLoad at 0.200 s (timer.start 'refresh', request.start 'hero-image')"))
        #expect(finding.message.contains("began only at 20.000 s"))
        let willAppear = try Self.ordinal(events) {
            if case .callback(let callback) = $0.payload { return callback.callback == .viewWillAppear && callback.controller.typeName == "DashboardViewController" }
            return false
        }
        #expect(finding.related.map(\.ordinal).contains(willAppear))
    }

    @Test("work-before-visible-fixed: the work starts in viewDidAppear: no finding")
    func workBeforeVisibleFixed() throws {
        let findings = try Self.audit("work-before-visible-fixed").findings
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    @Test("the grace is a parameter: 30 s covers the 19.8 s the preloaded tab waited")
    func workGrace() throws {
        let findings = try Self.audit("work-before-visible", #"{"rules": {"work_before_visible": {"grace": "30s"}}}"#).findings
        #expect(findings.isEmpty)
    }

    @Test("an orphaned child (view added without addChild) never gets appearance callbacks and is not reported")
    func workSkipsOrphans() throws {
        let findings = try Self.audit("orphan-child").findings
        #expect(findings.map(\.ruleID) == ["orphan_child"])
    }

    @Test("the trace ends before the grace runs out: inconclusive; long after: a violation")
    func workAtTraceEnd() throws {
        let dashboard = ControllerRef(serial: 1, typeName: "DashboardViewController")
        var trace = ExampleTrace()
        trace.callback(.initialize, dashboard)
        trace.interval(.viewDidLoad, dashboard) { $0.mark(MarkEvent(MarkName.animationStart, controller: dashboard)) }
        let short = try Auditor().audit(trace.events).filter { $0.ruleID == "work_before_visible" }
        #expect(short.map(\.verdict) == [.inconclusive])
        #expect(short.first?.severity == .note)
        trace.wait(5)
        trace.callback(.didReceiveMemoryWarning, dashboard)
        let long = try Auditor().audit(trace.events).filter { $0.ruleID == "work_before_visible" }
        #expect(long.map(\.verdict) == [.violation])
        #expect(long.first?.message.contains("in viewDidLoad at 0.020 s (animation.start)") == true)
    }

    // MARK: hosting_children_accumulate

    @Test("hosting-children-accumulate: one finding at the fifth live hosting child, peak 6")
    func hosting() throws {
        let (events, findings) = try Self.audit("hosting-children-accumulate")
        let finding = try #require(findings.first)
        #expect(findings.count == 1, "\(findings.map(\.message))")
        #expect(finding.ruleID == "hosting_children_accumulate")
        #expect(finding.severity == .warning)
        #expect(finding.controller == "TimelineViewController#1")
        let addChildren = events.indices.filter {
            if case .container(let container) = events[$0].payload { return container.operation == .addChild }
            return false
        }
        #expect(addChildren.count == 6)
        #expect(finding.ordinal == UInt64(addChildren[4]))
        #expect(finding.message.contains("5 live UIHostingController<PostCell> children at 3.000 s"))
        #expect(finding.message.contains("up to 6 at 3.500 s"))
        #expect(finding.message.contains("6 added with addChild since 1.000 s, 0 removed"))
        #expect(finding.related.first?.ordinal == UInt64(addChildren[0]))
    }

    @Test("hosting-children-accumulate-fixed: children removed as cells are reused: no finding")
    func hostingFixed() throws {
        let findings = try Self.audit("hosting-children-accumulate-fixed").findings
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    @Test("max_live_children is a parameter")
    func hostingLimit() throws {
        #expect(try Self.audit("hosting-children-accumulate", #"{"rules": {"hosting_children_accumulate": {"max_live_children": 6}}}"#).findings.isEmpty)
        #expect(try Self.audit("hosting-children-accumulate", #"{"rules": {"hosting_children_accumulate": {"max_live_children": 2}}}"#).findings.first?.message.contains("3 live") == true)
    }

    @Test("a subclass is a hosting controller when it hosts a SwiftUI view; other children are not counted")
    func hostingBySwiftUI() throws {
        func trace(hostsSwiftUI: Bool) -> [Event] {
            let list = ExampleTrace.controller(1, "TimelineViewController")
            var trace = ExampleTrace()
            trace.appear(list)
            for serial in UInt32(2)...7 {
                let cell = ExampleTrace.controller(serial, "PostCellHost")
                trace.container(.addChild, list, [cell])
                trace.callback(.willMoveToParent, cell, parent: .controller(list))
                if hostsSwiftUI { trace.swiftUI(.onAppear, view: "PostCell", host: cell) }
                trace.callback(.didMoveToParent, cell, parent: .controller(list))
            }
            return trace.events
        }
        #expect(try Auditor().audit(trace(hostsSwiftUI: true)).filter { $0.ruleID == "hosting_children_accumulate" }.count == 1)
        #expect(try Auditor().audit(trace(hostsSwiftUI: false)).filter { $0.ruleID == "hosting_children_accumulate" }.isEmpty)
    }
}
