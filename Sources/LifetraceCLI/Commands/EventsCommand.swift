import ArgumentParsing
import TraceLog
import TraceModel

/// `lifetrace events TRACE [--from T] [--to T] [--controller NAME] [--kind K] [--format text|jsonl]`: lists
/// events, one per line.
struct EventsCommand: Command {
    static let spec = CommandSpec(
        name: "events",
        abstract: "List a trace's events, filtered by time, controller and kind.",
        usage: "TRACE [--from T] [--to T] [--controller NAME] [--kind K] [--visible NAME] [--format text|jsonl]",
        discussion: """
            \(TraceInput.help)
            Times are relative to the first event and accept 1.5s, 1500ms, 250us, 1500000000ns, 2m, or a bare
            number of seconds; both ends are inclusive. With --from, frames that end earlier are not decoded.
            --controller and --kind may be given more than once: an event passes when it matches one of the
            controllers and one of the kinds. A --controller (or --visible) NAME that names no controller of the trace
            exactly matches the type names that start with it, else that contain it ignoring case; a note on
            standard error says which.

            Text output: time since the first event (seconds, ms precision), the event's ordinal (0-based position
            in the trace), and the event; a mark ends with the callback it happened in, "(in X.viewWillDisappear)",
            or "(after X.viewWillDisappear)" when the log has only instants and that callback was logged just before.
            JSONL output: the export schema (docs/JSONL.md), without a header line.

            --visible NAME prints, instead of events, the intervals during which the controller was in the
            'appeared' state, i.e. on screen (replayed; clipped to --from/--to); jsonl: {"controller","start_ns",
            "end_ns"} per interval.

            Examples:
              lifetrace events app.lifetrace --from 5.5s --to 6.5s
              lifetrace events app.lifetrace --controller NoteEditorViewController --kind callback
              lifetrace events app.lifetrace --kind save --format jsonl

            \(TraceInput.exitHelp)
            As grep does, events also exits 1 when it lists nothing: no event passes --from/--to/--controller/--kind,
            or no controller is named by --visible NAME (standard error says which, with the nearest controller name
            of the trace for a misspelt one). A JSON Lines input stopped by --to is read on to its end: a line there
            that cannot be read is a warning naming FILE:LINE, exit 1 (the listing is complete).
            """,
        options: [
            OptionSpec("from", value: "T", help: "First time to list, after the first event (e.g. 1.5s)."),
            OptionSpec("to", value: "T", help: "Last time to list, after the first event (inclusive)."),
            OptionSpec(
                "controller", value: "NAME", repeatable: true,
                help: "Only events naming this controller: display name (Editor#2, Page<0>) or type name (all instances); a prefix or part of one."
            ),
            OptionSpec(
                "kind", value: "K", repeatable: true,
                help: "callback|container|app|swiftui|mark|recorder|unknown, an event name, or a standard mark name."
            ),
            OptionSpec("visible", value: "NAME", help: "Instead of events, print when controller NAME was on screen (appeared)."),
            OptionSpec("format", value: "FORMAT", help: "text (default) or jsonl."),
        ],
        positionalCount: (1, 1)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        try run(arguments, output: output, reading: .records)
    }

    /// How `run` reads a `.lifetrace` file: `.records` filters the decoder's records and builds an `Event` only
    /// for the events it prints (and for the kinds that have no record form); `.events` decodes every event into
    /// an `Event` first (the reference the tests compare `.records` with). JSON Lines inputs are always read as
    /// events.
    enum Reading {
        case records
        case events
    }

