import Testing
import TraceModel
@testable import Audit

/// `request_not_cancelled` beyond its examples: where a cancel still counts, which exits judge, whose requests.
@Suite("request_not_cancelled")
struct RequestNotCancelledTests {
    let list = ExampleTrace.controller(1, "ListViewController")
    let detail = ExampleTrace.controller(2, "DetailViewController")

    func request(_ name: String, _ id: String, _ controller: ControllerRef?) -> MarkEvent {
        MarkEvent(name, controller: controller, fields: [MarkField("id", .string(id))])
    }

    func audit(_ trace: ExampleTrace) throws -> [Finding] {
        try Auditor(configuration: AuditConfiguration(optInRules: [RequestNotCancelledRule.id])).audit(trace.events)
            .filter { $0.ruleID == RequestNotCancelledRule.id }
    }

    @Test("a cancel inside viewDidDisappear counts; one after it does not")
    func cancelInsideTheExit() throws {
        var inside = ExampleTrace()
        inside.appear(detail)
        inside.mark(request(MarkName.requestStart, "r1", detail))
        inside.callback(.viewWillDisappear, detail)
        inside.interval(.viewDidDisappear, detail) { $0.mark(request(MarkName.requestCancel, "r1", detail)) }
        #expect(try audit(inside).isEmpty)

        var after = ExampleTrace()
        after.appear(detail)
        let start = UInt64(after.events.count)
        after.mark(request(MarkName.requestStart, "r1", detail))
        after.callback(.viewWillDisappear, detail)
        after.callback(.viewDidDisappear, detail, .begin)
        after.callback(.viewDidDisappear, detail, .end)
        after.mark(request(MarkName.requestCancel, "r1", detail))
        let findings = try audit(after)
        #expect(findings.count == 1)
        #expect(findings.first?.controller == "DetailViewController#2")
        #expect(findings.first?.ordinal == start)
        #expect(findings.first?.related.first?.message.contains("viewDidDisappear") == true)
    }

    @Test("a deinit with the request still running is reported; another controller's cancel does not help")
    func deinitAndOwners() throws {
        var trace = ExampleTrace()
        trace.callback(.initialize, detail)
        trace.interval(.viewDidLoad, detail) { $0.mark(request(MarkName.requestStart, "r2", nil)) }
        trace.mark(request(MarkName.requestCancel, "r2", list))
        trace.callback(.deinitialize, detail)
        let findings = try audit(trace)
        #expect(findings.count == 1)
        #expect(findings.first?.callback == "viewDidLoad")
        #expect(findings.first?.message.contains("was deinitialized") == true)
    }

    @Test("a trace without request marks reports the rule as idle, with the facts it lacked")
    func idle() throws {
        var trace = ExampleTrace()
        trace.appear(list)
        let session = try Auditor(configuration: AuditConfiguration(optInRules: [RequestNotCancelledRule.id])).makeSession()
        for (ordinal, event) in trace.events.enumerated() { session.observe(event, ordinal: UInt64(ordinal)) }
        _ = session.finish()
        let idle = session.idleRules.map(\.description)
        #expect(idle.contains("request_not_cancelled: no resource starts"))
        #expect(idle.contains("critical_save_placement: no save marks"))
        #expect(!idle.contains { $0.hasPrefix("appearance_balance") })
    }
}
