import TraceModel

/// Per-controller appearance history of a whole trace: spans of appearance states and marks, one lane per
/// controller, for `lifetrace timeline` and for "when was this controller visible" queries.
///
/// Memory grows with the number of appearance changes and marks (that is what it reports), not with other events.
public struct Timeline: Sendable, Equatable {
    /// One stretch of time in one appearance state.
    public struct Span: Sendable, Equatable {
        public var appearance: Appearance
        /// Start (ns on the trace clock), inclusive.
        public var start: UInt64
        /// End (ns), exclusive; `nil` while it lasts to the end of the trace. A controller's last span ends at its
        /// deinit, or at the end of its process (`Lane.processEndTime`).
        public var end: UInt64?
    }

    /// A mark with the callback it happened in.
    public struct Mark: Sendable, Equatable {
        public var name: String
        public var time: UInt64
        public var ordinal: UInt64
        /// `ReplayState.enclosingCallback(of:)` just before the mark.
        public var enclosing: ActiveCallback?
        /// `enclosing` as `ReplayState.describe(_:)` wrote it then (`Editor#2.viewWillDisappear`).
        public var enclosingName: String?
    }

    public struct Lane: Sendable, Equatable {
        public var controller: ControllerRef
        public var firstSeen: UInt64
        public var spans: [Span]
        public var marks: [Mark]
        public var deinitTime: UInt64?
        /// When the controller's process ended while it was alive (the `runStarted` of the next recording run;
        /// `ControllerState.processEndTime`): the lane ends there, without a deinit.
        public var processEndTime: UInt64? = nil
        /// Ordinals and times of diagnostics about this controller.
        public var diagnostics: [Diagnostic]

        /// The intervals during which the controller was `appeared` (`end == nil`: still appeared at the end).
        public var visibleIntervals: [Span] { spans.filter { $0.appearance == .appeared } }
    }

    /// Lanes in order of first appearance in the trace (serial order for ties).
    public var lanes: [Lane]
    /// First and last event times (ns), `nil` for an empty trace.
    public var start: UInt64?
    public var end: UInt64?
    /// App-level state changes: (time, state).
    public var appStates: [(time: UInt64, state: RunState)] {
        appChanges.map { ($0.time, $0.state) }
    }
    var appChanges: [AppChange] = []

    struct AppChange: Sendable, Equatable {
        var time: UInt64
        var state: RunState
    }

    public init() {
        lanes = []
    }

    /// A visitor that builds a timeline while a replay runs.
    public struct Builder: ReplayVisitor, Sendable {
        public private(set) var timeline = Timeline()
        private var laneIndex: [UInt32: Int] = [:]
        private var enclosingBefore: ActiveCallback?
        private var diagnosticCount: UInt64 = 0

        public init() {}

        public mutating func willApply(_ event: Event, ordinal: UInt64, to state: ReplayState) throws {
            if case .mark(let mark) = event.payload {
                enclosingBefore = state.enclosingCallback(of: mark.controller)
            }
        }

