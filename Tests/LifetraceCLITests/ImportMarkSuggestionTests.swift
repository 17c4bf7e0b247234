import Foundation
import Testing

@testable import LifetraceCLI

/// `lifetrace import` suggests a `--mark` for skipped lines that look like the app's own saves, edits, timers and
/// requests, naming the lines, so an unmarked log does not audit clean by silence.
@Suite("import suggests --mark for the app's own work")
struct ImportMarkSuggestionTests {
    @Test("words of the mark vocabulary become rules; type names and plain words do not", arguments: [
        ("NoteEditorViewController saveDraft", "saveDraft=save,key=draft,critical=true"),
        ("NoteEditorViewController textDidChange", "textDidChange=edit,key=text"),
        ("ComposerViewController composerTextChanged", "composerTextChanged=edit,key=composertext"),
        ("PlayerViewController startRefreshTimer", "startRefreshTimer=timer.start,id=startrefresh"),
        ("FeedViewController fetchPosts", "fetchPosts=request.start,id=posts"),
        ("FeedViewController cancelRequest feed", "cancelRequest=request.cancel,id=cancelrequest"),
    ])
    func rules(_ line: String, _ rule: String) {
        #expect(MarkSuggestion.rule(for: line) == rule)
    }

    @Test("no suggestion for a type name alone or for a line without the vocabulary")
    func none() {
        #expect(MarkSuggestion.rule(for: "NoteEditorViewController layout pass") == nil)
        #expect(MarkSuggestion.rule(for: "SceneDelegate configured") == nil)
    }

    @Test("the shared case of a save in viewWillDisappear, imported without --mark, names the saveDraft and textDidChange lines")
    func cancelledPopCase() throws {
        let directory = try ImportCommandTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = ImportCommandTests.cases.appendingPathComponent("01-cancelled-pop-save.log").path
        let result = ImportCommandTests.run(["import", log, "-o", directory.appendingPathComponent("t.lifetrace").path])
        #expect(result.code == .success, "\(result.err)")
        let text = result.out + result.err
        #expect(text.contains("look like the app's own work"))
        #expect(text.contains("  --mark 'textDidChange=edit,key=text'   (lines 9, 17)"), "\(text)")
        #expect(text.contains("  --mark 'saveDraft=save,key=draft,critical=true'   (line 11)"), "\(text)")

        // Following the suggestion finds the mistake the case is about.
        let marked = directory.appendingPathComponent("m.lifetrace").path
        let again = ImportCommandTests.run([
            "import", log, "-o", marked,
            "--mark", "saveDraft=save,key=draft,critical=true", "--mark", "textDidChange=edit,key=text",
        ])
        #expect(again.code == .success, "\(again.err)")
        #expect(!(again.out + again.err).contains("look like the app's own work"))
        let audit = ImportCommandTests.run(["audit", marked])
        #expect(audit.code == .problemFound)
        #expect(audit.out.contains("(critical_save_placement)"))
    }
}
