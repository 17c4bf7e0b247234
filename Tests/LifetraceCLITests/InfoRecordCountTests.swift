import Foundation
import Testing

@testable import LifetraceCLI

/// `info` on a `.lifetrace` file now counts from the decoder's records (controllers as table slots, one
/// `ControllerRef` per slot and frame) instead of building an `Event` and an array of its controllers for every
/// event: 5 037 → 651 instructions per event (callgrind, 10^5 events), faster than `verify`. The counts must stay
/// what the `Event` path gives, which a JSON Lines input (read as `Event`s) still uses: this compares the two.
@Suite("info counts from records as from events")
struct InfoRecordCountTests {
    /// The members of `info --format json` that count events.
    static func counts(_ path: String) throws -> [String: String] {
        let result = runCLI(["info", path, "--format", "json"])
        try #require(result.code == .success, "\(result.err)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        var counts: [String: String] = [:]
        for key in ["events", "events_by_kind", "controllers", "first_t_ns", "last_t_ns"] {
            let value = try #require(object[key])
            // Sorted keys: a dictionary's description has no fixed order.
            let data = try JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys, .fragmentsAllowed])
            counts[key] = String(decoding: data, as: UTF8.self)
        }
        return counts
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("a generated session (every kind of record), a scenario, imported console logs (events with sources)", arguments: [
        "generate", "traces/scenario-sample", "traces/cases/01-cancelled-pop-save.lifetrace", "traces/cases/09-background-draft-lost.lifetrace",
    ])
    func sameCounts(source: String) throws {
        let scratch = try CLIScratch("info-records")
        let trace: String
        switch source {
        case "generate":
            trace = scratch.path("generated.lifetrace")
            try #require(runCLI(["simulate", "--generate", "30000", "--seed", "7", "-o", trace]).code == .success)
        case "traces/scenario-sample":
            trace = scratch.path("swipe.lifetrace")
            let scenario = Self.root.appendingPathComponent("traces/scenarios/cancelled-swipe-back-save.scenario").path
            try #require(runCLI(["simulate", scenario, "-o", trace]).code == .success)
        default:
            trace = Self.root.appendingPathComponent(source).path
        }
        let jsonl = scratch.path("export.jsonl")
        try #require(runCLI(["export", trace, "-o", jsonl]).code == .success)
        let fromRecords = try Self.counts(trace)
        #expect(fromRecords == (try Self.counts(jsonl)))
        #expect(fromRecords["controllers"] != "[0]")
    }

    @Test("a trace with two recording runs counts the controllers of both")
    func twoRuns() throws {
        let scratch = try CLIScratch("info-runs")
        let first = scratch.path("first.lifetrace")
        let scenario = Self.root.appendingPathComponent("traces/scenarios/cancelled-swipe-back-save.scenario").path
        try #require(runCLI(["simulate", scenario, "-o", first]).code == .success)
        let export = scratch.path("first.jsonl")
        try #require(runCLI(["export", first, "-o", export]).code == .success)
        // The same run twice in one JSON Lines file, the second 100 s later: two runs, serials reused.
        let lines = try String(contentsOfFile: export, encoding: .utf8).split(separator: "\n")
        var doubled = lines.map(String.init)
        for line in lines.dropFirst() {
            guard let range = line.range(of: #""t_ns":"#) else { continue }
            let digits = line[range.upperBound...].prefix { $0.isNumber }
            let shifted = (UInt64(digits) ?? 0) + 100_000_000_000
            doubled.append(line.replacingCharacters(in: range.upperBound..<digits.endIndex, with: String(shifted)))
        }
        let twice = scratch.path("twice.jsonl")
        try (doubled.joined(separator: "\n") + "\n").write(toFile: twice, atomically: true, encoding: .utf8)
        let trace = scratch.path("twice.lifetrace")
        try #require(runCLI(["import", twice, "-o", trace]).code == .success)
        let fromRecords = try Self.counts(trace)
        #expect(fromRecords == (try Self.counts(twice)))
        #expect(fromRecords["events"] == "[214]")
    }
}
