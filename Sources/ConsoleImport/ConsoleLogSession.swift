import TraceModel

/// Parses a console log one line at a time and hands out each event as soon as its time is final, so a long
/// log is imported with memory bounded by what is live (controllers not yet deallocated, a few held events),
/// not by its length.
///
/// Feed lines in order with `read(_:number:)`, take the finished events with `takeEvents()` whenever convenient,
/// and call `finish(lineCount:)` after the last line. The events, in order and with their times, are exactly
/// those `ConsoleLogParser.parse(lines:)` returns for the same lines (the parser is built on a session).
///
/// Why events are held: a line without a time takes the time of the first *timed* event line when it comes
/// before it, and a log with no time at all gets synthetic times (docs/IMPORT.md "Times"). Untimed events at the
/// start are therefore held until the first timed event line. When more than `holdLimit` are held:
/// - if no line so far had a time, the session bets that none will: it hands out the held events with synthetic
///   times and continues so (a print-style log is then streamed too);
/// - otherwise, or when that bet fails (a timed line comes later), `needsRestart` becomes true: events handed
///   out so far are wrong. Keep reading lines (they are only scanned now) until `restartLeadingTime` is
///   known, then parse the log again from line 1 with `ConsoleLogSession(…, leadingTime: .known(t))`, which
///   holds nothing.
///
/// Summaries that grow with the log (skipped lines, controllers, time adjustments) keep at most the `kept…`
/// limits of entries and count the rest.
public struct ConsoleLogSession: Sendable {
    /// The time of untimed event lines that come before the first timed event line.
    public enum LeadingTime: Sendable, Hashable {
        /// Not known yet: such events are held (see the type's documentation).
        case unknown
        /// Known from an earlier pass (`restartLeadingTime`), in nanoseconds on the trace's clock.
        case known(UInt64)
    }

    /// Limits on what a session keeps for its result.
    public struct Limits: Sendable, Hashable {
        /// Untimed events held before the session streams synthetic times or asks for a restart.
        public var heldEvents: Int
        /// Entries kept in `ConsoleImportResult.skippedLines` (all are counted).
        public var skippedLines: Int
        /// Entries kept in `ConsoleImportResult.controllers` (all are counted and get serials).
        public var controllers: Int
        /// Entries kept in `ConsoleImportResult.timeAdjustments` (all are counted).
        public var timeAdjustments: Int

        public init(heldEvents: Int, skippedLines: Int = .max, controllers: Int = .max, timeAdjustments: Int = .max) {
            self.heldEvents = max(0, heldEvents)
            self.skippedLines = max(0, skippedLines)
            self.controllers = max(0, controllers)
            self.timeAdjustments = max(0, timeAdjustments)
        }

        /// Keep everything: what `ConsoleLogParser.parse` uses.
        public static let unlimited = Limits(heldEvents: .max)
        /// What `lifetrace import` uses: 10 000 held events, the first 100 skipped lines, controllers and time
        /// adjustments.
        public static let streaming = Limits(heldEvents: 10_000, skippedLines: 100, controllers: 100, timeAdjustments: 100)
    }

    /// One event waiting for its time.
    private struct Pending: Sendable {
        var payload: EventPayload
        var source: EventSource
        /// Monotonic time from the line, or `nil` when the line had none.
        var time: Int64?
    }

    public let parser: ConsoleLogParser
    public let limits: Limits
    /// Each mark rule's substring as UTF-8 bytes.
    private let markNeedles: [[UInt8]]

    /// Events whose time is final, not yet taken.
    private var ready: [Event] = []
    /// Untimed events before the first timed event line (leading time unknown).
    private var held: [Pending] = []
    /// The time the next untimed event takes, once the leading time is known; never negative.
    private var previous: Int64?
    /// True once held events were handed out with synthetic times while no line had a time.
    private var isSpeculatingSynthetic = false
    /// Events handed out or held in total (the synthetic clock's step count).
    private var eventCount = 0
    private var untimedCount = 0

    /// True when events already handed out are wrong and the log must be parsed again (see the type's
    /// documentation); `read` then only scans for the leading time.
    public private(set) var needsRestart = false
    /// After `needsRestart`: the leading time for the next pass, once the first timed event line has been read
    /// (`nil` until then; at the end of the log without one, the leading time is 0).
    public private(set) var restartLeadingTime: UInt64?

