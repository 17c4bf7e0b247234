import Foundation
import Testing
@testable import LifetraceCLI

/// The seeds' mistakes as simulator scenarios (traces/scenarios), simulated in process and audited: each
/// mistake gives exactly its rule's findings, and the legal orders give none.
@Suite("audit of the simulator scenarios")
struct AuditScenarioTests {
    static let expectations: [(scenario: String, findings: [String])] = [
        ("cancelled-swipe-back-save", ["critical_save_placement:error", "unsaved_edit_at_exit:error"]),
        ("background-draft-lost", ["unsaved_edit_at_exit:error"]),
        ("geometry-in-will-appear", ["geometry_before_appearing:warning"]),
        ("orphan-child", ["orphan_child:error"]),
        ("retain-cycle", ["leaked_controller:error", "leaked_controller:note"]),
        // The view loaded in init also starts the settings request 9 s before the screen is pushed.
        ("view-touched-in-init", ["view_loaded_in_init:warning", "work_before_visible:warning"]),
        ("teardown-cancelled-pop", ["teardown_in_will_disappear:warning"]),
        ("teardown-cancelled-pop-fixed", []),
        ("work-before-visible", ["work_before_visible:warning"]),
        ("work-before-visible-fixed", []),
        ("hosting-children-accumulate", ["hosting_children_accumulate:warning"]),
        ("hosting-children-accumulate-fixed", []),
        // A timer started in viewDidLoad of a controller that deinitializes without ever appearing.
        ("created-never-shown", ["work_before_visible:warning"]),
        ("expensive-layout", ["expensive_layout:warning"]),
        ("timer-under-sheet", ["timer_under_sheet:warning"]),
        ("onappear-analytics", ["analytics_overcount:warning"]),
        ("observer-never-removed", ["observer_not_removed:warning"]),
        ("expensive-layout-fixed", []),
        ("timer-under-sheet-fixed", []),
        ("onappear-analytics-fixed", []),
        ("observer-never-removed-fixed", []),
        ("push", []),
        ("pop-back-button", []),
        ("swipe-back-cancelled", []),
        ("swipe-back-finished", []),
        ("tab-switch", []),
        ("page-scroll", []),
        ("child-containment", []),
        ("present-full-screen", []),
        ("present-sheet-styles", []),
        ("sheet-swipe-down", []),
        ("app-background", []),
        ("view-is-appearing", []),
        ("swiftui-hosting", []),
    ]

    @Test("each scenario gives exactly its findings", arguments: expectations.map(\.scenario))
    func scenario(_ name: String) throws {
        let expected = try #require(Self.expectations.first { $0.scenario == name }).findings
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let scenario = root.appendingPathComponent("traces/scenarios/\(name).scenario").path
        try #require(FileManager.default.fileExists(atPath: scenario), "missing \(scenario)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-scenario-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let trace = directory.appendingPathComponent("\(name).lifetrace").path

        let (simulateOutput, simulated) = CommandOutput.capturing()
        #expect(Lifetrace.run(arguments: ["simulate", scenario, "-o", trace], output: simulateOutput) == .success, "\(simulated.standardError)")

        let (auditOutput, audited) = CommandOutput.capturing()
        let code = Lifetrace.run(arguments: ["audit", trace, "--format", "json"], output: auditOutput)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(audited.standardOutput.utf8)) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]])
        let got = findings.map { "\($0["rule"] as? String ?? "?"):\($0["severity"] as? String ?? "?")" }
        #expect(got == expected, "\(findings.map { $0["message"] as? String ?? "" })")
        #expect(code == (expected.contains { $0.hasSuffix(":error") } ? .problemFound : .success))
    }
}
