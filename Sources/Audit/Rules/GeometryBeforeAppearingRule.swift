import Replay
import TraceModel

/// `geometry_before_appearing`: view geometry read before viewIsAppearing.
struct GeometryBeforeAppearingRule: AuditRule {
    static let id = "geometry_before_appearing"

    static let rule = Rule(Self.self) { GeometryBeforeAppearingRule(settings: $0) }

    let facts: [FactKind] = [.mark(MarkName.geometryRead)]

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "A geometry.read mark inside viewDidLoad or viewWillAppear, where bounds are not final.",
            defaultSeverity: .warning,
            explanation: """
                In viewDidLoad the view is not in a window and has its nib or default size; in viewWillAppear it \
                may not be in the hierarchy yet, and its size and traits can still change. viewIsAppearing (iOS \
                17, back-deployed to iOS 13) is the first callback where the view is in the hierarchy with valid \
                geometry and traits (Apple, "viewIsAppearing(_:)"; docs/LIFECYCLE.md). Layout computed from bounds read \
                earlier is wrong on other screen sizes, in split view, or after rotation. A `geometry.read` mark \
                (code read the view's bounds) is attributed to the callback executing (see "Attribution" in \
                docs/RULES.md); one finding per callback run.
                """,
            fix: """
                Move size-dependent work to viewIsAppearing, or to viewDidLayoutSubviews / \
                viewWillTransition(to:with:) when it must follow every size change; prefer Auto Layout constraints \
                over reading bounds.
                """,
            needs: [.mark(MarkName.geometryRead)],
            examples: examples
        )
    }

    static var examples: [RuleExample] {
        let gallery = ExampleTrace.controller(1, "GalleryViewController")
        let read = MarkEvent(MarkName.geometryRead, controller: gallery, fields: [MarkField("width", .double(320)), MarkField("height", .double(480))])
        var early = ExampleTrace()
        early.callback(.initialize, gallery)
        early.callback(.viewDidLoad, gallery)
        early.callback(.viewWillAppear, gallery)
        early.mark(read)
        early.callback(.viewIsAppearing, gallery)
        early.callback(.viewDidAppear, gallery)

        var inTime = ExampleTrace()
        inTime.callback(.initialize, gallery)
        inTime.callback(.viewDidLoad, gallery)
        inTime.callback(.viewWillAppear, gallery)
        inTime.interval(.viewIsAppearing, gallery) { $0.mark(read) }
        inTime.callback(.viewDidAppear, gallery)
        return [
            RuleExample(title: "bounds read right after viewWillAppear (instant-only log style)", events: early.events, expectedFindings: 1, expectedSeverity: .warning),
            RuleExample(title: "bounds read inside viewIsAppearing", events: inTime.events, expectedFindings: 0),
        ]
    }

    let severity: Severity
    /// The callback the last finding was in: one finding per callback.
    var lastReportedCallback: UInt64?

    init(settings: RuleSettings) {
        severity = settings.severity
    }

    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        guard case .mark(let mark) = fact, let callback = mark.enclosingCallback, callback == .viewDidLoad || callback == .viewWillAppear,
              let enclosing = mark.enclosing, lastReportedCallback != enclosing.ordinal, let owner = mark.enclosingController else { return }
        lastReportedCallback = enclosing.ordinal
        let name = replay.name(of: owner)
        var size = ""
        if let width = mark[field: "width"]?.doubleValue, let height = mark[field: "height"]?.doubleValue {
            size = " (\(Self.points(width))×\(Self.points(height)) pt)"
        }
        findings.append(Finding(
            ruleID: Self.id, severity: severity, controller: name, timestamp: replay.timestamp, ordinal: replay.ordinal, callback: callback.name,
            message: "\(name) reads view geometry\(size) inside \(callback.name) at \(replay.time(replay.timestamp)); bounds are not final before viewIsAppearing.",
            related: [RelatedEvent(ordinal: enclosing.ordinal, timestamp: enclosing.since, message: "\(callback.name) began at \(replay.time(enclosing.since))")],
            source: replay.source))
    }

    private static func points(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
