import Foundation
import Testing
import TraceModel
@testable import LifetraceCLI

/// `audit --jobs N` audits traces at the same time; the report, the messages on standard error and the exit code
/// must be the same bytes, in the same order, as auditing them one after another.
@Suite("audit --jobs: concurrent traces, same output")
struct AuditJobsTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let traces = repositoryRoot.appendingPathComponent("traces").path

    @Test("the committed traces/ directory: --jobs 1, 2 and 4 give identical reports and messages", arguments: ["text", "json", "junit"])
    func committedTraces(format: String) throws {
        // JUnit's `time` is the measured audit time: everything else must be the same bytes.
        func audit(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
            let result = runCLI(arguments)
            return (result.code, result.out.replacingOccurrences(of: #" time="[0-9.]+""#, with: "", options: .regularExpression), result.err)
        }
        let one = audit(["audit", Self.traces, "--format", format, "--jobs", "1"])
        #expect(one.out.count > 1000, "the directory holds dozens of traces")
        for jobs in ["2", "4"] {
            let many = audit(["audit", Self.traces, "--format", format, "--jobs", jobs])
            #expect(many.code == one.code)
            #expect(many.out == one.out)
            #expect(many.err == one.err)
        }
        // The default (one job per active processor) too.
        let defaulted = audit(["audit", Self.traces, "--format", format])
        #expect(defaulted.out == one.out)
        #expect(defaulted.err == one.err)
    }

    /// good, unreadable (not a trace), torn (a warning), good, the same good trace again, another unreadable one.
    func mixedTraces(_ scratch: CLIScratch) throws -> [String] {
        let good = scratch.path("a-good.lifetrace")
        try AuditCommandTests.writeTrace(AuditCommandTests.cancelledPopEvents, to: good)
        let unreadable = scratch.path("b-unreadable.lifetrace")
        try Data("this is not a trace\n".utf8).write(to: URL(fileURLWithPath: unreadable))
        let torn = scratch.path("c-torn.lifetrace")
        try AuditCommandTests.writeTrace(AuditCommandTests.warningOnlyEvents, to: torn)
        let handle = try #require(FileHandle(forWritingAtPath: torn))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0x4C, 0x54, 0x46, 0x52, 0x01]))  // the start of a frame, cut short
        try handle.close()
        let other = scratch.path("d-good.lifetrace")
        try AuditCommandTests.writeTrace(AuditCommandTests.warningOnlyEvents, to: other)
        let empty = scratch.path("e-empty.lifetrace")
        try Data().write(to: URL(fileURLWithPath: empty))
        return [good, unreadable, torn, other, good, empty]
    }

    @Test("an unreadable or damaged trace is still reported in its place, with --jobs 1 and --jobs 4", arguments: ["text", "json"])
    func errorsInPlace(format: String) throws {
        let scratch = try CLIScratch("audit-jobs")
        let paths = try mixedTraces(scratch)
        let one = runCLI(["audit"] + paths + ["--format", format, "--jobs", "1"])
        let four = runCLI(["audit"] + paths + ["--format", format, "--jobs", "4"])
        #expect(one.code == .usageOrInput, "an unreadable trace is exit 2")
        #expect(four.code == one.code)
        #expect(four.out == one.out)
        #expect(four.err == one.err)
        // The messages come in the order of the traces: the unreadable one's error, the torn one's warning, the
        // empty one's error.
        let lines = one.err.split(separator: "\n").map(String.init)
        let unreadable = try #require(lines.firstIndex { $0.contains("b-unreadable.lifetrace") && $0.contains("error") })
        let torn = try #require(lines.firstIndex { $0.contains("c-torn.lifetrace") && $0.contains("warning") })
        let empty = try #require(lines.firstIndex { $0.contains("e-empty.lifetrace") })
        #expect(unreadable < torn && torn < empty, "\(one.err)")
        if format == "json" {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(four.out.utf8)) as? [String: Any])
            let problems = try #require(object["input_problems"] as? [[String: Any]])
            #expect(problems.compactMap { $0["path"] as? String } == [paths[1], paths[2], paths[5]])
            let audited = try #require(object["traces"] as? [[String: Any]])
            #expect(audited.compactMap { $0["path"] as? String }.filter { $0 == paths[0] }.count == 2, "a trace named twice is audited twice")
        }
    }

    @Test("SARIF with a trace named twice: the same report as --jobs 1, and nothing written beside the trace")
    func sarifTraceNamedTwice() throws {
        let scratch = try CLIScratch("audit-jobs-sarif")
        let good = scratch.path("notes.lifetrace")
        try AuditCommandTests.writeTrace(AuditCommandTests.cancelledPopEvents, to: good)
        let other = scratch.path("other.lifetrace")
        try AuditCommandTests.writeTrace(AuditCommandTests.warningOnlyEvents, to: other)
        let one = runCLI(["audit", good, other, good, "--format", "sarif", "--jobs", "1"])
        let four = runCLI(["audit", good, other, good, "--format", "sarif", "--jobs", "4"])
        #expect(four.code == one.code)
        #expect(four.out == one.out)
        #expect(four.err == one.err)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == ["notes.lifetrace", "other.lifetrace"])
    }

    @Test("--jobs takes a whole number from 1 to 1024", arguments: ["0", "-1", "two", "1025"])
    func badJobs(text: String) throws {
        let scratch = try CLIScratch("audit-jobs-bad")
        let good = scratch.path("a.lifetrace")
        try AuditCommandTests.writeTrace(AuditCommandTests.warningOnlyEvents, to: good)
        let result = runCLI(["audit", good, "--jobs", text])
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains("--jobs must be a whole number from 1 to 1024; got '\(text)'"), "\(result.err)")
        #expect(result.out.isEmpty)
    }

    @Test("-j is --jobs; --help names the option")
    func shortFormAndHelp() throws {
        let scratch = try CLIScratch("audit-jobs-short")
        let good = scratch.path("a.lifetrace")
        try AuditCommandTests.writeTrace(AuditCommandTests.warningOnlyEvents, to: good)
        #expect(runCLI(["audit", good, good, "-j", "2"]).out == runCLI(["audit", good, good, "--jobs", "1"]).out)
        let help = runCLI(["audit", "--help"])
        #expect(help.out.contains("--jobs N"))
        #expect(help.out.contains("Audit up to N traces at a time"))
    }
}
