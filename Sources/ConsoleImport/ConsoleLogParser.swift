import TraceModel

/// Turns the lines of a console log into lifecycle events: pure parsing, no files.
///
/// Each line is read for a time prefix (see `LinePrefixReader`), a lifecycle name (every `Callback`, app and
/// scene delegate, presentation-controller-delegate, container and SwiftUI name, in Swift or Objective-C
/// spelling) and the controller it belongs to. Lines matching a `MarkRule` also become marks. Lines with
/// neither are skipped and listed in the result (or, with `strict`, rejected).
///
/// Controllers: each distinct (type name, label) pair gets its own serial, in order of first mention; after a
/// `deinit`/`dealloc` the next mention of the same name is a new controller. Lines that name no controller
/// belong to one anonymous controller (type `(anonymous)`); a paging library's page tag (`viewWillAppear:2`)
/// is a controller with an empty type name and the tag as its label (display name `2`).
///
/// Times (see `ImportedClock`): dated lines are placed relative to the first dated line; times of day that
/// wrap past midnight are read as the next day; a clock that goes back is held at the previous time and the
/// jump reported in `timeAdjustments`; a log with no times gets synthetic times `syntheticStep` apart.
public struct ConsoleLogParser: Sendable {
    /// The spacing of synthetic times when a log has none: 1 ms, in nanoseconds.
    public static let syntheticStep: UInt64 = 1_000_000
    /// The type name of the controller for lines that name none.
    public static let anonymousTypeName = "(anonymous)"

    public var markRules: [MarkRule]
    /// When true, the first unreadable line is an error instead of being skipped.
    public var isStrict: Bool
    /// The path recorded in each event's `source.file`, or `nil`.
    public var sourceFile: String?

    public init(markRules: [MarkRule] = [], isStrict: Bool = false, sourceFile: String? = nil) {
        self.markRules = markRules
        self.isStrict = isStrict
        self.sourceFile = sourceFile
    }

    /// Parses a whole log (lines separated by `\n`, `\r\n` or `\r`).
    ///
    /// - Throws: `ConsoleImportError` with code `.unreadableLine` and the line number, only when `isStrict`.
    public func parse(text: String) throws(ConsoleImportError) -> ConsoleImportResult {
        var lines: [Substring] = []
        text.enumerateLinesWithoutFoundation { lines.append($0) }
        return try parse(lines: lines)
    }

    /// Parses `lines` (line 1 first).
    ///
    /// - Throws: `ConsoleImportError` with code `.unreadableLine` and the line number, only when `isStrict`.
    public func parse<Line: StringProtocol>(lines: [Line]) throws(ConsoleImportError) -> ConsoleImportResult {
        var builder = Builder(parser: self)
        for (offset, line) in lines.enumerated() {
            try builder.read(String(line), number: offset + 1)
        }
        return builder.finish(lineCount: lines.count)
    }
}

extension ConsoleLogParser {
    /// One event waiting for its time.
    private struct Pending {
        var payload: EventPayload
        var source: EventSource
        /// Monotonic time from the line, or `nil` when the line had none.
        var time: Int64?
    }

    private struct Builder {
        let parser: ConsoleLogParser
        var pending: [Pending] = []
        var skipped: [SkippedLine] = []
        var adjustments: [TimeAdjustment] = []
        var refs: [ControllerName: ControllerRef] = [:]
        var controllers: [ControllerRef] = []
        var lastCallbackController: ControllerRef?
        // Clock state.
        var firstTime: LineTime?
        var origin: Int64 = 0
        var previousRaw: Int64?
        var dayOffset: Int64 = 0
        var shift: Int64 = 0

        init(parser: ConsoleLogParser) {
            self.parser = parser
        }

        mutating func read(_ text: String, number: Int) throws(ConsoleImportError) {
            let chars = Array(text)
            guard chars.contains(where: { !$0.isWhitespace }) else { return }
            let prefix = LinePrefixReader.read(chars)
            let time = prefix.time.flatMap { place($0, line: number) }
            let source = EventSource(text: text, file: parser.sourceFile, line: UInt32(clamping: number))
            var produced = false
            if let recognized = LineRecognizer.recognize(chars, from: prefix.messageStart) {
                pending.append(Pending(payload: payload(for: recognized), source: source, time: time))
                produced = true
            }
            for rule in parser.markRules where text.contains(rule.substring) {
                let named = LineRecognizer.namedController(chars, from: prefix.messageStart) { refs[$0] != nil }
                let controller = named.map { ref(for: $0) } ?? lastCallbackController
                let mark = MarkEvent(rule.name, controller: controller, fields: rule.fields)
                pending.append(Pending(payload: .mark(mark), source: source, time: time))
                produced = true
            }
            if !produced {
                if parser.isStrict {
                    throw ConsoleImportError(
                        .unreadableLine, "no lifecycle callback or mark in '\(text)'", file: parser.sourceFile, line: number)
                }
                skipped.append(SkippedLine(line: number, text: text))
            }
        }

