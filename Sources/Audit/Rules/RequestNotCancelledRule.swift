import Replay
import TraceModel

/// `request_not_cancelled`: a request a controller started is still running when the controller leaves.
struct RequestNotCancelledRule: AuditRule {
    static let id = "request_not_cancelled"

    static let rule = Rule(Self.self) { RequestNotCancelledRule(settings: $0) }

    let facts: [FactKind] = [.resourceStarted, .resourceStopped, .exitCompleted, .runStarted]

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "A `request.start` of a controller whose `id` is not `request.cancel`led before the controller's viewDidDisappear completes or its deinit.",
            defaultSeverity: .warning,
            isOptIn: true,
            explanation: """
                A network request outlives the screen that asked for it unless it is cancelled: the task keeps \
                running, and its completion handler runs later whether or not the controller is still on screen \
                (Apple, "URLSessionTask", "cancel()"); a handler that captures the controller keeps it alive until \
                then. viewDidDisappear is called once the view has been removed from the view hierarchy (Apple, \
                "viewDidDisappear(_:)"), and deinit when the controller is freed, so a request a controller started \
                and did not cancel by the end of either runs for a screen the user has left. The rule follows the \
                standard resource marks (`request.start` and `request.cancel`, by `id`) per controller (the mark's \
                controller, else the one whose callback encloses it) and reports a request still running when the \
                controller's viewDidDisappear finishes or its deinit begins. One finding per controller type and \
                request id, at its first such start, with the number of such starts in the trace. Opt-in: a request \
                that simply completes needs no cancellation, and the standard marks have no completion mark.
                """,
            fix: """
                Cancel the request when the screen leaves (in viewWillDisappear or viewDidDisappear, or in deinit \
                for a request that must outlive a covering presentation), and mark it with `request.cancel` and the \
                same `id`; for Swift concurrency, keep the `Task` and cancel it there.
                """,
            needs: [.resourceStarted],
            examples: examples
        )
    }

    static var examples: [RuleExample] {
        let nav = ExampleTrace.controller(1, "UINavigationController")
        let feed = ExampleTrace.controller(2, "FeedViewController")
        let article = ExampleTrace.controller(3, "ArticleViewController")
        let start = MarkEvent(MarkName.requestStart, controller: article, fields: [MarkField("id", .string("comments"))])
        let cancel = MarkEvent(MarkName.requestCancel, controller: article, fields: [MarkField("id", .string("comments"))])

        func visit(_ trace: inout ExampleTrace, cancelling: Bool) {
            trace.appear(feed)
            trace.push(article, over: feed, navigation: nav)
            trace.mark(start)
            trace.interval(.viewWillDisappear, article) { if cancelling { $0.mark(cancel) } }
            trace.callback(.viewWillAppear, feed)
            trace.callback(.viewDidDisappear, article)
            trace.callback(.viewDidAppear, feed)
        }
        var left = ExampleTrace()
        visit(&left, cancelling: false)
        var cancelled = ExampleTrace()
        visit(&cancelled, cancelling: true)
        return [
            RuleExample(title: "comments request still running when the article is popped", events: left.events, expectedFindings: 1, expectedSeverity: .warning),
            RuleExample(title: "comments request cancelled in viewWillDisappear", events: cancelled.events, expectedFindings: 0),
        ]
    }

    /// A request started and not cancelled.
    struct Request {
        var id: String
        var start: RelatedEvent
        var startedIn: String?
    }

    struct Key: Hashable {
        var typeName: String
        var id: String
    }

    /// The first request of a key still running at an exit, and how many were.
    struct Report {
        var finding: Finding
        var count: Int
    }

    let severity: Severity
    /// Running requests by owner, in start order.
    var running: [UInt32: [Request]] = [:]
    var reports: [Key: Report] = [:]

    init(settings: RuleSettings) {
        severity = settings.severity
    }

    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        switch fact {
        case .resourceStarted(let resource) where resource.kind == .request:
            guard let owner = resource.owner else { return }
            let startedIn = replay.enclosingCallback(of: owner).map(ReplayView.methodName(of:))
            running[owner, default: []].append(Request(id: resource.id, start: replay.related("request.start '\(resource.id)' at \(replay.time(replay.timestamp))"), startedIn: startedIn))
        case .resourceStopped(let resource) where resource.kind == .request:
            guard let owner = resource.owner, let index = running[owner]?.firstIndex(where: { $0.id == resource.id }) else { return }
            running[owner]!.remove(at: index)
        case .exitCompleted(let exit) where exit.cause == .viewDidDisappear || exit.cause == .deinitialized:
            guard let owner = exit.controller, let requests = running.removeValue(forKey: owner), !requests.isEmpty else { return }
            let ref = replay.ref(of: owner)
            let name = ref?.displayName ?? "#\(owner)"
            let left = exit.cause == .deinitialized ? "was deinitialized" : "disappeared (viewDidDisappear)"
            let callback = exit.cause == .deinitialized ? Callback.deinitialize : .viewDidDisappear
            for request in requests {
                let key = Key(typeName: ref?.typeName ?? "", id: request.id)
                if reports[key] != nil {
                    reports[key]!.count += 1
                    continue
                }
                let started = request.startedIn.map { " in \($0)" } ?? ""
                let finding = Finding(
                    ruleID: Self.id, severity: severity, controller: name, timestamp: request.start.timestamp, ordinal: request.start.ordinal,
                    callback: request.startedIn,
                    message: "\(name) started request '\(request.id)'\(started) at \(replay.time(request.start.timestamp)) and \(left) at \(replay.time(exit.timestamp)) without request.cancel of it: the request keeps running for a screen that is gone",
                    related: [RelatedEvent(ordinal: exit.ordinal, timestamp: exit.timestamp, message: "\(name) \(callback.name) at \(replay.time(exit.timestamp))", source: exit.source)],
                    source: request.start.source)
                reports[key] = Report(finding: finding, count: 1)
            }
        case .runStarted:
            // Requests end with their process.
            running.removeAll()
        default:
            break
        }
    }

    func finish(_ replay: ReplayView, _ findings: inout [Finding]) {
        for (key, report) in reports {
            var finding = report.finding
            finding.message += report.count > 1 ? " (\(report.count) such requests '\(key.id)' of \(key.typeName) in this trace)." : "."
            findings.append(finding)
        }
    }
}
