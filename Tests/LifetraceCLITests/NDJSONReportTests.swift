import Foundation
import Testing
import TraceLog
@testable import LifetraceCLI

/// `lifetrace audit --format ndjson`: one self-describing record per line, valid against the schema kept in
/// docs/schemas (checked with `jsonschema`), every input problem a line of its own.
@Suite("audit --format ndjson")
struct NDJSONReportTests {
    static let schema = "docs/schemas/lifetrace.finding-1.schema.json"

    func records(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    @Test("good, unreadable, torn and empty traces: every line validates; findings, problems and trace ends in order")
    func mixed() throws {
        let scratch = try CLIScratch("ndjson")
        let paths = try AuditJobsTests().mixedTraces(scratch)
        let result = runCLI(["audit"] + paths + ["--format", "ndjson", "-o", "-", "--jobs", "1"])
        #expect(result.code == .usageOrInput, "an unreadable trace: exit 2")
        #expect(!FileManager.default.fileExists(atPath: "-"), "-o - is standard output, not a file named -")
        let file = scratch.path("report.ndjson")
        try result.out.write(toFile: file, atomically: false, encoding: .utf8)
        let validation = try ExternalValidator.validateJSON(file, schema: Self.schema, lines: true)
        #expect(validation.status == 0, "\(validation.output)")

        let records = try self.records(result.out)
        #expect(records.allSatisfy { $0["schema"] as? String == "lifetrace.finding/1" })
        let header = try TraceReader(path: paths[0]).header
        // The good trace: its two error-level findings, each carrying the trace's identity, then its end.
        let good = records.prefix(3)
        #expect(good.map { $0["type"] as? String } == ["finding", "finding", "trace"])
        for record in good {
            let trace = try #require(record["trace"] as? [String: Any])
            #expect(trace["path"] as? String == paths[0])
            #expect(trace["trace_id"] as? String == header.traceIDHex)
            #expect(trace["producer"] as? String == "audit-tests")
        }
        #expect(good.first?["rule"] as? String == "critical_save_placement")
        #expect(good.last?["complete"] as? Bool == true)
        // Each unreadable or torn input: a problem line of its own, then its end marked incomplete.
        for (path, severity) in [(paths[1], "error"), (paths[2], "warning"), (paths[5], "error")] {
            let own = records.filter { ($0["trace"] as? [String: Any])?["path"] as? String == path }
            let problem = try #require(own.first { $0["type"] as? String == "input_problem" }, "\(path)")
            #expect(problem["severity"] as? String == severity)
            #expect((problem["message"] as? String)?.contains(URL(fileURLWithPath: path).lastPathComponent) == true)
            let end = try #require(own.last)
            #expect(end["type"] as? String == "trace" && end["complete"] as? Bool == false)
        }
        let summary = try #require(records.last)
        #expect(summary["type"] as? String == "summary")
        #expect(summary["complete"] as? Bool == false && summary["failed"] as? Bool == true)
        #expect(records.filter { $0["type"] as? String == "trace" }.count == paths.count, "one trace line per input")
    }

    @Test("the same lines, in the same order, with --jobs 4, and in a file with -o FILE")
    func jobsAndFile() throws {
        let scratch = try CLIScratch("ndjson")
        let paths = try AuditJobsTests().mixedTraces(scratch)
        let one = runCLI(["audit"] + paths + ["--format", "ndjson", "--jobs", "1"])
        let four = runCLI(["audit"] + paths + ["--format", "ndjson", "--jobs", "4"])
        #expect(four.out == one.out)
        let file = scratch.path("out.ndjson")
        let written = runCLI(["audit"] + paths + ["--format", "ndjson", "-o", file])
        #expect(written.out.isEmpty)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == one.out)
    }

    @Test("the schema is a real check: a line without the trace's identity or with an unknown type is refused")
    func schemaRefuses() throws {
        let scratch = try CLIScratch("ndjson")
        let file = scratch.path("bad.ndjson")
        try """
            {"schema":"lifetrace.finding/1","type":"trace","events":1,"findings":0,"complete":true}
            {"schema":"lifetrace.finding/1","type":"verdict","trace":{"path":"a","trace_id":null,"producer":null}}
            """.write(toFile: file, atomically: false, encoding: .utf8)
        let validation = try ExternalValidator.validateJSON(file, schema: Self.schema, lines: true)
        #expect(validation.status == 1)
        #expect(validation.output.contains("bad.ndjson:1:") && validation.output.contains("bad.ndjson:2:"), "\(validation.output)")
    }

    @Test("a JSON Lines input without a trace_id in its header has none in the report")
    func jsonlIdentity() throws {
        let scratch = try CLIScratch("ndjson")
        let trace = scratch.path("t.lifetrace")
        try AuditCommandTests.writeTrace(AuditCommandTests.cancelledPopEvents, to: trace)
        let exported = runCLI(["export", trace])
        let lines = exported.out.split(separator: "\n").filter { !$0.contains("\"lifetrace\"") }
        let jsonl = scratch.path("t.jsonl")
        try lines.joined(separator: "\n").write(toFile: jsonl, atomically: false, encoding: .utf8)
        let result = runCLI(["audit", jsonl, "--format", "ndjson"])
        let first = try #require(try self.records(result.out).first)
        let identity = try #require(first["trace"] as? [String: Any])
        #expect(identity["trace_id"] is NSNull && identity["producer"] is NSNull)
        #expect(first["line"] as? Int != nil, "a JSON Lines input names the line of the event")
    }
}
