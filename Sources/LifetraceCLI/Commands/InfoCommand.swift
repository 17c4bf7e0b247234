import ArgumentParsing
import Foundation
import TraceLog
import TraceModel

/// `lifetrace info TRACE`: what a trace file holds and how well it is stored.
struct InfoCommand: Command {
    static let spec = CommandSpec(
        name: "info",
        abstract: "Summarise a trace file: format, clock, time span, counts, sizes, clean close.",
        usage: "TRACE [--format text|json]",
        discussion: """
            Reads the header and the frame index (or rebuilds it by walking the frames when the file was not
            closed cleanly), then decodes every event to count controllers and event kinds.
            bytes/event is the file's size divided by its events (header, frame headers and index included).

            A damaged file (torn tail, or a corrupt frame in the middle) is summarised up to the damage: every
            count covers the readable events before it, "damaged" gives its offset, and a warning on standard
            error names the file and the offset; run 'lifetrace verify' for a full check.
            Every checkpoint's payload is checked too: a damaged checkpoint is listed under "problems" with its
            offset and warned about (exit 1), but it holds no events, so every count still covers all of them
            ('lifetrace state' falls back to an earlier checkpoint).

            A JSON Lines export gets the same counts, its header's fields (when it has a header line) and its size;
            frames, compression and "closed" are .lifetrace matters and are left out.

            Examples:
              lifetrace info app.lifetrace
              lifetrace info app.lifetrace --format json | jq .events

            \(TraceInput.help)

            \(TraceInput.exitHelp)
            """,
        options: [OptionSpec("format", value: "FORMAT", help: "Output format: text (default) or json.")],
        positionalCount: (1, 1)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        let format = try arguments.choice("format", among: ["text", "json"], default: "text")
        output.isHumanReadable = format == "text"
        let input = try TraceInput(path: arguments.positionals[0])
        let summary = try TraceSummary(input)
        if format == "json" {
            output.line(summary.json)
        } else {
            output.write(summary.text)
        }
        var damage = TraceDamage.report(
            summary.openProblems, readableEvents: summary.eventCount, command: "info", output: output, afterFooter: summary.reader?.hasFooter ?? false)
        if summary.eventCount == 0, summary.stop == nil {
            output.errorLine("lifetrace info: note: \(input.noEventsText)")
        }
        for problem in summary.checkpointProblems {
            output.errorLine("lifetrace info: warning: \(problem); \(TraceSummary.checkpointNote)")
            damage = TraceDamage.worse(damage, .problemFound)
        }
        guard let stop = summary.stop else { return damage }
        return TraceDamage.worse(damage, stop.report(command: "info", output: output))
    }
}

/// The figures `lifetrace info` prints, gathered from one pass over a trace or a JSON Lines export.
struct TraceSummary {
    let input: TraceInput
    var controllers = Set<ControllerRef>()
    /// Counts per kind, named as the JSON Lines `kind` member and `events --kind` name them (docs/JSONL.md).
    var kinds: [(name: String, count: Int)] = [
        ("callback", 0), ("container", 0), ("app", 0), ("swiftui", 0), ("mark", 0), ("recorder", 0), ("unknown", 0),
    ]
    /// Where reading stopped early (a frame whose CRC holds but whose payload does not decode, a bad JSON line).
    var stop: TraceInput.Stop?
    /// The events read: those of the valid prefix, or fewer when `stop` ended reading early.
    var eventCount: UInt64 = 0
    /// First and last event times (ns), from the events read.
    var firstTime: UInt64?
    var lastTime: UInt64?
    /// The input's header (a JSON Lines file may have none).
    let header: TraceHeader?
    let fileSize: UInt64
    /// Checkpoints of the valid prefix whose payload fails its CRC or does not inflate (FORMAT.md §8): they hide
    /// no events, so they do not end the valid prefix, and opening a file (cleanly closed or not) does not read
    /// them; `info` reads every one, as `verify` does.
    var checkpointProblems: [TraceError] = []

    /// What a damaged checkpoint means for the counts, after its problem.
    static let checkpointNote = "a checkpoint holds no events: all of them were read ('lifetrace state' falls back to an earlier checkpoint)"

