import Foundation
import Testing

@testable import LifetraceCLI

/// `--controller` by prefix or substring (events, --visible, timeline), timeline's --from/--to/--controller and
/// --format json, verify --format json.
@Suite("controller selection, timeline windows, JSON of timeline and verify")
struct SelectionAndJSONTests {
    /// The committed swipe-back scenario (NotesListViewController#1, UINavigationController#2,
    /// NoteEditorViewController#3), simulated, and its JSON Lines export.
    final class Sample {
        let scratch: CLIScratch
        let trace: String
        let jsonl: String

        init() throws {
            scratch = try CLIScratch("selection")
            trace = scratch.path("swipe.lifetrace")
            jsonl = scratch.path("swipe.jsonl")
            var root = URL(fileURLWithPath: #filePath)
            for _ in 0..<3 { root.deleteLastPathComponent() }
            let scenario = root.appendingPathComponent("traces/scenarios/cancelled-swipe-back-save.scenario").path
            try #require(runCLI(["simulate", scenario, "-o", trace]).code == .success)
            try #require(runCLI(["export", trace, "-o", jsonl]).code == .success)
        }
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test("events --controller NoteEditor: the type it starts, as the full name lists it, with a note", arguments: [false, true])
    func prefix(jsonl: Bool) throws {
        let sample = try Sample()
        let path = jsonl ? sample.jsonl : sample.trace
        let full = runCLI(["events", path, "--controller", "NoteEditorViewController"])
        let loose = runCLI(["events", path, "--controller", "NoteEditor"])
        #expect(loose.code == .success)
        #expect(loose.out == full.out)
        #expect(!loose.out.isEmpty)
        #expect(loose.err == "lifetrace events: note: --controller 'NoteEditor' names no controller exactly; it matches the type NoteEditorViewController by prefix\n")
        #expect(full.err.isEmpty)

        let part = runCLI(["events", path, "--controller", "editorview", "--kind", "save"])
        #expect(part.code == .success)
        #expect(part.out.contains("mark save key=draft"), "\(part.out)")
        #expect(part.err.contains("it matches the type NoteEditorViewController by substring"), "\(part.err)")
    }

    @Test("a loose name matching several types names them all; an exact name is never widened")
    func several() throws {
        let sample = try Sample()
        let both = runCLI(["events", sample.trace, "--controller", "Note", "--kind", "init"])
        #expect(both.code == .success)
        #expect(both.err == "lifetrace events: note: --controller 'Note' names no controller exactly; it matches 2 types by prefix: NotesListViewController, NoteEditorViewController\n", "\(both.err)")
        #expect(both.out.contains("NotesListViewController#1 init") && both.out.contains("NoteEditorViewController#3 init"))
        #expect(!both.out.contains("UINavigationController#2 init"))

        // With an exact name and a loose one, the listing is made once, in time order, with both.
        let mixed = runCLI(["events", sample.trace, "--controller", "UINavigationController", "--controller", "Editor", "--kind", "init"])
        #expect(mixed.code == .success)
        let lines = mixed.out.split(separator: "\n")
        #expect(lines.count == 4, "\(mixed.out)")  // begin and end of two inits
        #expect(lines.allSatisfy { $0.contains("UINavigationController#2") || $0.contains("NoteEditorViewController#3") })

        // A name of the trace: exact, even though other types contain it.
        let exact = runCLI(["events", sample.trace, "--controller", "NoteEditorViewController#3", "--kind", "init"])
        #expect(exact.err.isEmpty)
    }

    @Test("a name that matches nothing suggests only a name of the trace, and its example is a controller of the trace")
    func nothing() throws {
        let sample = try Sample()
        let result = runCLI(["events", sample.trace, "--controller", "Settings"])
        #expect(result.code == .problemFound)
        #expect(result.out.isEmpty)
        #expect(result.err == "lifetrace events: warning: no event matched --controller 'Settings': no controller of the trace has that name; use a display name such as NotesListViewController#1, or a type name ('lifetrace state TRACE' lists them)\n", "\(result.err)")
        let visible = runCLI(["events", sample.trace, "--visible", "NoteEditor"])
        #expect(visible.code == .success)
        #expect(visible.out.hasPrefix("NoteEditorViewController#3 appeared:\n"), "\(visible.out)")
        #expect(visible.err == "lifetrace events: note: --visible 'NoteEditor' names no controller exactly; it matches the type NoteEditorViewController by prefix\n")
    }

    @Test("timeline --controller, --from and --to select lanes and a window; the header counts from the first event")
    func timelineWindow() throws {
        let sample = try Sample()
        let all = runCLI(["timeline", sample.trace, "--width", "40"])
        #expect(all.out.contains("NotesListViewController#1"))
        let one = runCLI(["timeline", sample.trace, "--width", "40", "--controller", "NoteEditor", "--from", "5s", "--to", "7s", "--spans"])
        #expect(one.code == .success)
        #expect(one.err == "lifetrace timeline: note: --controller 'NoteEditor' names no controller exactly; it matches the type NoteEditorViewController by prefix\n")
        let lines = one.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "timeline 5.000 s … 7.000 s, 40 columns, 51.3 ms per column", "\(one.out)")
        #expect(!one.out.contains("NotesListViewController"))
        #expect(one.out.contains("NoteEditorViewController#3 |"))
        #expect(one.out.contains("  5.900 s  mark save in NoteEditorViewController#3.viewWillDisappear"))
        #expect(one.out.contains("  6.421 s – 7.000 s  appeared"), "a span open at the end ends with the window")
        #expect(!one.out.contains("mark edit"), "the edits at 4.0 s and 8.5 s are outside the window")

        let none = runCLI(["timeline", sample.trace, "--controller", "Settings"])
        #expect(none.code == .problemFound)
        #expect(none.out.isEmpty, "\(none.out)")
        #expect(none.err.hasPrefix("lifetrace timeline: warning: no controller named 'Settings' in the trace; use a display name such as NotesListViewController#1"), "\(none.err)")
        let late = runCLI(["timeline", sample.trace, "--from", "60s"])
        #expect(late.code == .problemFound)
        #expect(late.out.isEmpty)
        #expect(late.err == "lifetrace timeline: warning: no controller in the trace's timeline within --from 60s\n")
        let backwards = runCLI(["timeline", sample.trace, "--from", "7s", "--to", "5s"])
        #expect(backwards.code == .usageOrInput)
    }