    /// `run(_:output:)` with the way of reading a trace chosen (the output is the same either way).
    static func run(_ arguments: ParsedArguments, output: CommandOutput, reading: Reading) throws -> ExitCode {
        let format = try arguments.choice("format", among: ["text", "jsonl"], default: "text")
        output.isHumanReadable = format == "text"
        let from = try arguments.value("from").map { try duration($0, option: "from") }
        let to = try arguments.value("to").map { try duration($0, option: "to") }
        if let from, let to, from > to {
            throw ValidationError("--from (\(TimeText.seconds(from))) is after --to (\(TimeText.seconds(to)))")
        }
        let kinds = arguments.allValues("kind")
        var controllers = arguments.allValues("controller")
        let filter = try EventFilter(controllers: controllers, kinds: kinds)

        let input = try TraceInput(path: arguments.positionals[0])
        let damage = input.reportOpenProblems(command: "events", output: output)
        if let name = arguments.value("visible") {
            let (stop, found) = try printVisible(name, input: input, from: from, to: to, format: format, output: output)
            let status = found ? damage : TraceDamage.worse(damage, .problemFound)
            return stop.map { TraceDamage.worse(status, $0.report(command: "events", output: output)) } ?? status
        }
        func list(_ filter: EventFilter, to output: CommandOutput, warn: Bool) throws -> (listed: Int, stop: TraceInput.Stop?) {
            let attribution = format == "text" ? MarkAttribution(input: input, fromOffset: from) : nil
            if warn, let warning = attribution?.warning {
                output.errorLine("lifetrace events: warning: \(warning)")
            }
            var listing = Listing(format: format, to: to, filter: filter, attribution: attribution, output: output)
            let stop: TraceInput.Stop?
            if reading == .records, case .trace(let reader) = input.source {
                stop = try listing.listRecords(reader, fromOffset: from)
            } else {
                stop = try listing.listEvents(input, fromOffset: from)
            }
            return (listing.listed, stop)
        }
        // The listing is held back until every --controller name has named a controller: a name that names none
        // exactly may match type names loosely (`LooseControllerMatch`), and the listing is then made again.
        let held = HeldOutput(output, releasedWhen: { filter.matched.all })
        var (listed, stop) = try list(filter, to: controllers.isEmpty ? output : held.output, warn: true)
        if !controllers.isEmpty, !filter.matched.all {
            let known = try controllerNames(in: input)
            var loose: [LooseControllerMatch] = []
            var resolved: [String] = []
            for (index, name) in controllers.enumerated() {
                if !filter.matched.flags[index], !known.contains(where: { ControllerName(name).matches($0) }),
                   let match = LooseControllerMatch.find(name, among: known) {
                    loose.append(match)
                    resolved += match.types
                } else {
                    resolved.append(name)
                }
            }
            if loose.isEmpty {
                held.release()
            } else {
                held.discard()
                for match in loose { output.errorLine(match.note(command: "events")) }
                controllers = resolved
                (listed, stop) = try list(try EventFilter(controllers: resolved, kinds: kinds), to: output, warn: false)
            }
        }
        var status = damage
        if let stop {
            status = TraceDamage.worse(status, stop.report(command: "events", output: output))
            guard stop.isBeyondRequest else { return status }
        }
        guard listed == 0, !output.isStandardOutputClosed else { return status }
        // Nothing listed: exit 1, as grep does when no line matches (2 stays for errors), saying which options
        // left nothing; a misspelt --controller name gets the nearest name of the trace.
        output.errorLine("lifetrace events: warning: \(try nothingListed(arguments, controllers: controllers, input: input))")
        return TraceDamage.worse(status, .problemFound)
    }

    /// `   12.480 s  #41  NoteEditorViewController#2 viewWillDisappear begin animated=true`
    static func textLine(offset: UInt64, ordinal: UInt64, event: Event) -> String {
        textLine(offset: offset, ordinal: ordinal, summary: event.summary)
    }

    /// `textLine(offset:ordinal:event:)` with the event's `summary` given.
    static func textLine(offset: UInt64, ordinal: UInt64, summary: String) -> String {
        let time = TimeText.seconds(offset)
        let padding = String(repeating: " ", count: max(0, 11 - time.count))
        return "\(padding)\(time)  #\(ordinal)  \(summary)"
    }

    static func duration(_ text: String, option: String) throws -> UInt64 {
        try TimeOption.parse(text, option: option)
    }
}

/// The `--controller` and `--kind` selection of `lifetrace events`: an event passes when it matches one of the
/// controllers (if any were given) and one of the kinds (if any were given).
struct EventFilter {
    var controllers: [String]
    var kinds: [String]
    /// `controllers`, each resolved once into a test that needs no display name (see `ControllerName`).
    private var names: [ControllerName]
    /// Which of `controllers` has named a controller so far.
    let matched: MatchedNames

    /// Which `--controller` names have named some controller the listing met (shared by the filter's copies).
    final class MatchedNames: @unchecked Sendable {
        private(set) var flags: [Bool]
        private var missing: Int

        init(count: Int) {
            flags = Array(repeating: false, count: count)
            missing = count
        }

        /// Whether every name has matched.
        var all: Bool { missing == 0 }

        func mark(_ index: Int) {
            guard !flags[index] else { return }
            flags[index] = true
            missing -= 1
        }
    }

