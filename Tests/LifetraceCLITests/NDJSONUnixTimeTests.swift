import Foundation
import Testing
import TraceLog
@testable import LifetraceCLI

/// `unix_ns` of an NDJSON finding: the event's wall-clock time through the header's anchor (what a fleet job
/// takes "first seen" and "last seen" from), and `null` when the trace's times mean nothing.
@Suite("audit --format ndjson: a finding's unix_ns")
struct NDJSONUnixTimeTests {
    static let sample = "traces/cancelled-swipe-back-save.lifetrace"

    func findings(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").compactMap { line in
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return record["type"] as? String == "finding" ? record : nil
        }
    }

    @Test("t_ns mapped through the header's wall-clock anchor, for a trace and for its JSON Lines export")
    func mapped() throws {
        let scratch = try CLIScratch("ndjson-unix")
        let anchor = try TraceReader(path: Self.sample).header.wallClockAnchor
        let jsonl = scratch.path("swipe.jsonl")
        #expect(runCLI(["export", Self.sample, "-o", jsonl]).code == .success)
        for input in [Self.sample, jsonl] {
            let found = try findings(runCLI(["audit", input, "--format", "ndjson"]).out)
            #expect(found.count == 2, "\(input): the sample's two findings")
            for finding in found {
                let t = try #require((finding["t_ns"] as? NSNumber)?.uint64Value)
                #expect((finding["unix_ns"] as? NSNumber)?.int64Value == anchor.unixNanoseconds(at: t), "\(input)")
            }
        }
        // The sample's anchor maps 0 to 2026-01-01T00:00:00Z, so the first finding is 5.9 s after it.
        let first = try #require(try findings(runCLI(["audit", Self.sample, "--format", "ndjson"]).out).first)
        let unix = try #require((first["unix_ns"] as? NSNumber)?.int64Value)
        #expect(unix == Int64(1_767_225_605_900_400_000))
    }

    @Test("null for synthetic times, for a JSON Lines header without an anchor and for an undated import")
    func absent() throws {
        let scratch = try CLIScratch("ndjson-unix")
        let jsonl = scratch.path("swipe.jsonl")
        #expect(runCLI(["export", Self.sample, "-o", jsonl]).code == .success)
        let text = try String(contentsOfFile: jsonl, encoding: .utf8)
        let synthetic = scratch.path("synthetic.jsonl")
        try text.replacingOccurrences(of: "\"synthetic_times\":false", with: "\"synthetic_times\":true")
            .write(toFile: synthetic, atomically: false, encoding: .utf8)
        let unanchored = scratch.path("unanchored.jsonl")
        try text.replacingOccurrences(of: "\"wall_clock_anchor\":{\"unix_ns\":1767225600000000000,\"monotonic_ns\":0},", with: "")
            .write(toFile: unanchored, atomically: false, encoding: .utf8)
        for input in [synthetic, unanchored] {
            #expect(try String(contentsOfFile: input, encoding: .utf8) != text, "\(input) was changed")
            let found = try findings(runCLI(["audit", input, "--format", "ndjson"]).out)
            #expect(found.count == 2, "\(input)")
            #expect(found.allSatisfy { $0["unix_ns"] is NSNull }, "\(input)")
        }
        // An import of a log without dates: Unix time 0 at monotonic 0 is no anchor.
        let undated = "traces/cases/08-popped-never-deinit.lifetrace"
        #expect(try TraceReader(path: undated).header.wallClockAnchor == .none)
        let found = try findings(runCLI(["audit", undated, "--format", "ndjson"]).out)
        #expect(!found.isEmpty && found.allSatisfy { $0["unix_ns"] is NSNull })
    }
}