    @Test("timeline --format json: lanes with spans, marks and times in trace nanoseconds, same for a JSON Lines export")
    func timelineJSON() throws {
        let sample = try Sample()
        let result = runCLI(["timeline", sample.trace, "--format", "json"])
        #expect(result.code == .success)
        #expect(result.out.split(separator: "\n").count == 1)
        let object = try json(result.out)
        let lanes = try #require(object["lanes"] as? [[String: Any]])
        #expect(lanes.map { $0["controller"] as? String } == ["NotesListViewController#1", "UINavigationController#2", "NoteEditorViewController#3"])
        let editor = lanes[2]
        #expect(editor["type"] as? String == "NoteEditorViewController")
        #expect(editor["serial"] as? Int == 3)
        let marks = try #require(editor["marks"] as? [[String: Any]])
        #expect(marks.contains { $0["name"] as? String == "save" && $0["event"] as? Int == 77 && $0["in"] as? String == "NoteEditorViewController#3.viewWillDisappear" })
        let spans = try #require(editor["spans"] as? [[String: Any]])
        #expect(spans.contains { $0["appearance"] as? String == "disappearing" })
        #expect(object["origin_ns"] as? Int == object["start_ns"] as? Int)
        #expect(try json(runCLI(["timeline", sample.jsonl, "--format", "json"]).out)["lanes"] as? [[String: Any]] != nil)

        let window = try json(runCLI(["timeline", sample.trace, "--format", "json", "--controller", "NoteEditorViewController", "--from", "5s"]).out)
        #expect((window["lanes"] as? [[String: Any]])?.count == 1)
        #expect(window["start_ns"] as? Int == 5_000_000_000 + (window["origin_ns"] as? Int ?? 0))
        #expect(runCLI(["timeline", sample.trace, "--format", "json", "--spans"]).code == .usageOrInput)
    }

    @Test("verify --format json: ok, a torn tail (failed, with the hint) and a JSON Lines line that cannot be read (unreadable)")
    func verifyJSON() throws {
        let sample = try Sample()
        let ok = runCLI(["verify", sample.trace, "--format", "json"])
        #expect(ok.code == .success)
        let sound = try json(ok.out)
        #expect(sound["status"] as? String == "ok")
        #expect(sound["events_checked"] as? Int == 107)
        #expect(sound["closed"] as? String == "cleanly")
        #expect((sound["problems"] as? [Any])?.isEmpty == true)

        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: sample.trace))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0x4C, 0x54, 0x46, 0x52, 1, 2, 3]))
        try handle.close()
        let torn = runCLI(["verify", sample.trace, "--format", "json"])
        #expect(torn.code == .problemFound)
        let failed = try json(torn.out)
        #expect(failed["status"] as? String == "failed")
        #expect(failed["closed"] as? String == "junk_after_footer")
        let problems = try #require(failed["problems"] as? [[String: Any]])
        #expect(problems.count == 1)
        #expect(problems.first?["code"] as? String == "tornTail")
        #expect((failed["hint"] as? String)?.contains("--repair") == true)
        let repaired = try json(runCLI(["verify", sample.trace, "--repair", "--format", "json"]).out)
        #expect(repaired["status"] as? String == "ok")
        #expect((repaired["repair"] as? [String: Any])?["dropped_bytes"] as? Int == 7)

        var text = try String(contentsOfFile: sample.jsonl, encoding: .utf8)
        text += "{not json\n"
        try text.write(toFile: sample.jsonl, atomically: true, encoding: .utf8)
        let bad = runCLI(["verify", sample.jsonl, "--format", "json"])
        #expect(bad.code == .usageOrInput)
        let unreadable = try json(bad.out)
        #expect(unreadable["status"] as? String == "unreadable")
        #expect(unreadable["input_format"] as? String == "jsonl")
        #expect(unreadable["readable_events"] as? Int == 107)
        #expect(unreadable["unreadable_at_line"] as? Int == 109, "header, 107 events, then the bad line")
        #expect(unreadable["frames_checked"] is NSNull)
        // The text report says the same.
        let textReport = runCLI(["verify", sample.jsonl])
        #expect(textReport.code == .usageOrInput)
        #expect(textReport.out.contains("FAILED: \(sample.jsonl): 1 problem; 107 events checked"), "\(textReport.out)")
    }
}