    /// - Throws: `ValidationError` for a `--kind` that is neither a kind, an event name nor a standard mark name.
    init(controllers: [String], kinds: [String]) throws {
        self.controllers = controllers
        self.kinds = kinds
        self.names = controllers.map(ControllerName.init)
        self.matched = MatchedNames(count: controllers.count)
        let known = Set(JSONLSchema.Kind.allCases.map(\.rawValue))
            .union(JSONLSchema.eventNames.flatMap(\.names))
            .union(MarkName.standard)
        for kind in kinds where !known.contains(kind) {
            throw ValidationError(
                "unknown --kind '\(kind)'\(Spelling.suggestion(for: kind, among: known.sorted())): use one of \(JSONLSchema.Kind.allCases.map(\.rawValue).joined(separator: ", ")), an event name such as viewWillDisappear, or a mark name such as save"
            )
        }
    }

    func matches(_ event: Event) -> Bool {
        if !names.isEmpty, !namesAnyController(of: event) { return false }
        return matchesKind(of: event.payload)
    }

    /// Whether some `--controller` was given (without one, every controller passes).
    var selectsControllers: Bool { !names.isEmpty }

    /// Whether `--kind` lets `payload` through (always, when no `--kind` was given).
    func matchesKind(of payload: EventPayload) -> Bool {
        guard !kinds.isEmpty else { return true }
        let kind = JSONLSchema.Kind(of: payload).rawValue
        let name = JSONLSchema.eventName(of: payload)
        var markName: String?
        if case .mark(let mark) = payload { markName = mark.name }
        return kinds.contains(where: { $0 == kind || $0 == name || $0 == markName })
    }
}

extension EventFilter {
    /// Whether one of `names` names one of the event's controllers (the ones `Event.controllers` lists), without
    /// building that array or any display name: this runs for every event a query scans.
    private func namesAnyController(of event: Event) -> Bool {
        switch event.payload {
        case .callback(let callback):
            if matches(callback.controller) { return true }
            if case .controller(let parent)? = callback.parent { return matches(parent) }
            return false
        case .container(let container):
            if let ref = container.container, matches(ref) { return true }
            for ref in container.controllers where matches(ref) { return true }
            return false
        case .mark(let mark):
            return mark.controller.map(matches) ?? false
        case .swiftUI(let swiftUI):
            return swiftUI.host.map(matches) ?? false
        case .app, .recorder, .unknown:
            return false
        }
    }

    /// Whether one of the `--controller` names names `ref` (`false` when none was given).
    func matches(_ ref: ControllerRef) -> Bool {
        var any = false
        for index in names.indices where names[index].matches(ref) {
            matched.mark(index)
            any = true
        }
        return any
    }
}

/// One `--controller NAME`, resolved once: `matches(_:)` says whether NAME is the controller's type name or its
/// `ControllerRef.displayName`, with the same `String` equality as comparing against `displayName`, but building
/// that name only for labelled controllers whose NAME ends in `>` (a display name `Type#serial` is compared as
/// its type-name prefix and serial number).
struct ControllerName {
    let name: String
    /// NAME split at its last `#` when what follows is a serial as `displayName` writes it (decimal, no leading
    /// zero): `Editor#12` → ("Editor", 12).
    private let typeAndSerial: (typeName: String, serial: UInt32)?
    /// Whether NAME ends in `>`, as every display name `Type<label>` does.
    private let endsInAngle: Bool
    /// Whether NAME has a backslash: it may be a name as text outputs show it, with control and invisible format
    /// characters written out (`NoteEditor\u{202E}View#3`, `String.displayEscaped`), copied from them.
    private let mayBeEscaped: Bool

    init(_ name: String) {
        self.name = name
        endsInAngle = name.utf8.last == UInt8(ascii: ">")
        mayBeEscaped = name.utf8.contains(UInt8(ascii: "\\"))
        if let hash = name.utf8.lastIndex(of: UInt8(ascii: "#")) {
            let digits = name.utf8[name.utf8.index(after: hash)...]
            let canonical = !digits.isEmpty && (digits.count == 1 || digits.first != UInt8(ascii: "0"))
                && digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            if canonical, let serial = UInt32(Substring(digits)) {
                typeAndSerial = (String(Substring(name.utf8[..<hash])), serial)
            } else {
                typeAndSerial = nil
            }
        } else {
            typeAndSerial = nil
        }
    }

    /// Same answer as `name == ref.displayName || name == ref.typeName`, or, for a NAME with a backslash, the
    /// same with both written out as text outputs show them (`displayEscaped`).
    func matches(_ ref: ControllerRef) -> Bool {
        if name == ref.typeName { return true }
        if mayBeEscaped, name == ref.displayName.displayEscaped || name == ref.typeName.displayEscaped { return true }
        guard let label = ref.label else {
            guard let typeAndSerial else { return false }
            return typeAndSerial.serial == ref.serial && typeAndSerial.typeName == ref.typeName
        }
        if ref.typeName.isEmpty { return name == label }
        return endsInAngle && name == ref.displayName
    }
}
