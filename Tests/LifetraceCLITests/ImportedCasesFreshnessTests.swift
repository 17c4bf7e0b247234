import Foundation
import Testing
import ConsoleImport
@testable import LifetraceCLI

/// traces/cases/*.lifetrace are `tools/import-cases` output, checked in so `lifetrace audit` audits them on a
/// fresh clone. Importing is reproducible, so a stale file (importer or log changed, script not rerun) shows
/// up as different bytes here.
@Suite("traces/cases are up to date")
struct ImportedCasesFreshnessTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("each case re-imports to the checked-in bytes", arguments: [
        "01-cancelled-pop-save", "02-push-pop-dealloc", "03-sheet-presenter-silent", "04-double-did-disappear",
        "05-double-did-appear-forwarding", "06-tab-switch", "07-page-scroll-cancelled", "08-popped-never-deinit",
        "09-background-draft-lost", "10-seed-print-style", "11-page-tags-duplicate-will",
    ])
    func fresh(name: String) throws {
        let directory = try RealCase.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let fresh = directory.appendingPathComponent("\(name).lifetrace")
        // The log's path as tools/import-cases gives it (relative to the repository), since it is recorded in
        // each event's source.
        let relative = "Tests/Fixtures/cases/\(name).log"
        let flags = RealCase.flags[name] ?? []
        let rules = try stride(from: 1, to: flags.count, by: 2).map { try MarkRule(parsing: flags[$0]) }
        let request = ImportCommand.ImportRequest(
            input: Self.root.appendingPathComponent(relative).path, recordedPath: relative, format: "text", rules: rules,
            destination: fresh.path)
        _ = try ImportCommand.importFile(request)
        let checkedIn = try Data(contentsOf: Self.root.appendingPathComponent("traces/cases/\(name).lifetrace"))
        #expect(try Data(contentsOf: fresh) == checkedIn, "traces/cases/\(name).lifetrace is stale: run tools/import-cases")
    }
}