        public mutating func didApply(_ event: Event, ordinal: UInt64, giving state: ReplayState) throws {
            // The earliest and the latest time seen: a damaged trace can hold frames out of time order (readers
            // report them and read on), and the span must not be negative.
            timeline.start = min(timeline.start ?? event.timestamp, event.timestamp)
            timeline.end = max(timeline.end ?? event.timestamp, event.timestamp)
            if timeline.appChanges.last?.state != state.app {
                timeline.appChanges.append(AppChange(time: event.timestamp, state: state.app))
            }
            for ref in event.controllers {
                guard let c = state.controllers[ref.serial] else { continue }
                let index = lane(for: c)
                var lane = timeline.lanes[index]
                if lane.spans.last?.appearance != c.appearance {
                    if !lane.spans.isEmpty { lane.spans[lane.spans.count - 1].end = event.timestamp }
                    lane.spans.append(Span(appearance: c.appearance, start: event.timestamp, end: nil))
                }
                if let deinitTime = c.deinitTime, lane.deinitTime == nil {
                    lane.deinitTime = deinitTime
                    if !lane.spans.isEmpty, lane.spans[lane.spans.count - 1].end == nil {
                        lane.spans[lane.spans.count - 1].end = deinitTime
                    }
                }
                timeline.lanes[index] = lane
            }
            if case .recorder(.runStarted) = event.payload {
                closeLanesEndedWithProcess(at: event.timestamp, state)
            }
            if case .mark(let mark) = event.payload {
                let owner = mark.controller?.serial ?? enclosingBefore?.controllerSerial
                if let owner, let c = state.controllers[owner] {
                    let index = lane(for: c)
                    timeline.lanes[index].marks.append(Mark(
                        name: mark.name, time: event.timestamp, ordinal: ordinal, enclosing: enclosingBefore,
                        enclosingName: enclosingBefore.map { state.describe($0) }))
                }
                enclosingBefore = nil
            }
            // The new diagnostics: from the ones the state keeps in full, then (past its limit) the latest of each event.
            let total = state.diagnosticCount
            while diagnosticCount < total {
                let diagnostic: Diagnostic?
                if diagnosticCount < UInt64(state.diagnostics.count) {
                    diagnostic = state.diagnostics[Int(diagnosticCount)]
                    diagnosticCount += 1
                } else {
                    diagnostic = state.latestDiagnostic
                    diagnosticCount = total
                }
                if let diagnostic, let ref = diagnostic.controller, let c = state.controllers[ref.serial] {
                    timeline.lanes[lane(for: c)].diagnostics.append(diagnostic)
                }
            }
        }

        /// A `runStarted` after earlier events ended the previous process (docs/REPLAY.md, "Recording runs"): every
        /// lane whose controller ended with it closes at `time`, as a deinit would close it.
        private mutating func closeLanesEndedWithProcess(at time: UInt64, _ state: ReplayState) {
            for index in timeline.lanes.indices where timeline.lanes[index].processEndTime == nil && timeline.lanes[index].deinitTime == nil {
                guard let c = state.controllers[timeline.lanes[index].controller.serial], c.processEndTime == time else { continue }
                timeline.lanes[index].processEndTime = time
                let last = timeline.lanes[index].spans.count - 1
                if last >= 0, timeline.lanes[index].spans[last].end == nil {
                    timeline.lanes[index].spans[last].end = time
                }
            }
        }

        private mutating func lane(for c: ControllerState) -> Int {
            if let index = laneIndex[c.ref.serial] { return index }
            let index = timeline.lanes.count
            timeline.lanes.append(Lane(controller: c.ref, firstSeen: c.firstSeen, spans: [], marks: [], deinitTime: nil, diagnostics: []))
            laneIndex[c.ref.serial] = index
            return index
        }
    }

    /// Builds the timeline of a whole trace.
    ///
    /// - Throws: As `Replayer.replay(visitor:)`.
    public static func build(_ replayer: Replayer) throws -> Timeline {
        var builder = Builder()
        try replayer.replay(visitor: &builder)
        return builder.timeline
    }

    /// Builds the timeline of `events` (in memory).
    public static func build<S: Sequence>(_ events: S) -> Timeline where S.Element == Event {
        var builder = Builder()
        _ = try? ReplayState.replaying(events, visitor: &builder)
        return builder.timeline
    }

    /// The lane of the controller whose `displayName` is `name`, if any.
    public func lane(named name: String) -> Lane? {
        lanes.first { $0.controller.displayName == name }
    }

    static func symbol(_ appearance: Appearance) -> Character {
        switch appearance {
        case .unknown: "?"
        case .disappeared: "."
        case .appearing: "/"
        case .appeared: "#"
        case .disappearing: "\\"
        }
    }

