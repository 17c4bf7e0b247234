import Replay
import TraceLog
import TraceModel

/// `geometry_before_appearing`: view geometry read before viewIsAppearing.
enum GeometryBeforeAppearingRule {
    static let id = "geometry_before_appearing"

    static let rule = Rule(descriptor) { GeometryBeforeAppearingMonitor(settings: $0) }

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "A geometry.read mark inside viewDidLoad or viewWillAppear, where bounds are not final.",
            defaultSeverity: .warning,
            explanation: """
                In viewDidLoad the view is not in a window and has its nib or default size; in viewWillAppear it \
                may not be in the hierarchy yet, and its size and traits can still change. viewIsAppearing (iOS \
                17, back-deployed to iOS 13) is the first callback where the view is in the hierarchy with valid \
                geometry and traits (Apple, "viewIsAppearing(_:)"; DESIGN.md §2). Layout computed from bounds read \
                earlier is wrong on other screen sizes, in split view, or after rotation. A `geometry.read` mark \
                (code read the view's bounds) is attributed to the callback executing (see "Attribution" in \
                docs/RULES.md); one finding per callback run.
                """,
            fix: """
                Move size-dependent work to viewIsAppearing, or to viewDidLayoutSubviews / \
                viewWillTransition(to:with:) when it must follow every size change; prefer Auto Layout constraints \
                over reading bounds.
                """,
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
}

/// The monitor of `geometry_before_appearing`.
final class GeometryBeforeAppearingMonitor: RuleMonitor {
    let interests: EventInterests = .marks
    let markFilter = MarkFilter([MarkName.geometryRead])
    private let severity: Severity
    @exclusivity(unchecked) private var lastReportedCallback: UInt64?

    init(settings: RuleSettings) {
        severity = settings.severity
    }

    /// `geometry.read` marks, as records: no `Event` is built for them.
    func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        guard record.kind == .mark, record.markName == .geometryRead else { return }
        // The raw attribution first: nothing is built for a mark outside viewDidLoad and viewWillAppear.
        guard let active = context.attribution.enclosingActive(ofSerial: record.hasController ? record.controller : nil),
              case .controller(let callback) = active.kind, callback == .viewDidLoad || callback == .viewWillAppear,
              lastReportedCallback != active.ordinal, let enclosing = context.attribution.enclosing(of: active) else { return }
        lastReportedCallback = enclosing.ordinal
        let owner = enclosing.controller
        var size = ""
        if let width = context.field(.width, of: record)?.doubleValue, let height = context.field(.height, of: record)?.doubleValue {
            size = " (\(Self.points(width))×\(Self.points(height)) pt)"
        }
        findings.append(Finding(
            ruleID: GeometryBeforeAppearingRule.id, severity: severity, controller: owner?.displayName,
            timestamp: record.timestamp, ordinal: context.ordinal, callback: callback.name,
            message: "\(owner?.displayName ?? "the app") reads view geometry\(size) inside \(callback.name) at \(context.time(record.timestamp)); bounds are not final before viewIsAppearing.",
            related: [RelatedEvent(ordinal: enclosing.ordinal, timestamp: enclosing.timestamp, message: "\(callback.name) began at \(context.time(enclosing.timestamp))")],
            source: context.source
        ))
    }

    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {}

    private static func points(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }

    func finish(_ end: TraceEnd, _ findings: inout [Finding]) {}
}
