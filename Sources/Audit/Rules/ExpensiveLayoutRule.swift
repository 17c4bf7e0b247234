import TraceLog
import TraceModel

/// `expensive_layout`: a layout callback (viewWillLayoutSubviews, viewDidLayoutSubviews) that takes longer than
/// a frame's budget.
enum ExpensiveLayoutRule {
    static let id = "expensive_layout"
    static let defaultBudget: UInt64 = 8_000_000

    static let rule = Rule(descriptor) { ExpensiveLayoutMonitor(settings: $0) }

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
                several times in one transition (DESIGN.md §2: "(B layout)" in every appearance order; \
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
}

/// The monitor of `expensive_layout`.
final class ExpensiveLayoutMonitor: RuleMonitor {
    let interests: EventInterests = [.callbacks, .marks, .recorder]
    let markFilter = MarkFilter([MarkName.work])
    let callbackFilter = CallbackSet([.viewWillLayoutSubviews, .viewDidLayoutSubviews])
    /// Its callbacks and `work` marks read nothing of the replayed state.
    let stateFreeCallbacks = CallbackSet.all
    let stateFreeRecords: EventInterests = .marks
    /// From batches it reads its layout callbacks itself (`scanCallbacks(_:_:)`): ≈ 17 000 of every 100 000 events,
    /// for which the engine's call per delivered callback cost more than its body (the engine lends it the
    /// callbacks before a `work` mark first).
    let scansCallbacks = true

    /// A layout callback interval that has begun and not ended.
    /// Plain bytes, so the common begin/end pair costs a store and a load in `open`; what few frames have (a
    /// source, `work` marks) is in `details`.
    private struct Frame {
        /// The controller's serial (its `ControllerRef` is resolved from the end record, for a finding only).
        var controller: UInt32
        /// The callback's raw value (plain bytes: `Callback` is not `BitwiseCopyable` outside TraceModel).
        var callbackCode: UInt8
        /// Whether `details` holds something for this frame (by `ordinal`).
        var hasDetails = false
        var begin: UInt64
        var ordinal: UInt64
        /// Time spent in layout callbacks of other controllers nested in this one.
        var nested: UInt64 = 0

        var callback: Callback { Callback(rawValue: callbackCode) ?? .viewWillLayoutSubviews }

        init(controller: UInt32, callback: Callback, begin: UInt64, ordinal: UInt64) {
            self.controller = controller
            callbackCode = callback.rawValue
            self.begin = begin
            self.ordinal = ordinal
        }
    }

    /// A frame's source and `work` marks (what `FrameDetails.take(_:)` hands over at its end).
    private struct Details {
        var source: EventSource?
        /// The longest `work` interval ended in this callback.
        var longestWork: (label: String, duration: UInt64, ordinal: UInt64, begin: UInt64)?
    }

    /// Every pass over budget of one controller type and callback.
    private struct Overruns {
        var first: Finding
        var count = 1
        var total: UInt64
        /// The latest repeat; its related-event text is built only in `finish`.
        var last: Repeat?
    }

    /// A pass over budget after the first of its key.
    private struct Repeat {
        var name: String
        var callback: Callback
        var ordinal: UInt64
        var begin: UInt64
        var own: UInt64
        var source: EventSource?
    }

    /// The details of the open frames that have some, as flat lists keyed by the frame's ordinal: few entries
    /// (frames nest a few deep), searched from the end, and kept at their capacity (no allocation per frame).
    private struct FrameDetails {
        /// `work` intervals begun and not ended, of every open frame, in the order they began.
        var openWork: [(frame: UInt64, label: String, begin: UInt64, ordinal: UInt64)] = []
        /// The longest `work` interval ended so far in each frame that has one.
        var longest: [(frame: UInt64, label: String, duration: UInt64, ordinal: UInt64, begin: UInt64)] = []
        /// The source of each open frame that has one.
        var sources: [(frame: UInt64, source: EventSource)] = []

        /// A `work` interval labelled `label` began at `begin` (ordinal `ordinal`) in the frame `frame`.
        mutating func begin(_ label: String, at begin: UInt64, ordinal: UInt64, in frame: UInt64) {
            openWork.append((frame, label, begin, ordinal))
        }

