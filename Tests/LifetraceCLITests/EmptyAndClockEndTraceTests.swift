import Foundation
import Testing

@testable import LifetraceCLI

/// The sample swipe-back scenario as a trace and its JSON Lines export, plus rewritten copies.
private final class SwipeTrace {
    let scratch: CLIScratch
    let trace: String
    let jsonl: String

    init(_ name: String) throws {
        scratch = try CLIScratch(name)
        trace = scratch.path("swipe.lifetrace")
        jsonl = scratch.path("swipe.jsonl")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let scenario = root.appendingPathComponent("traces/scenarios/cancelled-swipe-back-save.scenario").path
        try #require(runCLI(["simulate", scenario, "-o", trace]).code == .success)
        try #require(runCLI(["export", trace, "-o", jsonl]).code == .success)
    }

    /// The export's lines, each `"t_ns":N` replaced by `transform(N)`, written to `name` (and imported to
    /// `name.lifetrace`); returns both paths.
    func rewritten(_ name: String, keepingLines: (Int) -> Bool = { _ in true }, _ transform: (UInt64) -> UInt64) throws -> (jsonl: String, trace: String) {
        let text = try String(contentsOfFile: jsonl, encoding: .utf8)
        var lines: [String] = []
        for (index, line) in text.split(separator: "\n").enumerated() where keepingLines(index) {
            guard let range = line.range(of: #""t_ns":"#) else {
                lines.append(String(line))
                continue
            }
            let digits = line[range.upperBound...].prefix { $0.isNumber }
            let value = try #require(UInt64(digits))
            lines.append(line.replacingCharacters(in: range.upperBound..<digits.endIndex, with: String(transform(value))))
        }
        let path = scratch.path(name)
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let trace = path + ".lifetrace"
        try #require(runCLI(["import", path, "-o", trace]).code == .success)
        return (path, trace)
    }
}

/// Before, `state --at T` on a trace whose clock reaches its end (the last event at or near 2^64 − 1 ns) was
/// silent: start + T saturated at the last event's time, so no "after the last event" note, and the text showed
/// "state at 9.700 s" for `--at 100s`; on other traces a saturated T showed the last event's time too, unlike any
/// other late T. Now every T after the last event gets the note, saying when the clock's end was reached, and the
/// text shows the same instant as JSON's t_rel_ns.
@Suite("state --at past the end of the trace clock")
struct ClockEndStateTests {
    @Test("a trace ending at the clock's end: a late --at gets the note, naming the clock's end")
    func endingAtClockEnd() throws {
        let swipe = try SwipeTrace("clock-end")
        var last: UInt64 = 0
        var first = UInt64.max
        _ = try swipe.rewritten("scan.jsonl") { time in
            last = max(last, time)
            first = min(first, time)
            return time
        }
        let shifted = try swipe.rewritten("late.jsonl") { $0 + (UInt64.max - last) }
        first += UInt64.max - last
        for path in [shifted.jsonl, shifted.trace] {
            let result = runCLI(["state", path, "--at", "100s"])
            #expect(result.code == .success)
            #expect(result.err.contains("lifetrace state: note: --at 100s is after the last event (at 9.700 s) and past the end of the trace clock (2^64 − 1 ns, 9.700 s after the first event)"), "\(result.err)")
            #expect(result.out.hasPrefix("state at 9.700 s (107 events;"), "\(result.out)")
            let json = runCLI(["state", path, "--at", "100s", "--format", "json"])
            #expect(json.out.hasPrefix("{\"t_ns\":18446744073709551615,\"t_rel_ns\":\(UInt64.max - first),"), "\(json.out.prefix(80))")
            #expect(json.err.contains("past the end of the trace clock"))
            // Within the trace: no note.
            let inside = runCLI(["state", path, "--at", "6s"])
            #expect(inside.err.isEmpty && inside.out.hasPrefix("state at 6.000 s (87 events;"), "\(inside.err)")
        }
    }

    @Test("a trace starting at 0: the largest --at shows the clock's end, as JSON does, with the note")
    func largestAt() throws {
        let swipe = try SwipeTrace("clock-end-zero")
        for path in [swipe.trace, swipe.jsonl] {
            let result = runCLI(["state", path, "--at", "18446744073.709551615s"])
            #expect(result.code == .success)
            #expect(result.out.hasPrefix("state at 18446744073.710 s (107 events;"), "\(result.out)")
            #expect(result.err.contains("is after the last event (at 9.700 s); this is the state after it"), "\(result.err)")
            // start + T fits: not past the clock's end.
            #expect(!result.err.contains("past the end of the trace clock"))
        }
    }
}

/// Before, a trace with only its header printed "state at 0.000 s (0 events; app unknown)" (and "state at
/// 1.000 s" for `--at 1s` on its JSON Lines export but "0.000 s" on the trace), `timeline` printed "(empty
/// trace)", `audit` and `info` said nothing of it, and `events` said "the trace has no events" without the file.
/// Now every command says `FILE holds no events (only its header)`; exit 0, `events` 1 (it lists nothing).
@Suite("a trace without events: every command says so")
struct EmptyTraceTests {
    @Test("state, timeline, info, audit: a note naming the file, exit 0; events: a warning, exit 1")
    func everyCommand() throws {
        let swipe = try SwipeTrace("empty")
        let empty = try swipe.rewritten("empty.jsonl", keepingLines: { $0 == 0 }) { $0 }
        for path in [empty.jsonl, empty.trace] {
            let note = "\(path) holds no events (only its header)"
            for (command, code, out) in [
                (["state"], ExitCode.success, "no events: no state to show\n"),
                (["state", "--at", "1s"], .success, "no events: no state to show\n"),
                (["timeline"], .success, "no events: no timeline to show\n"),
                (["timeline", "--spans"], .success, "no events: no timeline to show\n"),
            ] {
                let result = runCLI([command[0], path] + command.dropFirst())
                #expect(result.code == code, "\(command)")
                #expect(result.out == out, "\(command): \(result.out)")
                #expect(result.err == "lifetrace \(command[0]): note: \(note)\n", "\(command): \(result.err)")
            }
            let json = runCLI(["state", path, "--format", "json"])
            #expect(json.code == .success)
            #expect(json.out.hasPrefix(#"{"t_ns":0,"t_rel_ns":0,"start_ns":0,"events_applied":0,"#))
            #expect(json.err == "lifetrace state: note: \(note)\n")
            let info = runCLI(["info", path])
            #expect(info.code == .success)
            #expect(info.out.contains("time span:    none (no events)"))
            #expect(info.err == "lifetrace info: note: \(note)\n")
            let audit = runCLI(["audit", path])
            #expect(audit.code == .success)
            #expect(audit.out.hasSuffix("audited 1 trace (0 events) with 15 rules: 0 errors, 0 warnings, 0 notes\n"))
            #expect(audit.err == "lifetrace audit: note: \(note); no rule had anything to check\n")
            let events = runCLI(["events", path])
            #expect(events.code == .problemFound)
            #expect(events.out.isEmpty)
            #expect(events.err == "lifetrace events: warning: \(note)\n")
        }
    }

    @Test("a trace with events gets no such note")
    func notForATraceWithEvents() throws {
        let swipe = try SwipeTrace("not-empty")
        for command in [["state"], ["timeline"], ["info"], ["audit"]] {
            let result = runCLI([command[0], swipe.trace])
            #expect(!result.err.contains("holds no events"), "\(command)")
        }
    }
}
