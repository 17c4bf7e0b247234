import Audit
import Foundation
import Testing
import TraceModel

/// Every row of Tests/Fixtures/cases/README.md: imported with its flags (`lifetrace import`, in process), read
/// back, audited with the default configuration; the findings must be exactly the expected ones (so "no
/// findings" and "no appearance_balance finding" are checked too). Times are seconds from the first line,
/// rounded to the millisecond, as the README gives them.
@Suite("Real cases: import + audit")
final class RealCaseAuditTests {
    let directory: URL

    init() throws {
        directory = try RealCase.temporaryDirectory()
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    struct Audited {
        var run: RealCase
        var findings: [Finding]

        /// `rule severity controller seconds callback` per finding.
        var lines: [String] {
            findings.map {
                "\($0.ruleID) \($0.severity) \($0.controller ?? "-") \(run.seconds($0.timestamp)) \($0.callback ?? "-")"
            }
        }

        func relatedSeconds(_ finding: Finding) -> [String] {
            finding.related.map { run.seconds($0.timestamp) }
        }
    }

    func audit(_ name: String) throws -> Audited {
        let run = try RealCase(name, into: directory)
        return Audited(run: run, findings: try Auditor().audit(run.events))
    }

    @Test("01: save only in viewWillDisappear, cancelled pop, edit lost on background; no appearance_balance")
    func case01() throws {
        let audited = try audit("01-cancelled-pop-save")
        #expect(audited.lines == [
            "critical_save_placement error NoteEditorViewController#2 5.904 viewWillDisappear",
            "unsaved_edit_at_exit error NoteEditorViewController#2 10.214 sceneDidEnterBackground(_:)",
        ])
        let save = try #require(audited.findings.first)
        // The disappearance was cancelled at ~6.29 s: NoteEditorViewController's viewWillAppear at 6.290 s.
        #expect(audited.relatedSeconds(save) == ["5.904", "6.290"])
        #expect(save.verdict == .violation)
        let edit = try #require(audited.findings.last)
        #expect(audited.relatedSeconds(edit) == ["8.511"])
        // The finding points at the console line it was imported from.
        #expect(save.source?.line == 11)
        #expect(save.source?.text?.hasSuffix("NoteEditorViewController saveDraft") == true)
    }

    @Test("02: push then pop with dealloc: no findings")
    func case02() throws {
        #expect(try audit("02-push-pop-dealloc").lines == [])
    }

    @Test("03: sheet over a silent presenter: no findings (so no appearance_balance)")
    func case03() throws {
        #expect(try audit("03-sheet-presenter-silent").lines == [])
    }

    @Test("04: one appearance_balance on FirstViewController at its second viewDidDisappear")
    func case04() throws {
        let audited = try audit("04-double-did-disappear")
        #expect(audited.lines == ["appearance_balance warning FirstViewController#1 0.018 viewDidDisappear"])
        #expect(audited.findings.first?.source?.line == 19)
    }

    @Test("05: one appearance_balance on TrendingTabViewController: viewDidAppear twice")
    func case05() throws {
        let audited = try audit("05-double-did-appear-forwarding")
        #expect(audited.lines == ["appearance_balance warning TrendingTabViewController#2 0.006 viewDidAppear"])
        #expect(audited.findings.first?.source?.line == 7)
    }

    @Test("06: tab switch: no findings")
    func case06() throws {
        #expect(try audit("06-tab-switch").lines == [])
    }

    @Test("07: cancelled page scroll: no findings")
    func case07() throws {
        #expect(try audit("07-page-scroll-cancelled").lines == [])
    }

    @Test("08: leaked_controller for StoryViewController, removed at 9.381 s, alive at the end (30.001 s)")
    func case08() throws {
        let audited = try audit("08-popped-never-deinit")
        #expect(audited.lines == ["leaked_controller error StoryViewController#2 9.381 -"])
        let leak = try #require(audited.findings.first)
        #expect(leak.verdict == .violation)
        #expect(leak.message.contains("30.001 s"))
        #expect(leak.message.contains("grace 5.000 s"))
    }

    @Test("09: unsaved_edit_at_exit: edits at 4.516 s and 8.877 s, background at 12.910 s")
    func case09() throws {
        let audited = try audit("09-background-draft-lost")
        #expect(audited.lines == [
            "unsaved_edit_at_exit error ConversationViewController#1 12.910 applicationDidEnterBackground(_:)",
        ])
        #expect(audited.findings.first.map(audited.relatedSeconds) == ["4.516", "8.877"])
    }

    @Test("10: print statements without a class: no findings")
    func case10() throws {
        #expect(try audit("10-seed-print-style").lines == [])
    }

    @Test("11: one appearance_balance on page 0 at 5.467 s")
    func case11() throws {
        let audited = try audit("11-page-tags-duplicate-will")
        #expect(audited.lines == ["appearance_balance warning 0 5.467 viewWillDisappear"])
    }
}