    static func symbol(mark: String) -> Character {
        switch mark {
        case MarkName.save: "S"
        case MarkName.edit: "E"
        case MarkName.timerStart, MarkName.timerStop: "T"
        case MarkName.observerAdd, MarkName.observerRemove: "O"
        case MarkName.taskStart, MarkName.taskCancel, MarkName.requestStart, MarkName.requestCancel: "R"
        default: "*"
        }
    }

    /// Renders one text lane per controller, `width` columns for the trace's time span.
    ///
    /// Each column covers `span / width` of trace time and shows the most transient appearance state seen in it
    /// (appearing/disappearing win over appeared/disappeared, so a short transition stays visible); a mark in
    /// the column replaces it with its letter; `!` marks a diagnostic; `x` the deinit; `~` the end of the
    /// controller's process (killed or crashed, no deinit); blank before the controller was first seen and after
    /// its deinit or process end. Times relative to the first event.
    ///
    /// - Parameter origin: The time the header's times count from (`timeline 5.000 s … 6.500 s`): the trace's first
    ///   event, when the timeline is a window of the trace (`clipped(from:to:)`); `start` by default.
    public func render(width: Int = 80, origin: UInt64? = nil) -> String {
        guard let start, let end else { return "(empty trace)\n" }
        let columns = max(10, width)
        let duration = max(end >= start ? end - start : 0, 1)
        func column(_ time: UInt64) -> Int {
            let offset = time >= start ? time - start : 0
            return min(columns - 1, Int(Double(offset) / Double(duration) * Double(columns - 1)))
        }
        let nameWidth = min(40, lanes.map { $0.controller.displayName.count }.max() ?? 0)
        var lines: [String] = []
        let perColumn = TimeText.duration(duration / UInt64(max(columns - 1, 1)))
        let first = start - min(start, origin ?? start)
        lines.append("timeline \(TimeText.seconds(first)) … \(TimeText.seconds(first + duration)), \(columns) columns, \(perColumn) per column")
        lines.append("legend: # appeared  / appearing  \\ disappearing  . disappeared  ? unknown  x deinit  ~ process ended  ! diagnostic  marks: S save  E edit  T timer  O observer  R task/request  * other")
        func rank(_ appearance: Appearance) -> Int {
            switch appearance {
            case .appearing, .disappearing: 3
            case .appeared: 2
            case .disappeared: 1
            case .unknown: 0
            }
        }
        for lane in lanes {
            var cells = [Character](repeating: " ", count: columns)
            var ranks = [Int](repeating: -1, count: columns)
            for span in lane.spans {
                let from = column(span.start)
                let to = span.end.map(column) ?? column(lane.deinitTime ?? lane.processEndTime ?? end)
                for index in from...max(from, to) where rank(span.appearance) > ranks[index] {
                    ranks[index] = rank(span.appearance)
                    cells[index] = Self.symbol(span.appearance)
                }
            }
            for mark in lane.marks { cells[column(mark.time)] = Self.symbol(mark: mark.name) }
            for diagnostic in lane.diagnostics { cells[column(diagnostic.time)] = "!" }
            if let deinitTime = lane.deinitTime { cells[column(deinitTime)] = "x" }
            if let processEndTime = lane.processEndTime { cells[column(processEndTime)] = "~" }
            var name = lane.controller.displayName
            if name.count > nameWidth { name = String(name.prefix(nameWidth - 1)) + "…" }
            name += String(repeating: " ", count: nameWidth - name.count)
            lines.append(name + " |" + String(cells) + "|")
        }
        if appChanges.contains(where: { $0.state != .unknown }) {
            var cells = [Character](repeating: " ", count: columns)
            for change in appChanges {
                let symbol: Character
                switch change.state {
                case .active: symbol = "A"
                case .inactive: symbol = "i"
                case .background: symbol = "B"
                case .terminated: symbol = "T"
                default: symbol = "·"
                }
                cells[column(change.time)] = symbol
            }
            let label = "app" + String(repeating: " ", count: max(0, nameWidth - 3))
            lines.append(label + " |" + String(cells) + "|  (A active, i inactive, B background, T terminated, · unknown)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
