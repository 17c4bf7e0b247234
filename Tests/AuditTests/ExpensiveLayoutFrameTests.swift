import LifetraceTestSupport
import Testing
@testable import Audit
import TraceModel

/// `expensive_layout`'s frames and `work` details (flat lists by frame ordinal): an outer frame that ends before a
/// frame nested in it, `work` intervals of two frames open at once, and a frame with a source.
@Suite("expensive_layout frames")
struct ExpensiveLayoutFrameTests {
    @Test("the outer frame ending first keeps its work and source; the inner one its own work")
    func outerEndsFirst() throws {
        let outer = ExampleTrace.controller(1, "OuterViewController")
        let inner = ExampleTrace.controller(2, "InnerViewController")
        func work(_ phase: Phase, _ controller: ControllerRef, _ label: String) -> MarkEvent {
            MarkEvent(MarkName.work, phase, controller: controller, fields: [MarkField("label", .string(label))])
        }
        var trace = ExampleTrace()
        trace.step = 1_000_000
        trace.callback(.viewDidLayoutSubviews, outer, .begin)
        trace.mark(work(.begin, outer, "outer-a"))
        trace.wait(0.002)
        trace.mark(work(.end, outer, "outer-a"))
        trace.callback(.viewWillLayoutSubviews, inner, .begin)
        trace.mark(work(.begin, inner, "inner-a"))
        trace.mark(work(.begin, outer, "outer-b"))
        trace.wait(0.020)
        trace.mark(work(.end, outer, "outer-b"))
        trace.callback(.viewDidLayoutSubviews, outer, .end)
        trace.wait(0.015)
        trace.mark(work(.end, inner, "inner-a"))
        trace.callback(.viewWillLayoutSubviews, inner, .end)
        var events = trace.events
        let source = EventSource(text: "layout", file: "Outer.swift", line: 12)
        events[0].source = source
        let findings = try Auditor(configuration: AuditConfiguration(optInRules: [ExpensiveLayoutRule.id])).audit(events)
            .filter { $0.ruleID == ExpensiveLayoutRule.id }
        #expect(findings.count == 2)
        let outerFinding = try #require(findings.first { $0.controller == outer.displayName })
        #expect(outerFinding.message.contains("of it in work 'outer-b'"), "\(outerFinding.message)")
        #expect(outerFinding.source == source)
        let innerFinding = try #require(findings.first { $0.controller == inner.displayName })
        #expect(innerFinding.message.contains("of it in work 'inner-a'"), "\(innerFinding.message)")
        #expect(innerFinding.source == nil)
    }
}
