import Audit
import Testing
import TraceModel

/// Where `analytics_overcount` says an extra screen view was sent from (a finding's `callback` and its "from …"
/// text): the enclosing app delegate callback by its application or scene method name, or the SwiftUI view whose
/// onAppear came just before, by name even when several views' onAppear alternate. The rule keeps these as plain
/// codes and positions and builds the text only for a finding; by events and by batches.
@Suite("analytics_overcount: where a screen view was sent from")
struct AnalyticsSentFromTests {
    static let feed = ControllerRef(serial: 3, typeName: "FeedHostingController")

    static func screenView(_ name: String, controller: ControllerRef?) -> MarkEvent {
        MarkEvent(MarkName.analyticsScreen, controller: controller, fields: [MarkField("name", .string(name))])
    }

    static let auditor: Auditor = {
        let all = Set(BuiltinRules.all.map(\.id))
        return try! Auditor(configuration: AuditConfiguration(disabledRules: all.subtracting(["analytics_overcount"]), optInRules: ["analytics_overcount"]))
    }()

    static func findings(_ events: [Event]) throws -> [Finding] {
        var all: [Finding] = []
        for frameEvents in [2, 7, 4_096] {
            let result = try BatchDispatchAgreementTests.audit(events, Self.auditor, frameEvents: frameEvents)
            #expect(result.batches == result.events)
            all = result.events
        }
        return all
    }

    @Test("inside an app delegate callback: the application or the scene method's name", arguments: [nil, "main"] as [String?])
    func appCallback(scene: String?) throws {
        var trace = ExampleTraceBuilder()
        trace.appear(Self.feed)
        trace.callback(.viewWillDisappear, Self.feed)
        trace.callback(.viewDidDisappear, Self.feed)
        trace.app(.didBecomeActive, .begin, scene: scene)
        trace.mark(Self.screenView("feed", controller: Self.feed))
        trace.app(.didBecomeActive, .end, scene: scene)
        let finding = try #require(try Self.findings(trace.events).first)
        let method = scene == nil ? AppTransition.didBecomeActive.applicationMethodName : AppTransition.didBecomeActive.sceneMethodName
        #expect(finding.callback == method)
        #expect(finding.message.contains("from \(method), while"), "\(finding.message)")
    }

    @Test("just after a SwiftUI onAppear: the view's name, for each of two alternating views")
    func onAppearViews() throws {
        var trace = ExampleTraceBuilder()
        trace.appear(Self.feed)
        // Intervals: a mark right after an instant callback is attributed to it (instant-only logs).
        trace.interval(.viewWillDisappear, Self.feed) { _ in }
        trace.interval(.viewDidDisappear, Self.feed) { _ in }
        for view in ["FeedView", "BannerView", "FeedView"] {
            trace.swiftUI(.onAppear, view: view, host: Self.feed)
            trace.mark(Self.screenView("feed", controller: nil))
        }
        let finding = try #require(try Self.findings(trace.events).first)
        #expect(finding.callback == "FeedView.onAppear")
        #expect(finding.message.contains("3 counted for no completed appearance"), "\(finding.message)")
        // The examples follow "…(viewDidAppear); 3 counted for no completed appearance: ", joined by "; ".
        let froms = finding.message.components(separatedBy: "; ").dropFirst().map { $0.contains("from BannerView.onAppear") }
        #expect(froms == [false, true, false], "\(finding.message)")
        #expect(finding.related.map(\.message).contains { $0.contains("from BannerView.onAppear") })
    }

    @Test("two names in one appearance of a type: each name's second view is the duplicate")
    func duplicatesByName() throws {
        var trace = ExampleTraceBuilder()
        trace.appear(Self.feed)
        trace.callback(.viewWillAppear, Self.feed)
        for name in ["feed", "banner", "banner", "feed", "other"] { trace.mark(Self.screenView(name, controller: Self.feed)) }
        trace.callback(.viewDidAppear, Self.feed)
        trace.callback(.viewWillDisappear, Self.feed)
        let findings = try Self.findings(trace.events)
        #expect(findings.count == 2)
        #expect(findings.filter { $0.message.contains("screen view 'feed' 2 times") }.count == 1)
        #expect(findings.filter { $0.message.contains("screen view 'banner' 2 times") }.count == 1)
        for finding in findings {
            #expect(finding.message.contains("1 counted for no completed appearance"), "\(finding.message)")
            #expect(finding.message.contains("a second time in the same appearance"), "\(finding.message)")
        }
    }
}
