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
    private var invalidTimes: [InvalidTime] = []
    private var invalidTimeCount = 0
    /// A controller's name without how it was written or its address.
    private struct NameKey: Hashable {
        var typeName: String
        var label: String?
    }
    /// The live controller a name without an address means: the one last mentioned by that name.
    private var refs: [NameKey: ControllerRef] = [:]
    /// A live controller printed with an address, and the name it was printed with.
    private struct Bound: Sendable {
        var key: NameKey
        var ref: ControllerRef
    }
    /// The live controller at each printed address.
    private var byAddress: [UInt64: Bound] = [:]
    /// The address each addressed live controller was printed with, by serial.
    private var addressOf: [UInt32: UInt64] = [:]
    private var controllers: [ControllerRef] = []
    private var controllerCount = 0
    private var lastCallbackController: ControllerRef?
    /// The line being read, for `anonymousLines`.
    private var lineNumber = 0
    private var anonymousLines: [Int] = []
    private var anonymousLineCount = 0
    /// The line of each live controller's latest viewDidLoad, by serial, until its deinit or viewDidUnload.
    private var loadLines: [UInt32: Int] = [:]
    /// Live controllers, by serial, whose latest appearance callback was viewDidDisappear (off screen), with no
    /// memory warning since.
    private var offScreen: Set<UInt32> = []
    private var repeatedLoads: [RepeatedLoad] = []
    private var repeatedLoadCount = 0
    // Processes (runs).
    /// The process of the current run, once a line named one.
    private var process: ProcessToken?
    /// PIDs of processes whose run has ended (a later line of theirs does not start a run again).
    private var endedPIDs: Set<Int64> = []
    private var runs: [String] = []
    private var runCount = 0
    /// The process of the latest line that named one: a line without a prefix belongs to it.
    private var lineProcess: ProcessToken?
    private var tally = ProcessTally()
    private var unattributedLineCount = 0
    private var leftOutLineCount = 0
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
        if case .known(let time) = leadingTime { previous = Int64(clamping: time) }
    }

    /// A session holding up to `holdLimit` events and keeping every skipped line, controller and adjustment.
    init(parser: ConsoleLogParser, holdLimit: Int) {
        self.init(parser: parser, limits: Limits(heldEvents: holdLimit))
    }

    /// Reads line `number` (1-based; blank lines may be left out, the numbers must increase): the same as
    /// `read(ConsoleLine(text, number: number, parser: parser))`.
    ///
    /// - Throws: See `read(_:)`.
    public mutating func read(_ text: String, number: Int) throws(ConsoleImportError) {
        try read(ConsoleLine(text, number: number, parser: parser))
    }

    /// Takes the next line, read by `ConsoleLine.init(_:number:parser:)` with this session's parser (line numbers
    /// must increase; blank lines may be left out).
    ///
    /// - Throws: `ConsoleImportError` with the line number, only when the parser is strict: `.invalidTime` when
    ///   the line starts with an impossible date or time (`2024-13-45 10:00:00`; without `strict` that is
    ///   listed in `ConsoleImportResult.invalidTimes`), `.unreadableLine` when it has neither a callback nor a mark.
    public mutating func read(_ line: ConsoleLine) throws(ConsoleImportError) {
        guard !line.isBlank else { return }
        let number = line.number
        let text = line.text
        let prefix = line.prefix
        if let token = prefix.process { lineProcess = token }
        if let owner = lineProcess {
            tally.count(owner, line: number, text: text)
            if let selector = parser.process, !selector.matches(owner) {
                leftOutLineCount += 1
                return
            }
        } else {
            unattributedLineCount += 1
        }
        if let invalid = prefix.invalidTime {
            if parser.isStrict {
                throw ConsoleImportError(
                    .invalidTime, "invalid time '\(invalid.text)' (\(invalid.reason))", file: parser.sourceFile, line: number)
            }
            invalidTimeCount += 1
            if invalidTimes.count < limits.timeAdjustments {
                invalidTimes.append(InvalidTime(line: number, text: invalid.text, reason: invalid.reason))
            }
        }
        let time = prefix.time.flatMap { place($0, line: number) }
        if isSpeculatingSynthetic, firstTime != nil {
            // The bet that the log has no times failed: the synthetic times handed out are wrong.
            isSpeculatingSynthetic = false
            beginRestart()
        }
        lineNumber = number
        let source = EventSource(text: text, file: parser.sourceFile, line: UInt32(clamping: number))
        if let token = prefix.process { noteProcess(token, source: source, time: time) }
        var produced = false
        if let recognized = line.recognized {
            let payload = payload(for: recognized)
            add(Pending(payload: payload, source: source, time: time))
            produced = true
        }
        for rule in line.markRules {
            let named = line.scalars.withUnsafeBufferPointer { chars in
                LineRecognizer.namedController(chars, from: prefix.messageStart) {
                    refs[NameKey(typeName: $0.typeName, label: $0.label)] != nil
                }
            }
            let controller = named.map { ref(for: $0) } ?? lastCallbackController
            let mark = MarkEvent(rule.name, controller: controller, fields: rule.fields)
            add(Pending(payload: .mark(mark), source: source, time: time))
            produced = true
        }
        if produced, let owner = lineProcess { tally.countEvents(owner) }
        if !produced {
            if parser.isStrict {
                throw ConsoleImportError(
                    .unreadableLine, "no lifecycle callback or mark in '\(text)'", file: parser.sourceFile, line: number)
            }
            skippedCount += 1
            if skipped.count < limits.skippedLines { skipped.append(SkippedLine(line: number, text: text)) }
        }
    }

    /// A line from process `token`: when it is another launch of the current run's program (same name, another
    /// PID never seen ended), the previous process has ended and a run starts here: a
    /// `RecorderEvent.runStarted` at this line, before its own events, and every controller name means a new
    /// instance from now on (Replay ends the old process's controllers at that event). A line of another
    /// program (an extension, a daemon in a Console export) or of an ended process changes nothing.
    private mutating func noteProcess(_ token: ProcessToken, source: EventSource, time: Int64?) {
        guard let current = process else {
            process = token
            if runs.count < limits.controllers { runs.append(token.description) }
            return
        }
        guard token.pid != current.pid, token.name == current.name, !endedPIDs.contains(token.pid) else { return }
        endedPIDs.insert(current.pid)
        process = token
        runCount += 1
        if runs.count < limits.controllers { runs.append(token.description) }
        refs.removeAll()
        byAddress.removeAll()
        addressOf.removeAll()
        lastCallbackController = nil
        add(Pending(payload: .recorder(.runStarted(process: token.description)), source: source, time: time))
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
        result.invalidTimes = invalidTimes
        result.invalidTimeCount = invalidTimeCount
        result.processes = runs
        result.runStartCount = runCount
        result.processLines = tally.processes
        result.untalliedProcessLineCount = tally.untalliedLineCount
        result.unattributedLineCount = unattributedLineCount
        result.leftOutLineCount = leftOutLineCount
        result.mixesProcesses = tally.isMixed
        result.anonymousLines = anonymousLines
        result.anonymousLineCount = anonymousLineCount
        result.repeatedLoads = repeatedLoads
        result.repeatedLoadCount = repeatedLoadCount
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

    /// The controller `name` means now. Without an address: the live controller last mentioned by that name,
    /// else a new one. With an address: the live controller printed at that address with that name; else the
    /// live controller of that name that was never printed with an address (the same object, logged both
    /// ways); else a new one. A different name at a known address means the object there was freed and the
    /// memory reused: the old controller is no longer reachable by that address (no deinit is made up for it).
    private mutating func ref(for name: ControllerName) -> ControllerRef {
        let key = NameKey(typeName: name.typeName, label: name.label)
        guard let address = name.address else {
            if let existing = refs[key] { return existing }
            return newRef(key)
        }
        if let bound = byAddress[address] {
            if bound.key == key {
                refs[key] = bound.ref
                return bound.ref
            }
            byAddress[address] = nil
            addressOf[bound.ref.serial] = nil
            if refs[bound.key] == bound.ref { refs[bound.key] = nil }
        }
        if let existing = refs[key], addressOf[existing.serial] == nil {
            byAddress[address] = Bound(key: key, ref: existing)
            addressOf[existing.serial] = address
            return existing
        }
        let ref = newRef(key)
        byAddress[address] = Bound(key: key, ref: ref)
        addressOf[ref.serial] = address
        return ref
    }

    /// The scene a scene delegate's line is about: the printed scene object (`sceneDidBecomeActive <UIWindowScene:
    /// 0x10270b110>` is scene `UIWindowScene 0x10270b110`, so two windows of an iPad app are two scenes), a label,
    /// or `default` when the line does not say.
    static func sceneID(_ name: ControllerName?) -> String {
        guard let name else { return "default" }
        if let address = name.address {
            return "\(name.typeName.isEmpty ? "scene" : name.typeName) 0x\(String(address, radix: 16))"
        }
        return name.label ?? "default"
    }

    /// The live controller `name` means now, without making one: `nil` when the log has not named it yet.
    private func existingRef(for name: ControllerName) -> ControllerRef? {
        let key = NameKey(typeName: name.typeName, label: name.label)
        if let address = name.address, let bound = byAddress[address] {
            return bound.key == key ? bound.ref : nil
        }
        return refs[key]
    }

    private mutating func newRef(_ key: NameKey) -> ControllerRef {
        controllerCount += 1
        let ref = ControllerRef(serial: UInt32(clamping: controllerCount), typeName: key.typeName, label: key.label)
        refs[key] = ref
        if controllers.count < limits.controllers { controllers.append(ref) }
        return ref
    }

    /// For a viewDidLoad line that prints no address: the live controller of its name when that one has loaded
    /// its view and has since disappeared, with no memory warning after. UIKit loads a view again only once it
    /// was unloaded, and unloaded views only at a memory warning, for a controller off screen, in iOS 3 to 5
    /// (Apple, `didReceiveMemoryWarning()` and `viewDidUnload()`: views are no longer purged since iOS 6); so the
    /// line is a new instance's, as after a pop and a new push of the same class. `nil` otherwise.
    private func offScreenLoaded(_ callback: Callback, _ line: RecognizedLine) -> ControllerRef? {
        guard callback == .viewDidLoad, line.phase != .end, line.controller?.address == nil else { return nil }
        let name = line.controller ?? ControllerName(typeName: ConsoleLogParser.anonymousTypeName, label: nil, isExplicit: false)
        guard let existing = existingRef(for: name), offScreen.contains(existing.serial), loadLines[existing.serial] != nil,
              addressOf[existing.serial] == nil
        else { return nil }
        return existing
    }

    /// Keeps the line of each viewDidLoad, and notes a second one of the same controller with no deinit or
    /// viewDidUnload between (`ConsoleImportResult.repeatedLoads`); keeps which controllers are off screen.
    private mutating func noteLoad(_ callback: Callback, _ phase: Phase, _ controller: ControllerRef) {
        switch callback {
        case .viewDidDisappear where phase != .begin:
            offScreen.insert(controller.serial)
        case .viewWillAppear, .viewIsAppearing, .viewDidAppear, .viewWillDisappear, .deinitialize, .didReceiveMemoryWarning:
            offScreen.remove(controller.serial)
        default:
            break
        }
        switch callback {
        case .viewDidLoad where phase != .end:
            // Printed with an address, the two lines are the same instance: the log did tell.
            if let first = loadLines[controller.serial], addressOf[controller.serial] == nil {
                repeatedLoadCount += 1
                if repeatedLoads.count < limits.skippedLines {
                    repeatedLoads.append(RepeatedLoad(controller: controller, firstLine: first, line: lineNumber))
                }
            }
            loadLines[controller.serial] = lineNumber
        case .deinitialize, .viewDidUnload:
            loadLines[controller.serial] = nil
        default:
            break
        }
    }

    /// After a deinit: the names and the address of `ref` no longer mean it (a later mention is a new instance).
    private mutating func forget(_ ref: ControllerRef) {
        let key = NameKey(typeName: ref.typeName, label: ref.label)
        if refs[key] == ref { refs[key] = nil }
        if let address = addressOf.removeValue(forKey: ref.serial) { byAddress[address] = nil }
    }

    private mutating func controllerRef(_ name: ControllerName?) -> ControllerRef {
        guard let name else {
            if anonymousLines.last != lineNumber {
                anonymousLineCount += 1
                if anonymousLines.count < limits.skippedLines { anonymousLines.append(lineNumber) }
            }
            return ref(for: ControllerName(typeName: ConsoleLogParser.anonymousTypeName, label: nil, isExplicit: false))
        }
        return ref(for: name)
    }

    private mutating func payload(for line: RecognizedLine) -> EventPayload {
        switch line.name {
        case .callback(let callback):
            let previous = offScreenLoaded(callback, line)
            if let previous { forget(previous) }
            let controller = controllerRef(line.controller)
            if let previous, let first = loadLines[previous.serial] {
                repeatedLoadCount += 1
                if repeatedLoads.count < limits.skippedLines {
                    repeatedLoads.append(RepeatedLoad(controller: controller, firstLine: first, line: lineNumber, previous: previous))
                }
                loadLines[previous.serial] = nil
                offScreen.remove(previous.serial)
            }
            var parent: ParentArgument?
            switch line.parent {
            case .some(.none): parent = ParentArgument.none
            case .some(.some(let name)): parent = .controller(ref(for: name))
            case .none: parent = nil
            }
            lastCallbackController = controller
            if callback == .deinitialize {
                // Addresses and names are reused: a later mention is a new controller.
                forget(controller)
            }
            noteLoad(callback, line.phase, controller)
            let animated = callback.takesAnimated ? line.animated : nil
            return .callback(CallbackEvent(callback, line.phase, controller: controller, animated: animated, parent: parent))
        case .app(let transition, let isScene):
            // At the app's memory warning, iOS 3 to 5 unloaded the views of every controller off screen.
            if transition == .didReceiveMemoryWarning { offScreen.removeAll() }
            return .app(AppEvent(transition, line.phase, scene: isScene ? Self.sceneID(line.controller) : nil))
        case .container(let operation):
            switch operation {
            case .presentationControllerShouldDismiss, .presentationControllerWillDismiss,
                 .presentationControllerDidDismiss, .presentationControllerDidAttemptToDismiss, .removeFromParent:
                return .container(ContainerEvent(operation, line.phase, container: nil, controllers: [controllerRef(line.controller)]))
            default:
                // The container is the controller named on the line; the one it presents, pushes or adopts is
                // the call's argument, when the line prints it (a relation, never a controller of its own line).
                let container = line.controller == nil && line.argument != nil ? nil : controllerRef(line.controller)
                let argument = line.argument.map { ref(for: $0) }
                return .container(ContainerEvent(
                    operation, line.phase, container: container, controllers: argument.map { [$0] } ?? [],
                    animated: line.animated))
            }
        case .method(let method):
            // A UIKit method with no event kind of its own: a `uikit.callback` mark naming it, on the controller
            // named on the line (the anonymous one for a view controller's method that names none).
            let controller: ControllerRef?
            if method.isControllerMethod {
                controller = controllerRef(line.controller)
                lastCallbackController = controller
            } else {
                // A delegate method's line names the delegate (often not a controller: an app delegate, a
                // navigation controller's delegate object) and maybe the controller it is about: the mark goes to
                // the first of them that is a controller already seen, never to a new one.
                controller = line.controller.flatMap { existingRef(for: $0) } ?? line.argument.flatMap { existingRef(for: $0) }
            }
            return .mark(MarkEvent(ConsoleLogParser.uikitCallbackMark, line.phase, controller: controller, fields: [
                MarkField("method", .string(method.name)), MarkField("of", .string(method.owner)),
            ]))
        case .swiftUI(let action):
            let host = line.controller.map { ref(for: $0) }
            return .swiftUI(SwiftUIEvent(action, view: line.viewName ?? ConsoleLogParser.anonymousTypeName, host: host))
        }
    }
}
