import Foundation
import Testing

@testable import LifetraceCLI

/// `lifetrace events` that lists nothing exits 1, as grep does when no line matches, whichever option left nothing
/// (`--controller`, `--visible`, `--kind`, `--from`/`--to`); before, `--controller X` with no match was exit 0 with
/// a warning while `--visible X` was a usage error, exit 2. 2 stays for errors.
@Suite("events: nothing selected is exit 1, with the reason and the nearest name")
struct NothingSelectedTests {
    final class Inputs {
        let scratch: CLIScratch
        let trace: String
        let jsonl: String

        init() throws {
            scratch = try CLIScratch("nothing-selected")
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let scenario = root.appendingPathComponent("traces/scenarios/cancelled-swipe-back-save.scenario").path
            trace = scratch.path("swipe.lifetrace")
            jsonl = scratch.path("swipe.jsonl")
            try #require(runCLI(["simulate", scenario, "-o", trace]).code == .success)
            try #require(runCLI(["export", trace, "-o", jsonl]).code == .success)
        }
    }

    @Test("a misspelt --controller or --visible name: exit 1, nothing on standard output, the nearest controller named",
          arguments: [false, true])
    func misspelt(jsonl: Bool) throws {
        let inputs = try Inputs()
        let path = jsonl ? inputs.jsonl : inputs.trace
        let controller = runCLI(["events", path, "--controller", "NoteEditorViewControler"])
        #expect(controller.code == .problemFound)
        #expect(controller.out.isEmpty)
        #expect(controller.err == "lifetrace events: warning: no event matched --controller 'NoteEditorViewControler': no controller of the trace has that name (did you mean 'NoteEditorViewController'?); use a display name such as NotesListViewController#1, or a type name ('lifetrace state TRACE' lists them)\n", "\(controller.err)")

        let serial = runCLI(["events", path, "--controller", "NoteEditorViewController#9", "--kind", "callback"])
        #expect(serial.code == .problemFound)
        #expect(serial.err.contains("(did you mean 'NoteEditorViewController#3'?)"), "\(serial.err)")

        let visible = runCLI(["events", path, "--visible", "NoteEditorViewControler"])
        #expect(visible.code == .problemFound)
        #expect(visible.out.isEmpty)
        #expect(visible.err == "lifetrace events: warning: no controller named 'NoteEditorViewControler' in the trace (did you mean 'NoteEditorViewController'?); use a display name such as NotesListViewController#1, or a type name ('lifetrace state TRACE' lists them)\n")
        #expect(!visible.err.contains("usage:"))

        let far = runCLI(["events", path, "--visible", "Zzz"])
        #expect(far.code == .problemFound)
        #expect(!far.err.contains("did you mean"))
    }

    @Test("a right name that the other options leave nothing of, and --kind/--from alone: exit 1, naming the options as given")
    func narrowed() throws {
        let inputs = try Inputs()
        let late = runCLI(["events", inputs.trace, "--controller", "NoteEditorViewController", "--from", "3600s"])
        #expect(late.code == .problemFound)
        #expect(late.out.isEmpty)
        #expect(late.err == "lifetrace events: warning: no event matched --controller 'NoteEditorViewController' within --from 3600s\n")

        let kind = runCLI(["events", inputs.jsonl, "--kind", "deinit", "--kind", "didReceiveMemoryWarning"])
        #expect(kind.code == .problemFound)
        #expect(kind.err == "lifetrace events: warning: no event matched --kind deinit --kind didReceiveMemoryWarning\n", "\(kind.err)")

        let window = runCLI(["events", inputs.trace, "--from", "60s", "--to", "70s"])
        #expect(window.code == .problemFound)
        #expect(window.err == "lifetrace events: warning: no event matched --from 60s --to 70s\n")

        // --visible past the end of the trace: the controller exists (exit 0) but was not seen appeared there.
        let visibleLate = runCLI(["events", inputs.trace, "--visible", "NoteEditorViewController", "--from", "100s"])
        #expect(visibleLate.code == .success)
        #expect(visibleLate.out == "NoteEditorViewController#3 appeared: never\n", "\(visibleLate.out)")
    }

    @Test("something listed: exit 0 and nothing on standard error, for every option")
    func somethingListed() throws {
        let inputs = try Inputs()
        for arguments in [
            ["--controller", "NoteEditorViewController"], ["--controller", "NoteEditorViewController#3", "--kind", "callback"],
            ["--visible", "NoteEditorViewController"], ["--kind", "save"], ["--from", "5s", "--to", "7s"], [],
        ] {
            for path in [inputs.trace, inputs.jsonl] {
                let result = runCLI(["events", path] + arguments)
                #expect(result.code == .success, "\(arguments): \(result.err)")
                #expect(!result.out.isEmpty)
                #expect(result.err.isEmpty, "\(arguments): \(result.err)")
            }
        }
    }

    @Test("an unknown --kind is still a usage error (exit 2), with a suggestion")
    func unknownKind() throws {
        let inputs = try Inputs()
        let result = runCLI(["events", inputs.trace, "--kind", "sav"])
        #expect(result.code == .usageOrInput)
        #expect(result.err.hasPrefix("lifetrace events: error: unknown --kind 'sav' (did you mean 'save'?)"), "\(result.err)")
    }
}