    init(_ input: TraceInput) throws {
        self.input = input
        header = try input.header()
        if case .trace(let reader) = input.source {
            fileSize = reader.fileSize
            for frame in reader.checkpoints {
                do {
                    _ = try reader.checkpointPayload(frame)
                } catch let error as TraceError {
                    checkpointProblems.append(error)
                }
            }
        } else {
            let attributes = try? FileManager.default.attributesOfItem(atPath: input.path)
            fileSize = (attributes?[.size] as? NSNumber)?.uint64Value ?? 0
        }
        if case .trace(let reader) = input.source {
            stop = summarizeRecords(reader)
            return
        }
        stop = try input.scan(fromOffset: nil) { _, event, _ in
            kinds[Self.kindSlot(event.payload)].count += 1
            eventCount += 1
            if firstTime == nil { firstTime = event.timestamp }
            lastTime = event.timestamp
            for controller in event.controllers { controllers.insert(controller) }
            return true
        }
    }

    var reader: TraceReader? {
        if case .trace(let reader) = input.source { return reader }
        return nil
    }

    /// The counts of a `.lifetrace` file from its records (`FrameCursor.next(into:)`), as `TraceInput.scan` would
    /// give them from `Event`s: the same events (up to the first that does not decode), the same kinds, the same
    /// set of controllers. Building an `Event` for every record, an array of its controllers and hashing each
    /// controller's type name per event made `info` take about 3 times as long as `verify`; here a record's
    /// controllers are table slots, marked per frame, and each slot's `ControllerRef` is added to the set once
    /// per frame. Only `.other` records (events with a source line, recorder events, …) build their `Event`.
    ///
    /// - Returns: Where reading stopped early (an events frame that does not decode), as `TraceInput.scan`
    ///   reports it.
    private mutating func summarizeRecords(_ reader: TraceReader) -> TraceInput.Stop? {
        var used: [Bool] = []
        var usedSlots: [UInt32] = []
        for frame in reader.frames {
            var cursor: FrameCursor
            do {
                cursor = try reader.cursor(for: frame)
            } catch {
                return TraceInput.stop(reader, FrameLines.traceError(error, reader, frame))
            }
            // Through a pointer: calling the cursor's methods through a copy would copy its decoder each time.
            let failure: (any Error)? = withUnsafeMutablePointer(to: &cursor) { cursor in
                func use(_ slot: UInt32) {
                    let index = Int(slot)
                    if index >= used.count { used += repeatElement(false, count: index + 1 - used.count) }
                    if !used[index] {
                        used[index] = true
                        usedSlots.append(slot)
                    }
                }
                var record = EventRecord(otherAt: 0, ordinal: 0)
                var failure: (any Error)?
                reading: while true {
                    do {
                        guard try cursor.pointee.next(into: &record) else { break reading }
                    } catch {
                        failure = error  // the events before it in this frame were counted, as `scan` reads them
                        break reading
                    }
                    let slot: Int
                    switch record.kind {
                    case .callback:
                        slot = 0
                        use(record.controllerSlot)
                        if record.parent == .controller { use(record.parentSlot) }
                    case .container:
                        slot = 1
                        if record.hasController { use(record.controllerSlot) }
                        for index in record.listStart..<record.listStart + record.listCount {
                            use(cursor.pointee.listSlot(index))
                        }
                    case .app:
                        slot = 2
                    case .swiftUI:
                        slot = 3
                        if record.hasController { use(record.controllerSlot) }
                    case .mark:
                        slot = 4
                        if record.hasController { use(record.controllerSlot) }
                    case .other:
                        let event = cursor.pointee.takeEvent() ?? cursor.pointee.event(of: record)
                        slot = Self.kindSlot(event.payload)
                        for controller in event.controllers { controllers.insert(controller) }
                    }
                    kinds[slot].count += 1
                    eventCount += 1
                    if firstTime == nil { firstTime = record.timestamp }
                    lastTime = record.timestamp
                }
                for slot in usedSlots {
                    controllers.insert(cursor.pointee.controller(atSlot: slot))
                    used[Int(slot)] = false
                }
                usedSlots.removeAll(keepingCapacity: true)
                return failure
            }
            if let failure {
                return TraceInput.stop(reader, FrameLines.traceError(failure, reader, frame))
            }
        }
        return nil
    }

