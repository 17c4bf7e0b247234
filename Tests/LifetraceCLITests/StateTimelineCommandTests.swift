import Foundation
import Testing
import TraceLog
import TraceModel

@testable import LifetraceCLI

@Suite("lifetrace state and timeline")
struct StateTimelineCommandTests {
    final class Scratch {
        let directory: String

        init() {
            directory = FileManager.default.temporaryDirectory.path + "/lifetrace-cli-state-\(UUID().uuidString)"
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: directory) }
    }

    static let nav = ControllerRef(serial: 1, typeName: "UINavigationController")
    static let list = ControllerRef(serial: 2, typeName: "NotesListViewController")
    static let editor = ControllerRef(serial: 3, typeName: "NoteEditorViewController")
    static let sheet = ControllerRef(serial: 4, typeName: "FiltersViewController")

    /// A pushed editor, a cancelled swipe-back with a save inside viewWillDisappear, a page sheet, background.
    /// Times in ms from a first event at 1 s on the trace clock.
    static func events() -> [Event] {
        func at(_ ms: UInt64) -> UInt64 { 1_000_000_000 + ms * 1_000_000 }
        func cb(_ callback: Callback, _ ref: ControllerRef, _ ms: UInt64, _ phase: Phase = .instant) -> Event {
            .callback(CallbackEvent(callback, phase, controller: ref), at: at(ms))
        }
        func op(_ operation: ContainerOperation, _ container: ControllerRef?, _ refs: [ControllerRef], _ ms: UInt64, style: ModalPresentationStyle? = nil) -> Event {
            .container(ContainerEvent(operation, container: container, controllers: refs, style: style), at: at(ms))
        }
        let (nav, list, editor, sheet) = (nav, list, editor, sheet)
        return [
            .app(AppEvent(.didBecomeActive), at: at(0)),
            cb(.initialize, nav, 0), cb(.initialize, list, 1), op(.setRoot, nil, [nav], 2), op(.setViewControllers, nav, [list], 3),
            cb(.viewWillAppear, nav, 4), cb(.viewWillAppear, list, 5), cb(.viewDidAppear, nav, 6), cb(.viewDidAppear, list, 7),
            cb(.initialize, editor, 100), op(.push, nav, [editor], 101), cb(.viewWillDisappear, list, 102),
            cb(.viewWillAppear, editor, 103), cb(.viewDidDisappear, list, 104), cb(.viewDidAppear, editor, 105),
            .mark(.edit(key: "draft", controller: editor), at: at(200)),
            op(.interactiveTransitionBegin, nav, [editor, list], 300),
            cb(.viewWillDisappear, editor, 301, .begin),
            .mark(.save(key: "draft", critical: true, controller: editor), at: at(302)),
            cb(.viewWillDisappear, editor, 303, .end),
            cb(.viewWillAppear, list, 304),
            cb(.viewWillDisappear, list, 400), cb(.viewDidDisappear, list, 401), cb(.viewWillAppear, editor, 402),
            cb(.viewDidAppear, editor, 403), op(.interactiveTransitionCancel, nav, [editor, list], 404),
            .mark(MarkEvent(MarkName.timerStart, controller: editor, fields: [MarkField("id", .string("autosave"))]), at: at(500)),
            cb(.initialize, sheet, 600), op(.present, editor, [sheet], 601, style: .pageSheet),
            cb(.viewWillAppear, sheet, 602), cb(.viewDidAppear, sheet, 603),
            .app(AppEvent(.willResignActive), at: at(700)), .app(AppEvent(.didEnterBackground), at: at(701)),
        ]
    }

    static func writeTrace(_ scratch: Scratch) throws -> String {
        let path = "\(scratch.directory)/session.lifetrace"
        let header = TraceHeader(clockDomain: .synthetic, wallClockAnchor: .none, producer: "cli-state-tests")
        var options = TraceWriter.Options()
        options.maxEventsPerFrame = 8
        let writer = try TraceWriter(creating: path, header: header, options: options)
        try writer.append(contentsOf: events())
        try writer.close()
        return path
    }

    func run(_ arguments: [String]) -> (ExitCode, CapturedOutput) {
        let (output, captured) = CommandOutput.capturing()
        return (Lifetrace.run(arguments: arguments, output: output), captured)
    }

    @Test("state --format json mid-swipe: both in flight, the transition, the unsaved draft")
    func jsonMidSwipe() throws {
        let scratch = Scratch()
        let path = try Self.writeTrace(scratch)
        let (code, captured) = run(["state", path, "--at", "350ms", "--format", "json"])
        #expect(code == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(captured.standardOutput.utf8)) as? [String: Any])
        #expect(object["t_ns"] as? Int == 1_350_000_000)
        #expect(object["t_rel_ns"] as? Int == 350_000_000)
        #expect(object["app"] as? String == "active")
        let controllers = try #require(object["controllers"] as? [[String: Any]])
        #expect(controllers.map { $0["name"] as? String } == ["UINavigationController#1", "NotesListViewController#2", "NoteEditorViewController#3"])
        let byName = Dictionary(uniqueKeysWithValues: controllers.map { ($0["name"] as! String, $0) })
        let editor = try #require(byName["NoteEditorViewController#3"])
        #expect(editor["appearance"] as? String == "disappearing")
        #expect(editor["type"] as? String == "NoteEditorViewController")
        #expect(editor["view_loaded"] as? Bool == true)
        #expect(editor["alive"] as? Bool == true)
        #expect(editor["parent"] as? String == "UINavigationController#1")
        #expect((editor["unsaved"] as? [Any])?.isEmpty == true)
        #expect(byName["NotesListViewController#2"]?["appearance"] as? String == "appearing")
        let nav = try #require(byName["UINavigationController#1"])
        #expect(nav["children"] as? [String] == ["NotesListViewController#2", "NoteEditorViewController#3"])
        #expect(nav["parent"] as? String == "window")
        let container = try #require(nav["container"] as? [String: Any])
        #expect(container["kind"] as? String == "navigation")
        let transitions = try #require(object["transitions"] as? [[String: Any]])
        #expect(transitions.count == 1)
        #expect(transitions.first?["kind"] as? String == "interactive_pop")
        #expect(transitions.first?["from"] as? String == "NoteEditorViewController#3")
        #expect(transitions.first?["to"] as? String == "NotesListViewController#2")
        #expect((object["diagnostics"] as? [Any])?.isEmpty == true)
    }

    @Test("state --at past the last event: the final state, with a note on standard error naming the end")
    func atPastTheEnd() throws {
        let scratch = Scratch()
        let path = try Self.writeTrace(scratch)
        let (endCode, atEnd) = run(["state", path])
        let (code, captured) = run(["state", path, "--at", "99s"])
        #expect(endCode == .success && code == .success)
        #expect(captured.standardError == "lifetrace state: note: --at 99s is after the last event (at 0.701 s); this is the state after it\n")
        #expect(captured.standardOutput.split(separator: "\n").dropFirst() == atEnd.standardOutput.split(separator: "\n").dropFirst())
        #expect(captured.standardOutput.hasPrefix("state at 99.000 s (33 events"))
        // At or before the last event: no note.
        let (_, inside) = run(["state", path, "--at", "701ms"])
        #expect(inside.standardError.isEmpty)
        // A JSON Lines export says the same.
        let jsonl = "\(scratch.directory)/session.jsonl"
        #expect(run(["export", path, "-o", jsonl]).0 == .success)
        let (_, fromJSONL) = run(["state", jsonl, "--at", "99s"])
        #expect(fromJSONL.standardError == captured.standardError)
        let (_, insideJSONL) = run(["state", jsonl, "--at", "350ms"])
        #expect(insideJSONL.standardError.isEmpty)
    }

    @Test("state text at the end: the tree with the presented sheet, live timer, background")
    func textAtEnd() throws {
        let scratch = Scratch()
        let path = try Self.writeTrace(scratch)
        let (code, captured) = run(["state", path])
        #expect(code == .success)
        let expected = """
            state at 0.701 s (33 events; app background)
            window
            └─ UINavigationController#1  appeared  [navigation]
               ├─ NotesListViewController#2  disappeared
               └─ NoteEditorViewController#3  appeared  live: timer:autosave
                  ⤷ presents (pageSheet) FiltersViewController#4  appeared

            """
        #expect(captured.standardOutput == expected)
    }

    @Test("timeline: one lane per controller, marks and app lane")
    func timeline() throws {
        let scratch = Scratch()
        let path = try Self.writeTrace(scratch)
        let (code, captured) = run(["timeline", path, "--width", "40", "--spans"])
        #expect(code == .success)
        let lines = captured.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "timeline 0.000 s … 0.701 s, 40 columns, 18.0 ms per column")
        let lanes = lines.filter { $0.contains(" |") }
        #expect(lanes.count == 5)
        #expect(lanes[0].hasPrefix("UINavigationController#1   |"))
        #expect(lanes[2].contains("E") && lanes[2].contains("S") && lanes[2].contains("T"))
        #expect(lanes[4].hasPrefix("app"))
        #expect(lines.contains("  0.302 s  mark save in NoteEditorViewController#3.viewWillDisappear"))
        #expect(lines.contains("  0.301 s – 0.402 s  disappearing"))
    }

    @Test("events --visible lists the appeared intervals; --from clips them")
    func visible() throws {
        let scratch = Scratch()
        let path = try Self.writeTrace(scratch)
        let (code, captured) = run(["events", path, "--visible", "NoteEditorViewController#3"])
        #expect(code == .success)
        #expect(captured.standardOutput == """
            NoteEditorViewController#3 appeared:
              0.105 s – 0.301 s  (196.0 ms)
              0.403 s – end of trace

            """)
        let (_, clipped) = run(["events", path, "--visible", "NoteEditorViewController", "--from", "0.2s", "--to", "0.5s", "--format", "jsonl"])
        #expect(clipped.standardOutput == """
            {"controller":"NoteEditorViewController#3","start_ns":1200000000,"end_ns":1301000000}
            {"controller":"NoteEditorViewController#3","start_ns":1403000000,"end_ns":1500000000}

            """)
        let (missing, failed) = run(["events", path, "--visible", "Nobody#9"])
        #expect(missing == .problemFound)  // nothing selected, as grep (NothingSelectedTests)
        #expect(failed.standardError.contains("Nobody#9"))
    }

    @Test("events: a mark shows the callback it happened in, also when listing from --from")
    func markAttribution() throws {
        let scratch = Scratch()
        let path = try Self.writeTrace(scratch)
        for options in [[], ["--from", "0.302s"]] {
            let (code, captured) = run(["events", path, "--kind", "save"] + options)
            #expect(code == .success)
            #expect(captured.standardOutput == "    0.302 s  #18  mark save key=draft critical=true @ NoteEditorViewController#3  (in NoteEditorViewController#3.viewWillDisappear)\n")
        }
    }

    @Test("bad arguments and unreadable traces exit 2 with a message", arguments: [
        ["state", "/nonexistent/x.lifetrace"],
        ["state", "TRACE", "--at", "soon"],
        ["state", "TRACE", "--format", "xml"],
        ["timeline", "TRACE", "--width", "3"],
        ["timeline", "/nonexistent/x.lifetrace"],
    ])
    func badInput(arguments: [String]) throws {
        let scratch = Scratch()
        let path = try Self.writeTrace(scratch)
        let (code, captured) = run(arguments.map { $0 == "TRACE" ? path : $0 })
        #expect(code == .usageOrInput)
        #expect(captured.standardError.contains("error"))
        #expect(captured.standardOutput.isEmpty)
    }
}