        /// The last `work` interval labelled `label` begun in the frame `frame` ended at `end`.
        mutating func end(_ label: String, at end: UInt64, in frame: UInt64) {
            guard let index = openWork.lastIndex(where: { $0.frame == frame && $0.label == label }) else { return }
            let begun = openWork.remove(at: index)
            let duration = end >= begun.begin ? end - begun.begin : 0
            if let slot = longest.lastIndex(where: { $0.frame == frame }) {
                if duration >= longest[slot].duration { longest[slot] = (frame, label, duration, begun.ordinal, begun.begin) }
            } else {
                longest.append((frame, label, duration, begun.ordinal, begun.begin))
            }
        }

        /// Removes and returns what the frame `frame` (which has ended) has.
        mutating func take(_ frame: UInt64) -> Details {
            var details = Details()
            if !openWork.isEmpty { openWork.removeAll { $0.frame == frame } }
            if let slot = longest.lastIndex(where: { $0.frame == frame }) {
                let work = longest.remove(at: slot)
                details.longestWork = (work.label, work.duration, work.ordinal, work.begin)
            }
            if let slot = sources.lastIndex(where: { $0.frame == frame }) { details.source = sources.remove(at: slot).source }
            return details
        }

        mutating func removeAll() {
            openWork.removeAll(keepingCapacity: true)
            longest.removeAll(keepingCapacity: true)
            sources.removeAll(keepingCapacity: true)
        }
    }

    private struct Key: Hashable {
        var typeName: String
        var callback: Callback
    }

    private let severity: Severity
    private let budget: UInt64
    /// The open layout frames, innermost last.
    @exclusivity(unchecked) private var open = PlainStack<Frame>()
    /// The details of the open frames that have some, by the frame's ordinal.
    @exclusivity(unchecked) private var details = FrameDetails()
    @exclusivity(unchecked) private var overruns: [Key: Overruns] = [:]
    @exclusivity(unchecked) private var order: [Key] = []

    init(settings: RuleSettings) {
        severity = settings.severity
        budget = settings.duration("budget", default: ExpensiveLayoutRule.defaultBudget)
    }

    func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        if record.phase == .begin {
            var frame = Frame(controller: record.controller, callback: record.callback, begin: record.timestamp, ordinal: context.ordinal)
            if context.hasSource, let source = context.source {
                frame.hasDetails = true
                details.sources.append((frame.ordinal, source))
            }
            open.append(frame)
            return
        }
        guard record.phase == .end else { return }
        if let ended = end(record.callback.rawValue, of: record.controller, at: record.timestamp) {
            self.record(ended.frame, ended.details, context.controller(of: record), own: ended.own, end: record.timestamp, context)
        }
    }

    /// The layout callback entries of a batch not read yet, as `observe(callback:_:_:)` (a callback entry has no
    /// source).
    func scanCallbacks(_ scan: CallbackScan, _ findings: inout [Finding]) {
        let entries = scan.entries
        for position in scan.positions {
            let at = scan.index(at: position)
            let word = entries.word(at: at).raw
            // A listed entry is a layout callback entry; its phase code (`Phase` raw value: begin 0, end 1, instant 2).
            let phase = (word >> 56) & 3
            let code = UInt8(truncatingIfNeeded: word >> 48)
            let serial = UInt32(truncatingIfNeeded: word)
            if phase == 0 {
                // A begin; the code is a valid `Callback` raw value, its case number (`CallbackCodeTests`).
                open.append(Frame(controller: serial, callback: unsafeBitCast(code, to: Callback.self), begin: entries.timestamp(at: at), ordinal: scan.ordinal(at: at)))
            } else if phase == 1, let ended = self.end(code, of: serial, at: entries.timestamp(at: at)) {
                let record = scan.record(at: at)
                let context = scan.context(at: at)
                self.record(ended.frame, ended.details, context.controller(of: record), own: ended.own, end: record.timestamp, context)
            }
        }
    }