    /// The position in `kinds` of an event's kind.
    private static func kindSlot(_ payload: EventPayload) -> Int {
        switch payload {
        case .callback: 0
        case .container: 1
        case .app: 2
        case .swiftUI: 3
        case .mark: 4
        case .recorder: 5
        case .unknown: 6
        }
    }

    /// Damage found when opening a trace (warnings, exit 1).
    var openProblems: [TraceError] { input.problems }

    /// Every problem, as lines, in file order: damage found when opening and damaged checkpoints, then where
    /// reading stopped.
    var problemLines: [String] {
        let found = (openProblems + checkpointProblems.map { problem in
            var problem = problem
            problem.message += "; \(Self.checkpointNote)"
            return problem
        }).sorted { ($0.offset ?? 0) < ($1.offset ?? 0) }
        return found.map(\.description) + (stop.map { ["\($0)"] } ?? [])
    }

    /// Where the readable prefix ends, when the input is damaged or stops early: a byte offset or a line.
    var damagePlace: String? {
        if let offset = reader?.damage?.offset { return "offset \(offset)" }
        return stop?.place
    }

    var bytesPerEvent: Double? {
        eventCount == 0 ? nil : Double(fileSize) / Double(eventCount)
    }

    func wallAnchorText(_ header: TraceHeader) -> String {
        let anchor = header.wallClockAnchor
        let date = Date(timeIntervalSince1970: Double(anchor.unixNanoseconds) / 1e9)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return "\(formatter.string(from: date)) at \(TimeText.seconds(anchor.monotonicNanoseconds))"
    }

    func clockText(_ header: TraceHeader) -> String {
        let domain = header.clockDomain
        switch domain.countsSleep {
        case true?: return "\(domain) (counts sleep)"
        case false?: return "\(domain) (does not count sleep)"
        case nil: return domain.name
        }
    }

    var formatText: String {
        guard let reader else {
            let written = header.map { " written by \"\($0.producer.controlCharactersEscaped)\"" } ?? " (no header line)"
            return "JSON Lines export (docs/JSONL.md),\(written)"
        }
        return "\(reader.header.formatMajor).\(reader.header.formatMinor), written by \"\(reader.header.producer.controlCharactersEscaped)\""
    }

    var text: String {
        var lines: [(String, String)] = [
            ("trace", input.path.displayEscaped),
            ("format", formatText),
        ]
        if let header {
            lines += [
                ("trace id", header.traceIDHex),
                ("clock", clockText(header) + (header.hasSyntheticTimes ? "; times are synthetic" : "")),
                ("wall anchor", wallAnchorText(header)),
            ]
        }
        if let firstTime, let lastTime {
            lines.append(("time span", "\(TimeText.duration(lastTime - firstTime)) (\(TimeText.seconds(firstTime)) to \(TimeText.seconds(lastTime)))"))
        } else {
            lines.append(("time span", "none (no events)"))
        }
        lines.append(("events", "\(eventCount)"))
        if eventCount > 0 {
            lines.append(("  by kind", kinds.filter { $0.count > 0 }.map { "\($0.name) \($0.count)" }.joined(separator: ", ")))
        }
        lines.append(("controllers", "\(controllers.count)"))
        if let reader {
            let payload = reader.payloadBytes
            let damaged = checkpointProblems.isEmpty ? "" : " (\(checkpointProblems.count) damaged)"
            lines.append(("frames", "\(reader.frames.count) events, \(reader.checkpoints.count) checkpoints\(damaged)"))
            lines.append(("raw bytes", "\(payload.raw) (event payloads before compression)"))
            lines.append(("compressed", "\(payload.compressed) (event payloads as stored)"))
            lines.append(("file size", "\(fileSize) bytes"))
            if let bytesPerEvent {
                let ratio = payload.raw == 0 ? 0 : Double(payload.compressed) / Double(payload.raw)
                lines.append(("bytes/event", "\(format(bytesPerEvent, decimals: 2)) (file size / events; compression ratio \(format(ratio, decimals: 3)))"))
            } else {
                lines.append(("bytes/event", "n/a (no events)"))
            }
        } else {
            lines.append(("file size", "\(fileSize) bytes"))
            lines.append(("bytes/event", bytesPerEvent.map { "\(format($0, decimals: 2)) (file size / events)" } ?? "n/a (no events)"))
        }
        if let damagePlace {
            if let reader, reader.hasFooter, reader.damage?.code == .tornTail {
                lines.append(("damaged", "junk after the footer at \(damagePlace): every event was read"))
            } else {
                lines.append(("damaged", "at \(damagePlace): the counts above cover the \(eventCount) readable events before it"))
            }
        }
        if let reader {
            let notClean = reader.damage == nil ? "not cleanly: no valid footer, frame index rebuilt by walking the frames"
                : "unknown: frame index rebuilt by walking the frames up to the damage"
            let junk = reader.hasFooter && reader.damage?.code == .tornTail
            lines.append(("closed", reader.isCleanlyClosed ? "cleanly (index and footer present)"
                : junk ? "cleanly, but bytes follow the footer (see problems; 'lifetrace verify --repair' cuts them)" : notClean))
        }
        let problems = problemLines
        lines.append(("problems", problems.isEmpty ? "none found (run 'lifetrace verify' for a full check)" : "\(problems.count)"))
        let width = lines.map(\.0.count).max()! + 2
        var text = lines.map { "\($0.0 + ":")\(String(repeating: " ", count: width - $0.0.count))\($0.1)" }.joined(separator: "\n") + "\n"
        for problem in problems { text += "  \(problem.displayEscaped)\n" }
        return text
    }

