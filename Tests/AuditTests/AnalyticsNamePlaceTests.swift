import Audit
import LifetraceTestSupport
import Testing
import TraceModel

/// `analytics_overcount` reads a screen view's name (its `id` field, else its `name` field) again only when the
/// string is not at the place (frame, string slot) its type's last screen view read it at
/// (`EventContext.stringFieldPlace`). By batches, in frames of 2 to 4 096 events, it must count every name as the
/// event path (which reads every name) does: names that change, `id` before or after `name`, an `id` that is not a
/// string, two types sending the same names.
@Suite("analytics_overcount: names read again only at a new place")
struct AnalyticsNamePlaceTests {
    static let types = [ControllerRef(serial: 5, typeName: "FeedViewController"), ControllerRef(serial: 6, typeName: "ProfileViewController")]

    /// A screen view of `controller` with one of a few field layouts.
    static func screenView(_ controller: ControllerRef, _ generator: inout SeededGenerator) -> MarkEvent {
        let names = ["feed", "profile", "feed.header", ""]
        let name = names[Int(generator.next() % UInt64(names.count))]
        let fields: [MarkField] = switch generator.next() % 5 {
        case 0: [MarkField("name", .string(name))]
        case 1: [MarkField("id", .string(name)), MarkField("name", .string("ignored"))]
        case 2: [MarkField("name", .string("ignored")), MarkField("id", .string(name))]
        case 3: [MarkField("id", .int(Int64(generator.next() % 3))), MarkField("name", .string(name))]
        default: [MarkField("other", .string(name))]
        }
        return MarkEvent(MarkName.analyticsScreen, controller: controller, fields: fields)
    }

    static func events(seed: UInt64) -> [Event] {
        var generator = SeededGenerator(seed: seed)
        var trace = ExampleTraceBuilder()
        for controller in types { trace.appear(controller) }
        for _ in 0..<60 {
            let controller = types[Int(generator.next() % 2)]
            trace.callback(.viewWillAppear, controller)
            for _ in 0..<(1 + generator.next() % 4) { trace.mark(screenView(controller, &generator)) }
            if generator.next() % 3 != 0 { trace.callback(.viewDidAppear, controller) }
            trace.callback(.viewWillDisappear, controller)
            trace.callback(.viewDidDisappear, controller)
        }
        return trace.events
    }

    @Test("by batches as by events", arguments: [UInt64(1), 2, 3])
    func agreement(seed: UInt64) throws {
        let events = Self.events(seed: seed)
        var found = 0
        for frameEvents in [2, 3, 5, 4_096] {
            let result = try BatchDispatchAgreementTests.audit(events, AnalyticsSentFromTests.auditor, frameEvents: frameEvents)
            #expect(result.batches == result.events, "frames of \(frameEvents)")
            found = result.events.count
        }
        #expect(found > 0)
    }
}