    /// Ends the innermost open frame of the controller `serial` and callback `code` at `timestamp`; returns it, its
    /// details and its own time when it went over budget.
    @inline(__always)
    private func end(_ code: UInt8, of serial: UInt32, at timestamp: UInt64) -> (frame: Frame, details: Details, own: UInt64)? {
        // Usually the innermost frame ends: checked first, and removed without shifting the others.
        let last = open.count &- 1
        let frame: Frame
        let index: Int
        if last >= 0, open[last].controller == serial, open[last].callbackCode == code {
            index = last
            frame = open.removeLast()
        } else {
            guard let found = open.lastIndex(where: { $0.controller == serial && $0.callbackCode == code }) else { return nil }
            index = found
            frame = open.remove(at: index)
        }
        let duration = timestamp >= frame.begin ? timestamp - frame.begin : 0
        if index > 0 { open[index &- 1].nested &+= duration }
        let own = duration >= frame.nested ? duration - frame.nested : 0
        // Most frames have no details and are within budget: nothing is built for them.
        if frame.hasDetails {
            let frameDetails = details.take(frame.ordinal)
            return own > budget ? (frame, frameDetails, own) : nil
        }
        return own > budget ? (frame, Details(), own) : nil
    }

    /// `work` marks, as records: no `Event` is built for them (the engine lent the layout callbacks before the mark
    /// first).
    func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        guard record.kind == .mark, record.markName == .work, !open.isEmpty, record.phase != .instant else { return }
        let markController: UInt32? = record.hasController ? record.controller : nil
        guard let index = open.lastIndex(where: { markController == nil || $0.controller == markController }) else { return }
        let ordinal = open[index].ordinal
        if record.phase == .begin {
            open[index].hasDetails = true
            details.begin(context.field(.label, of: record)?.description ?? "", at: record.timestamp, ordinal: context.ordinal, in: ordinal)
        } else {
            guard open[index].hasDetails, !details.openWork.isEmpty else { return }
            details.end(context.field(.label, of: record)?.description ?? "", at: record.timestamp, in: ordinal)
        }
    }

    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {
        switch event.payload {
        case .recorder(.runStarted) where context.ordinal > 0:
            // The previous process ended: its open callbacks never end.
            open.removeAll()
            details.removeAll()
        default:
            break
        }
    }

    private func record(_ frame: Frame, _ details: Details, _ controller: ControllerRef, own: UInt64, end: UInt64, _ context: EventContext) {
        let key = Key(typeName: controller.typeName, callback: frame.callback)
        let name = controller.displayName
        if overruns[key] != nil {
            overruns[key]!.count += 1
            overruns[key]!.total &+= own
            overruns[key]!.last = Repeat(name: name, callback: frame.callback, ordinal: frame.ordinal, begin: frame.begin, own: own, source: details.source)
            return
        }
        var message = "\(frame.callback.name) of \(name) took \(TimeText.duration(own)) at \(context.time(frame.begin)) (budget \(TimeText.duration(budget)))"
        var related = [RelatedEvent(ordinal: frame.ordinal, timestamp: frame.begin, message: "\(frame.callback.name) began at \(context.time(frame.begin)) and ended at \(context.time(end))", source: details.source)]
        if let work = details.longestWork, work.duration > 0 {
            message += ", \(TimeText.duration(work.duration)) of it in work '\(work.label)'"
            related.append(RelatedEvent(ordinal: work.ordinal, timestamp: work.begin, message: "work '\(work.label)' began at \(context.time(work.begin)) and took \(TimeText.duration(work.duration))"))
        }
        message += "; layout callbacks run again on every bounds change (rotation, keyboard, size change, constraint update), so this cost repeats."
        overruns[key] = Overruns(
            first: Finding(
                ruleID: ExpensiveLayoutRule.id, severity: severity, controller: name,
                timestamp: frame.begin, ordinal: frame.ordinal, callback: frame.callback.name,
                message: message, related: related, source: details.source
            ),
            total: own
        )
        order.append(key)
    }

    func finish(_ end: TraceEnd, _ findings: inout [Finding]) {
        for key in order {
            guard var overrun = overruns[key]?.first, let seen = overruns[key] else { continue }
            if seen.count > 1 {
                overrun.message += " \(key.typeName).\(key.callback.name) went over budget \(seen.count) times in this trace (\(TimeText.duration(seen.total)) in all)."
                if let last = seen.last {
                    overrun.related.append(RelatedEvent(ordinal: last.ordinal, timestamp: last.begin, message: "\(last.name) \(last.callback.name) at \(end.time(last.begin)) took \(TimeText.duration(last.own))", source: last.source))
                }
            }
            findings.append(overrun)
        }
    }
}