    var json: String {
        let payload = reader?.payloadBytes
        var fields: [(String, String)] = [
            ("path", jsonString(input.path)),
            ("input_format", jsonString(reader == nil ? "jsonl" : "lifetrace")),
            ("format_major", reader.map { "\($0.header.formatMajor)" } ?? "null"),
            ("format_minor", reader.map { "\($0.header.formatMinor)" } ?? "null"),
            ("producer", header.map { jsonString($0.producer) } ?? "null"),
            ("trace_id", header.map { jsonString($0.traceIDHex) } ?? "null"),
            ("clock_domain", header.map { jsonString($0.clockDomain.name) } ?? "null"),
            ("synthetic_times", header.map { "\($0.hasSyntheticTimes)" } ?? "null"),
            ("wall_anchor_unix_ns", header.map { "\($0.wallClockAnchor.unixNanoseconds)" } ?? "null"),
            ("wall_anchor_monotonic_ns", header.map { "\($0.wallClockAnchor.monotonicNanoseconds)" } ?? "null"),
            ("first_t_ns", firstTime.map { "\($0)" } ?? "null"),
            ("last_t_ns", lastTime.map { "\($0)" } ?? "null"),
            ("events", "\(eventCount)"),
            ("damaged_at_offset", (reader?.damage?.offset ?? stop.flatMap { ($0.underlying as? TraceError)?.offset }).map { "\($0)" } ?? "null"),
            ("damaged_at_line", stop.flatMap { ($0.underlying as? JSONLError)?.line }.map { "\($0)" } ?? "null"),
            ("events_by_kind", "{" + kinds.map { "\(jsonString($0.name)): \($0.count)" }.joined(separator: ", ") + "}"),
            ("controllers", "\(controllers.count)"),
            ("event_frames", reader.map { "\($0.frames.count)" } ?? "null"),
            ("checkpoints", reader.map { "\($0.checkpoints.count)" } ?? "null"),
            ("damaged_checkpoints", reader == nil ? "null" : "\(checkpointProblems.count)"),
            ("raw_bytes", payload.map { "\($0.raw)" } ?? "null"),
            ("compressed_bytes", payload.map { "\($0.compressed)" } ?? "null"),
            ("file_bytes", "\(fileSize)"),
            ("bytes_per_event", bytesPerEvent.map { format($0, decimals: 3) } ?? "null"),
            ("cleanly_closed", reader.map { "\($0.isCleanlyClosed)" } ?? "null"),
            ("problems", "[" + problemLines.map { jsonString($0) }.joined(separator: ", ") + "]"),
        ]
        fields = fields.map { ("\"\($0.0)\"", $0.1) }
        return "{" + fields.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "}"
    }
}

/// `value` with `decimals` digits after the point, without locale.
private func format(_ value: Double, decimals: Int) -> String {
    String(format: "%.\(decimals)f", value)
}

/// `text` as a JSON string literal.
private func jsonString(_ text: String) -> String {
    JSONString.quoted(text)
}
