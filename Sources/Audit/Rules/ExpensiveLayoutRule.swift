import TraceModel

/// `expensive_layout`: a layout callback (viewWillLayoutSubviews, viewDidLayoutSubviews) that takes longer than
/// a frame's budget.
struct ExpensiveLayoutRule: AuditRule {
    static let id = "expensive_layout"
    static let defaultBudget: UInt64 = 8_000_000

    static let rule = Rule(Self.self) { ExpensiveLayoutRule(settings: $0) }

    let facts: [FactKind] = FactKind.callbacks(.viewWillLayoutSubviews, .viewDidLayoutSubviews) + [.mark(MarkName.work), .runStarted]

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "viewWillLayoutSubviews or viewDidLayoutSubviews takes longer than the budget (its own time, begin to end, without nested layout callbacks of other controllers).",
            defaultSeverity: .warning,
            parameters: [
                RuleParameter(
                    name: "budget", kind: .duration, defaultValue: .duration(defaultBudget), unit: "ms (trace clock)",
                    summary: "The longest a layout callback may run (its own time); the default is one frame at 120 Hz, half a frame at 60 Hz."
                ),
            ],
            explanation: """
                UIKit calls viewWillLayoutSubviews and viewDidLayoutSubviews whenever the bounds of the \
                controller's view change and its subviews are laid out (Apple, "viewWillLayoutSubviews()", \
                "viewDidLayoutSubviews()"): on the first appearance, and again on every rotation, keyboard \
                appearance, size-class or split-view change, status-bar change and constraint update, often \
                several times in one transition (docs/LIFECYCLE.md: "(B layout)" in every appearance order; \
                viewDidLayoutSubviews, unlike viewDidLoad, has no "once"). Layout runs on the main thread while \
                the frame is being committed, so time spent there delays the frame: a commit that misses the \
                display's deadline is a hitch (Apple, "Understanding hitches in your app"). The rule measures each \
                recorded layout callback interval (begin to end; instant-only traces such as imported console logs \
                have no durations and are not judged) minus the time of layout callbacks of other controllers \
                nested in it, and reports when that exceeds `budget`. Work recorded as `work` intervals inside \
                the callback is named in the message. One finding per controller type and callback, at its first \
                pass over budget, with the number of passes over budget in the whole trace.
                """,
            fix: """
                Do expensive work once, where its inputs become available (viewDidLoad, or when the data \
                arrives), or off the main thread; in the layout callbacks only position and size what exists \
                (frames, constraints constants). For size-dependent rebuilds, compare the new size with the last \
                one and rebuild only when it changed, or use viewWillTransition(to:with:).
                """,
            needs: FactKind.callbacks(.viewWillLayoutSubviews, .viewDidLayoutSubviews),
            examples: examples
        )
    }

    static var examples: [RuleExample] {
        let report = ExampleTrace.controller(1, "ReportViewController")
        func pass(_ trace: inout ExampleTrace, label: String, milliseconds: Double) {
            trace.callback(.viewWillLayoutSubviews, report)
            trace.interval(.viewDidLayoutSubviews, report) { body in
                body.mark(MarkEvent(MarkName.work, .begin, controller: report, fields: [MarkField("label", .string(label))]))
                body.wait(milliseconds / 1000)
                body.mark(MarkEvent(MarkName.work, .end, controller: report, fields: [MarkField("label", .string(label))]))
            }
        }
        var slow = ExampleTrace()
        slow.step = 500_000
        slow.appear(report)
        pass(&slow, label: "rebuild-charts", milliseconds: 45)
        slow.callback(.viewWillTransition, report)
        pass(&slow, label: "rebuild-charts", milliseconds: 45)

        var cheap = ExampleTrace()
        cheap.step = 500_000
        cheap.callback(.initialize, report)
        cheap.interval(.viewDidLoad, report) { body in
            body.mark(MarkEvent(MarkName.work, .begin, controller: report, fields: [MarkField("label", .string("build-charts"))]))
            body.wait(0.045)
            body.mark(MarkEvent(MarkName.work, .end, controller: report, fields: [MarkField("label", .string("build-charts"))]))
        }
        cheap.callback(.viewWillAppear, report)
        cheap.callback(.viewDidAppear, report)
        pass(&cheap, label: "resize-charts", milliseconds: 1)
        cheap.callback(.viewWillTransition, report)
        pass(&cheap, label: "resize-charts", milliseconds: 1)
        return [
            RuleExample(title: "45 ms chart rebuild in viewDidLayoutSubviews, on appearance and again after a rotation", events: slow.events, expectedFindings: 1, expectedSeverity: .warning),
            RuleExample(title: "charts built once in viewDidLoad; viewDidLayoutSubviews only resizes them (about 2 ms)", events: cheap.events, expectedFindings: 0),
        ]
    }

    /// A layout callback that has begun and not ended, with the time of other layout callbacks nested in it and
    /// its `work` intervals.
    struct Frame {
        var controller: UInt32
        var callback: Callback
        var begin: UInt64
        var ordinal: UInt64
        var source: EventSource?
        var nested: UInt64 = 0
        var openWork: [(label: String, begin: UInt64, ordinal: UInt64)] = []
        var longestWork: (label: String, duration: UInt64, ordinal: UInt64, begin: UInt64)?
    }

    struct Key: Hashable {
        var typeName: String
        var callback: Callback
    }

    /// Every pass over budget of one controller type and callback: the first as its finding, the latest repeat.
    struct Overruns {
        var first: Finding
        var count = 1
        var total: UInt64
        var last: RelatedEvent?
    }

    let severity: Severity
    let budget: UInt64
    var open: [Frame] = []
    var overruns: [Key: Overruns] = [:]
    var order: [Key] = []

    init(settings: RuleSettings) {
        severity = settings.severity
        budget = settings.duration("budget", default: Self.defaultBudget)
    }

    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        switch fact {
        case .callback(let callback) where callback.phase == .begin:
            open.append(Frame(controller: callback.controller, callback: callback.callback, begin: replay.timestamp, ordinal: replay.ordinal, source: replay.source))
        case .callback(let callback) where callback.phase == .end:
            guard let index = open.lastIndex(where: { $0.controller == callback.controller && $0.callback == callback.callback }) else { return }
            let frame = open.remove(at: index)
            let duration = replay.timestamp >= frame.begin ? replay.timestamp - frame.begin : 0
            if index > 0 { open[index - 1].nested &+= duration }
            let own = duration >= frame.nested ? duration - frame.nested : 0
            if own > budget { overrun(frame, own: own, replay) }
        case .mark(let mark) where mark.phase != .instant:
            guard let index = open.lastIndex(where: { mark.owner == nil || $0.controller == mark.owner }) else { return }
            let label = mark[field: "label"]?.description ?? ""
            if mark.phase == .begin {
                open[index].openWork.append((label, replay.timestamp, replay.ordinal))
            } else if let work = open[index].openWork.lastIndex(where: { $0.label == label }) {
                let begun = open[index].openWork.remove(at: work)
                let duration = replay.timestamp >= begun.begin ? replay.timestamp - begun.begin : 0
                if duration >= open[index].longestWork?.duration ?? 0 { open[index].longestWork = (label, duration, begun.ordinal, begun.begin) }
            }
        case .runStarted:
            // The previous process ended: its open callbacks never end.
            open.removeAll()
        default:
            break
        }
    }

    private mutating func overrun(_ frame: Frame, own: UInt64, _ replay: ReplayView) {
        let ref = replay.ref(of: frame.controller)
        let key = Key(typeName: ref?.typeName ?? "", callback: frame.callback)
        let name = ref?.displayName ?? "#\(frame.controller)"
        let callback = frame.callback.name
        if overruns[key] != nil {
            overruns[key]!.count += 1
            overruns[key]!.total &+= own
            overruns[key]!.last = RelatedEvent(
                ordinal: frame.ordinal, timestamp: frame.begin, message: "\(name) \(callback) at \(replay.time(frame.begin)) took \(TimeText.duration(own))", source: frame.source)
            return
        }
        var message = "\(callback) of \(name) took \(TimeText.duration(own)) at \(replay.time(frame.begin)) (budget \(TimeText.duration(budget)))"
        var related = [RelatedEvent(ordinal: frame.ordinal, timestamp: frame.begin, message: "\(callback) began at \(replay.time(frame.begin)) and ended at \(replay.time(replay.timestamp))", source: frame.source)]
        if let work = frame.longestWork, work.duration > 0 {
            message += ", \(TimeText.duration(work.duration)) of it in work '\(work.label)'"
            related.append(RelatedEvent(ordinal: work.ordinal, timestamp: work.begin, message: "work '\(work.label)' began at \(replay.time(work.begin)) and took \(TimeText.duration(work.duration))"))
        }
        message += "; layout callbacks run again on every bounds change (rotation, keyboard, size change, constraint update), so this cost repeats."
        let finding = Finding(
            ruleID: Self.id, severity: severity, controller: name, timestamp: frame.begin, ordinal: frame.ordinal, callback: callback,
            message: message, related: related, source: frame.source)
        overruns[key] = Overruns(first: finding, total: own)
        order.append(key)
    }

    func finish(_ replay: ReplayView, _ findings: inout [Finding]) {
        for key in order {
            guard let seen = overruns[key] else { continue }
            var finding = seen.first
            if seen.count > 1 {
                finding.message += " \(key.typeName).\(key.callback.name) went over budget \(seen.count) times in this trace (\(TimeText.duration(seen.total)) in all)."
                if let last = seen.last { finding.related.append(last) }
            }
            findings.append(finding)
        }
    }
}