    private var skipped: [SkippedLine] = []
    private var skippedCount = 0
    private var adjustments: [TimeAdjustment] = []
    private var adjustmentCount = 0
    private var refs: [ControllerName: ControllerRef] = [:]
    private var controllers: [ControllerRef] = []
    private var controllerCount = 0
    private var lastCallbackController: ControllerRef?
    // Clock state.
    private var firstTime: LineTime?
    private var origin: Int64 = 0
    private var previousRaw: Int64?
    private var dayOffset: Int64 = 0
    private var shift: Int64 = 0

    /// - Parameters:
    ///   - parser: Mark rules, strictness and the source file recorded in each event.
    ///   - leadingTime: `.unknown` for a first pass; `.known(restartLeadingTime)` after `needsRestart`.
    ///   - limits: What to hold and keep (`Limits.streaming` for bounded memory).
    public init(parser: ConsoleLogParser, leadingTime: LeadingTime = .unknown, limits: Limits = .streaming) {
        self.parser = parser
        self.limits = limits
        markNeedles = parser.markRules.map { Array($0.substring.utf8) }
        if case .known(let time) = leadingTime { previous = Int64(clamping: time) }
    }

    /// A session holding up to `holdLimit` events and keeping every skipped line, controller and adjustment.
    init(parser: ConsoleLogParser, holdLimit: Int) {
        self.init(parser: parser, limits: Limits(heldEvents: holdLimit))
    }

    /// Reads line `number` (1-based; blank lines may be left out, the numbers must increase).
    ///
    /// - Throws: `ConsoleImportError` with code `.unreadableLine` and the line number, only when the parser is
    ///   strict and the line has neither a callback nor a mark.
    public mutating func read(_ text: String, number: Int) throws(ConsoleImportError) {
        let chars = Array(text)
        guard chars.contains(where: { !$0.isWhitespace }) else { return }
        let prefix = LinePrefixReader.read(chars)
        let time = prefix.time.flatMap { place($0, line: number) }
        if isSpeculatingSynthetic, firstTime != nil {
            // The bet that the log has no times failed: the synthetic times handed out are wrong.
            isSpeculatingSynthetic = false
            beginRestart()
        }
        let source = EventSource(text: text, file: parser.sourceFile, line: UInt32(clamping: number))
        var produced = false
        if let recognized = LineRecognizer.recognize(chars, from: prefix.messageStart) {
            let payload = payload(for: recognized)
            add(Pending(payload: payload, source: source, time: time))
            produced = true
        }
        let isASCII = parser.markRules.isEmpty ? false : text.utf8.allSatisfy { $0 < 0x80 }
        for (rule, needle) in zip(parser.markRules, markNeedles) where Self.contains(text, rule.substring, needle, isASCII: isASCII) {
            let named = LineRecognizer.namedController(chars, from: prefix.messageStart) { refs[$0] != nil }
            let controller = named.map { ref(for: $0) } ?? lastCallbackController
            let mark = MarkEvent(rule.name, controller: controller, fields: rule.fields)
            add(Pending(payload: .mark(mark), source: source, time: time))
            produced = true
        }
        if !produced {
            if parser.isStrict {
                throw ConsoleImportError(
                    .unreadableLine, "no lifecycle callback or mark in '\(text)'", file: parser.sourceFile, line: number)
            }
            skippedCount += 1
            if skipped.count < limits.skippedLines { skipped.append(SkippedLine(line: number, text: text)) }
        }
    }

