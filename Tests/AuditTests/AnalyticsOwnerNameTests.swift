import Audit
import Testing
import TraceModel

/// One controller serial named with two type names by the screen views it sends (a log that names an object by
/// its address, then by another class name; a hand-edited trace). `analytics_overcount` counted the second name's
/// screen views through a force-unwrapped lookup of a type it had never tracked, and the audit crashed (`Fatal
/// error: Unexpectedly found nil`; fixed by rules8a in the eighth session, this input checked on the old code).
@Suite("analytics_overcount: one serial under two type names")
struct AnalyticsOwnerNameTests {
    static func screenView(_ time: UInt64, _ controller: ControllerRef, _ name: String) -> Event {
        Event(timestamp: time, .mark(MarkEvent(MarkName.analyticsScreen, controller: controller, fields: [MarkField("name", .string(name))])))
    }

    static func callback(_ time: UInt64, _ callback: Callback, _ controller: ControllerRef) -> Event {
        Event(timestamp: time, .callback(CallbackEvent(callback, .instant, controller: controller)))
    }

    @Test("the audit finishes, and the views after the first count as extra views of the same appearance")
    func secondName() throws {
        let feed = ControllerRef(serial: 1, typeName: "FeedViewController")
        let renamed = ControllerRef(serial: 1, typeName: "TimelineViewController")
        let events = [
            Self.callback(1_000, .viewWillAppear, feed),
            Self.screenView(2_000, feed, "feed"),
            Self.callback(3_000, .viewDidAppear, feed),
            Self.screenView(4_000, renamed, "feed"),
            Self.screenView(5_000, renamed, "feed"),
        ]
        let findings = try Auditor().audit(events).filter { $0.ruleID == "analytics_overcount" }
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.message.contains("2 counted for no completed appearance"), "\(finding.message)")
        #expect(finding.message.components(separatedBy: "a second time in the same appearance").count == 3, "\(finding.message)")
    }
}
