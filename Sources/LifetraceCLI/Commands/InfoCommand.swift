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

            Exit codes: 0 the file was read and no problem was found; 1 the file is damaged (or has another
            problem listed under "problems"); 2 usage error or unreadable file (the error names the file and
            the byte offset).
            """,
        options: [OptionSpec("format", value: "FORMAT", help: "Output format: text (default) or json.")],
        positionalCount: (1, 1)
    )

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        let format = try arguments.choice("format", among: ["text", "json"], default: "text")
        let reader = try TraceReader(path: arguments.positionals[0])
        let summary = try TraceSummary(reader)
        if format == "json" {
            output.line(summary.json)
        } else {
            output.write(summary.text)
        }
        return TraceDamage.report(summary.problems, readableEvents: summary.eventCount, command: "info", output: output)
    }
}

/// The figures `lifetrace info` prints, gathered from one pass over a trace.
struct TraceSummary {
    let reader: TraceReader
    var controllers = Set<ControllerRef>()
    var kinds: [(name: String, count: Int)] = [
        ("callback", 0), ("container", 0), ("app", 0), ("swiftUI", 0), ("mark", 0), ("recorder", 0), ("unknown", 0),
    ]
    /// The error that stopped decoding early (a frame whose CRC holds but whose payload does not decode), if any.
    var decodeError: TraceError?
    /// The events read: those of the valid prefix, or fewer when `decodeError` stopped decoding early.
    var eventCount: UInt64 = 0

    init(_ reader: TraceReader) throws {
        self.reader = reader
        var iterator = reader.events()
        while let (_, event) = iterator.next() {
            let slot: Int
            switch event.payload {
            case .callback: slot = 0
            case .container: slot = 1
            case .app: slot = 2
            case .swiftUI: slot = 3
            case .mark: slot = 4
            case .recorder: slot = 5
            case .unknown: slot = 6
            }
            kinds[slot].count += 1
            eventCount += 1
            for controller in event.controllers { controllers.insert(controller) }
        }
        decodeError = iterator.error
    }

    var problems: [TraceError] { reader.problems + (decodeError.map { [$0] } ?? []) }

    /// Where the readable prefix ends, when the file is damaged.
    var damageOffset: UInt64? {
        (reader.damage ?? decodeError)?.offset
    }

    var bytesPerEvent: Double? {
        eventCount == 0 ? nil : Double(reader.fileSize) / Double(eventCount)
    }

    var wallAnchorText: String {
        let anchor = reader.header.wallClockAnchor
        let date = Date(timeIntervalSince1970: Double(anchor.unixNanoseconds) / 1e9)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return "\(formatter.string(from: date)) at \(TimeText.seconds(anchor.monotonicNanoseconds))"
    }

    var clockText: String {
        let domain = reader.header.clockDomain
        switch domain.countsSleep {
        case true?: return "\(domain) (counts sleep)"
        case false?: return "\(domain) (does not count sleep)"
        case nil: return domain.name
        }
    }

    var text: String {
        let header = reader.header
        let payload = reader.payloadBytes
        var lines: [(String, String)] = [
            ("trace", reader.path),
            ("format", "\(header.formatMajor).\(header.formatMinor), written by \"\(header.producer)\""),
            ("trace id", header.traceIDHex),
            ("clock", clockText + (header.hasSyntheticTimes ? "; times are synthetic" : "")),
            ("wall anchor", wallAnchorText),
        ]
        if let span = reader.timeSpan {
            lines.append(("time span", "\(TimeText.duration(span.upperBound - span.lowerBound)) (\(TimeText.seconds(span.lowerBound)) to \(TimeText.seconds(span.upperBound)))"))
        } else {
            lines.append(("time span", "none (no events)"))
        }
        lines.append(("events", "\(eventCount)"))
        lines.append(("  by kind", kinds.filter { $0.count > 0 }.map { "\($0.name) \($0.count)" }.joined(separator: ", ")))
        lines.append(("controllers", "\(controllers.count)"))
        lines.append(("frames", "\(reader.frames.count) events, \(reader.checkpoints.count) checkpoints"))
        lines.append(("raw bytes", "\(payload.raw) (event payloads before compression)"))
        lines.append(("compressed", "\(payload.compressed) (event payloads as stored)"))
        lines.append(("file size", "\(reader.fileSize) bytes"))
        if let bytesPerEvent {
            let ratio = payload.raw == 0 ? 0 : Double(payload.compressed) / Double(payload.raw)
            lines.append(("bytes/event", "\(format(bytesPerEvent, decimals: 2)) (file size / events; compression ratio \(format(ratio, decimals: 3)))"))
        } else {
            lines.append(("bytes/event", "n/a (no events)"))
        }
        if let damageOffset {
            lines.append(("damaged", "at offset \(damageOffset): the counts above cover the \(eventCount) readable events before it"))
        }
        let notClean = damageOffset == nil ? "not cleanly: no valid footer, frame index rebuilt by walking the frames"
            : "unknown: frame index rebuilt by walking the frames up to the damage"
        lines.append(("closed", reader.isCleanlyClosed ? "cleanly (index and footer present)" : notClean))
        let problems = self.problems
        lines.append(("problems", problems.isEmpty ? "none found (run 'lifetrace verify' for a full check)" : "\(problems.count)"))
        let width = lines.map(\.0.count).max()! + 2
        var text = lines.map { "\($0.0 + ":")\(String(repeating: " ", count: width - $0.0.count))\($0.1)" }.joined(separator: "\n") + "\n"
        for problem in problems { text += "  \(problem)\n" }
        return text
    }

    var json: String {
        let header = reader.header
        let payload = reader.payloadBytes
        var fields: [(String, String)] = [
            ("path", jsonString(reader.path)),
            ("format_major", "\(header.formatMajor)"),
            ("format_minor", "\(header.formatMinor)"),
            ("producer", jsonString(header.producer)),
            ("trace_id", jsonString(header.traceIDHex)),
            ("clock_domain", jsonString(header.clockDomain.name)),
            ("synthetic_times", "\(header.hasSyntheticTimes)"),
            ("wall_anchor_unix_ns", "\(header.wallClockAnchor.unixNanoseconds)"),
            ("wall_anchor_monotonic_ns", "\(header.wallClockAnchor.monotonicNanoseconds)"),
            ("first_t_ns", reader.timeSpan.map { "\($0.lowerBound)" } ?? "null"),
            ("last_t_ns", reader.timeSpan.map { "\($0.upperBound)" } ?? "null"),
            ("events", "\(eventCount)"),
            ("damaged_at_offset", damageOffset.map { "\($0)" } ?? "null"),
            ("events_by_kind", "{" + kinds.map { "\(jsonString($0.name)): \($0.count)" }.joined(separator: ", ") + "}"),
            ("controllers", "\(controllers.count)"),
            ("event_frames", "\(reader.frames.count)"),
            ("checkpoints", "\(reader.checkpoints.count)"),
            ("raw_bytes", "\(payload.raw)"),
            ("compressed_bytes", "\(payload.compressed)"),
            ("file_bytes", "\(reader.fileSize)"),
            ("bytes_per_event", bytesPerEvent.map { format($0, decimals: 3) } ?? "null"),
            ("cleanly_closed", "\(reader.isCleanlyClosed)"),
            ("problems", "[" + problems.map { jsonString($0.description) }.joined(separator: ", ") + "]"),
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