    /// Whether `text` contains `substring` as `String.contains` decides (by characters). For an ASCII line every
    /// character is one byte, so a byte search gives the same answer much faster; other lines use the String.
    static func contains(_ text: String, _ substring: String, _ needle: [UInt8], isASCII: Bool) -> Bool {
        guard isASCII else { return text.contains(substring) }
        guard let first = needle.first else { return text.contains(substring) }
        return text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            let count = needle.count
            guard bytes.count >= count else { return false }
            var index = 0
            while index <= bytes.count - count {
                if bytes[index] == first {
                    var matched = 1
                    while matched < count, bytes[index + matched] == needle[matched] { matched += 1 }
                    if matched == count { return true }
                }
                index += 1
            }
            return false
        } ?? text.contains(substring)
    }

    /// The events whose times are final, in log order; they are handed out once. Empty after `needsRestart`.
    public mutating func takeEvents() -> [Event] {
        defer { ready.removeAll(keepingCapacity: true) }
        return ready
    }

    /// Number of events ready to be taken.
    public var readyCount: Int { ready.count }

    /// Ends the log: held events get their times, and the result carries every event not yet taken (all of
    /// them when `takeEvents()` was never called) with the account of skipped lines, controllers and the clock.
    ///
    /// - Parameter lineCount: Number of lines in the log, blank ones included.
    public mutating func finish(lineCount: Int) -> ConsoleImportResult {
        if previous == nil, !needsRestart {
            if firstTime == nil {
                for item in held { emitSynthetic(item) }
            } else {
                for item in held { emit(item, at: 0) }
            }
            untimedCount += held.count
            held.removeAll()
        }
        if needsRestart, restartLeadingTime == nil { restartLeadingTime = 0 }
        let clock: ImportedClock
        switch firstTime {
        case nil: clock = .synthetic
        case .wall(let start, let hasOffset)?: clock = .wallClock(start: start, hasOffset: hasOffset)
        case .timeOfDay(let start)?: clock = .timeOfDay(start: start)
        case .seconds?: clock = .seconds
        }
        var result = ConsoleImportResult(
            events: takeEvents(), controllers: controllers, lineCount: lineCount, skippedLines: skipped,
            timeAdjustments: adjustments, clock: clock, untimedLineCount: untimedCount)
        result.skippedLineCount = skippedCount
        result.controllerCount = controllerCount
        result.timeAdjustmentCount = adjustmentCount
        return result
    }

    // MARK: - Times

    private mutating func add(_ item: Pending) {
        if needsRestart {
            if restartLeadingTime == nil, let time = item.time { restartLeadingTime = UInt64(max(0, time)) }
            return
        }
        if let current = previous {
            var time = current
            if let own = item.time {
                time = max(current, own)
            } else {
                untimedCount += 1
            }
            emit(item, at: time)
        } else if isSpeculatingSynthetic {
            untimedCount += 1
            emitSynthetic(item)
        } else if let own = item.time {
            // The first timed event line: events held before it take its time.
            let time = max(0, own)
            for waiting in held { emit(waiting, at: time) }
            untimedCount += held.count
            held.removeAll()
            emit(item, at: time)
        } else {
            held.append(item)
            if held.count > limits.heldEvents {
                if firstTime == nil {
                    isSpeculatingSynthetic = true
                    for waiting in held { emitSynthetic(waiting) }
                    untimedCount += held.count
                    held.removeAll()
                } else {
                    beginRestart()
                }
            }
        }
    }

    private mutating func beginRestart() {
        needsRestart = true
        held.removeAll()
        ready.removeAll()
    }

    private mutating func emit(_ item: Pending, at time: Int64) {
        previous = time
        eventCount += 1
        ready.append(Event(timestamp: UInt64(max(0, time)), item.payload, source: item.source))
    }

    private mutating func emitSynthetic(_ item: Pending) {
        ready.append(Event(timestamp: UInt64(eventCount) * ConsoleLogParser.syntheticStep, item.payload, source: item.source))
        eventCount += 1
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
        if let adjustment {
            adjustmentCount += 1
            if adjustments.count < limits.timeAdjustments { adjustments.append(adjustment) }
        }
        previousRaw = raw
        return placed
    }

    // MARK: - Controllers

    private mutating func ref(for name: ControllerName) -> ControllerRef {
        let key = ControllerName(typeName: name.typeName, label: name.label, isExplicit: false)
        if let existing = refs[key] { return existing }
        controllerCount += 1
        let ref = ControllerRef(serial: UInt32(clamping: controllerCount), typeName: key.typeName, label: key.label)
        refs[key] = ref
        if controllers.count < limits.controllers { controllers.append(ref) }
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
}
