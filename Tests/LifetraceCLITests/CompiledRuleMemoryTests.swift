import Audit
import Foundation
import Testing

/// A rule compiled from the rule language keeps a slice per controller (and per variable value) while the
/// controller lives; when it is gone, the slice is kept only if it can still give a finding at the end. So an
/// audit with compiled rules, like one with the built-ins, stays the size of the live state however long the trace.
@Suite("compiled rules: memory bounded by live controllers")
struct CompiledRuleMemoryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("the built-ins written in the rule language audit 500,000 events in the peak memory of 50,000")
    func boundedByLiveControllers() throws {
        let scratch = try CLIScratch("compiled-rule-memory")
        // Only the compiled rules run: every built-in is disabled.
        let config = try JSONSerialization.data(withJSONObject: ["disabled_rules": BuiltinRules.all.map(\.id)])
        try config.write(to: URL(fileURLWithPath: scratch.path("none.json")))
        let rules = Self.root.appendingPathComponent("examples/rules/builtins").path
        var peaks: [Int: Double] = [:]
        for events in [50_000, 500_000] {
            let trace = "s\(events).lifetrace"
            let simulated = runCLI(["simulate", "--generate", "\(events)", "--seed", "3", "-o", scratch.path(trace)])
            #expect(simulated.code == .success, "\(simulated.err)")
            let run = try ChildRun.lifetrace(["audit", trace, "--config", "none.json", "--rules", rules], in: scratch.url.path)
            #expect(run.exitStatus == 0, "\(run.output.suffix(400))")
            #expect(run.standardOutput.contains("with 5 rules"), "\(run.standardOutput.suffix(300))")
            peaks[events] = run.peakMiB
        }
        // A rule that kept every gone controller's slices would grow by about 8 MiB from the first trace to the second.
        let growth = (peaks[500_000] ?? 0) - (peaks[50_000] ?? 0)
        #expect(growth < 3, "peak RSS \(peaks[50_000] ?? 0) MiB at 50,000 events, \(peaks[500_000] ?? 0) MiB at 500,000")
    }
}