        /// Places a line's time on the monotonic clock, handling midnight and clocks that go back.
        private mutating func place(_ time: LineTime, line: Int) -> Int64? {
            if let firstTime {
                guard firstTime.sameKind(as: time) else { return nil }
            } else {
                firstTime = time
                if case .seconds = time { origin = 0 } else { origin = time.value }
            }
            // Overflow-checked throughout: a line whose time cannot be placed (wild jumps between far dates)
            // is treated as untimed, and nothing is changed for it.
            let day: Int64 = 86_400 * 1_000_000_000
            guard var raw = Int64.checked(time.value, times: 1, plus: dayOffset) else { return nil }
            var newDayOffset = dayOffset
            var newShift = shift
            var adjustment: TimeAdjustment?
            if let previousRaw, raw < previousRaw {
                let difference = previousRaw.subtractingReportingOverflow(raw)
                guard !difference.overflow else { return nil }
                let back = difference.partialValue
                if case .timeOfDay = time, back > 12 * 3_600 * 1_000_000_000 {
                    guard let offset = Int64.checked(dayOffset, times: 1, plus: day),
                          let moved = Int64.checked(raw, times: 1, plus: day)
                    else { return nil }
                    newDayOffset = offset
                    raw = moved
                    adjustment = TimeAdjustment(kind: .midnightRollover, line: line, backwardsBy: UInt64(back))
                } else {
                    guard let shifted = Int64.checked(shift, times: 1, plus: back) else { return nil }
                    newShift = shifted
                    adjustment = TimeAdjustment(kind: .clockWentBack, line: line, backwardsBy: UInt64(back))
                }
            }
            let relative = raw.subtractingReportingOverflow(origin)
            guard !relative.overflow, let placed = Int64.checked(relative.partialValue, times: 1, plus: newShift) else {
                return nil
            }
            dayOffset = newDayOffset
            shift = newShift
            if let adjustment { adjustments.append(adjustment) }
            previousRaw = raw
            return placed
        }

        private mutating func ref(for name: ControllerName) -> ControllerRef {
            let key = ControllerName(typeName: name.typeName, label: name.label, isExplicit: false)
            if let existing = refs[key] { return existing }
            let ref = ControllerRef(serial: UInt32(controllers.count + 1), typeName: key.typeName, label: key.label)
            refs[key] = ref
            controllers.append(ref)
            return ref
        }

        private mutating func controllerRef(_ name: ControllerName?) -> ControllerRef {
            ref(for: name ?? ControllerName(typeName: ConsoleLogParser.anonymousTypeName, label: nil, isExplicit: false))
        }

        private mutating func payload(for line: RecognizedLine) -> EventPayload {
            switch line.name {
            case .callback(let callback):
                let controller = controllerRef(line.controller)
                var parent: ParentArgument?
                switch line.parent {
                case .some(.none): parent = ParentArgument.none
                case .some(.some(let name)): parent = .controller(ref(for: name))
                case .none: parent = nil
                }
                lastCallbackController = controller
                if callback == .deinitialize {
                    // Addresses and names are reused: a later mention is a new controller.
                    refs[ControllerName(typeName: controller.typeName, label: controller.label, isExplicit: false)] = nil
                }
                let animated = callback.takesAnimated ? line.animated : nil
                return .callback(CallbackEvent(callback, line.phase, controller: controller, animated: animated, parent: parent))
            case .app(let transition, let isScene):
                return .app(AppEvent(transition, line.phase, scene: isScene ? (line.controller?.label ?? "default") : nil))
            case .container(let operation):
                let controller = controllerRef(line.controller)
                switch operation {
                case .presentationControllerShouldDismiss, .presentationControllerWillDismiss,
                     .presentationControllerDidDismiss, .presentationControllerDidAttemptToDismiss, .removeFromParent:
                    return .container(ContainerEvent(operation, line.phase, container: nil, controllers: [controller]))
                default:
                    return .container(ContainerEvent(operation, line.phase, container: controller, controllers: []))
                }
            case .swiftUI(let action):
                let host = line.controller.map { ref(for: $0) }
                return .swiftUI(SwiftUIEvent(action, view: line.viewName ?? ConsoleLogParser.anonymousTypeName, host: host))
            }
        }

        func finish(lineCount: Int) -> ConsoleImportResult {
            var events: [Event] = []
            events.reserveCapacity(pending.count)
            var untimed = 0
            let clock: ImportedClock
            switch firstTime {
            case nil:
                clock = .synthetic
                for (index, item) in pending.enumerated() {
                    events.append(Event(timestamp: UInt64(index) * ConsoleLogParser.syntheticStep, item.payload, source: item.source))
                }
                untimed = pending.count
            case let first?:
                switch first {
                case .wall(let start, let hasOffset): clock = .wallClock(start: start, hasOffset: hasOffset)
                case .timeOfDay(let start): clock = .timeOfDay(start: start)
                case .seconds: clock = .seconds
                }
                // Lines before the first timed line take its time; later untimed lines the previous one's.
                var previous = pending.first(where: { $0.time != nil })?.time ?? 0
                for item in pending {
                    if let time = item.time {
                        previous = max(previous, time)
                    } else {
                        untimed += 1
                    }
                    events.append(Event(timestamp: UInt64(max(0, previous)), item.payload, source: item.source))
                }
            }
            return ConsoleImportResult(
                events: events, controllers: controllers, lineCount: lineCount, skippedLines: skipped,
                timeAdjustments: adjustments, clock: clock, untimedLineCount: untimed)
        }
    }
}

extension LineTime {
    func sameKind(as other: LineTime) -> Bool {
        switch (self, other) {
        case (.wall, .wall), (.timeOfDay, .timeOfDay), (.seconds, .seconds): true
        default: false
        }
    }
}

extension String {
    /// Calls `body` with each line, splitting at `\n`, `\r\n` and `\r`; a final empty line is not reported.
    func enumerateLinesWithoutFoundation(_ body: (Substring) -> Void) {
        var start = startIndex
        var index = startIndex
        while index < endIndex {
            let char = self[index]
            if char == "\n" || char == "\r\n" || char == "\r" {
                body(self[start..<index])
                index = self.index(after: index)
                start = index
            } else {
                index = self.index(after: index)
            }
        }
        if start < endIndex { body(self[start..<endIndex]) }
    }
}
