import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@testable import LifetraceCLI

/// A SIGKILLed `import`/`simulate`/`export` cannot remove its temporary file. Before, every such file stayed
/// next to the output for good, and `export` named its file `.FILE.partial-PID`, the same for every file one
/// process wrote. Now every temporary is `DESTINATION.WHAT-PID-RANDOM` (unique per call), and the next run writing
/// the same destination removes the leftovers it can prove are its own and dead: its name, a PID that no longer
/// runs, no writer's lock.
@Suite("temporary files: unique per call, stale ones removed by the next run")
struct StaleTemporaryTests {
    /// No process has this PID: Linux's pid_max is at most 2^22, macOS's 99 999.
    static let deadPID: Int32 = 2_147_483_646

    static let scenario = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("traces/scenarios/cancelled-swipe-back-save.scenario").path

    static func names(in scratch: CLIScratch) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path))
    }

    static func touch(_ path: String) throws {
        try Data("left by a killed run".utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test("names: only this destination's and this command's temporaries, with a PID", arguments: [
        ("out.lifetrace.importing-4242-9f3a1c2e", "importing", Int32(4242)),
        ("out.lifetrace.importing-4242-9f3a1c2e", "simulating", nil),
        ("out.lifetrace.importing-4242", "importing", nil),
        ("out.lifetrace.importing-42x2-9f", "importing", nil),
        ("out.lifetrace.importing-4242-9g", "importing", nil),
        ("out.lifetrace.importing-4242-9f-1", "importing", nil),
        ("other.lifetrace.importing-4242-9f", "importing", nil),
        ("out.lifetrace.partial-77-abc", "partial", 77),
        (".out.lifetrace.partial-77", "partial", 77),
        (".out.lifetrace.partial-77", "importing", nil),
        ("out.lifetrace", "importing", nil),
        // Names no run writes (getpid() in decimal, a UInt32 in lowercase hex, neither with leading zeros): a file
        // so named is not provably a temporary, and was removed before (breaker6).
        ("out.lifetrace.importing-4242-9F3A", "importing", nil),
        ("out.lifetrace.importing-4242-\u{FF46}\u{FF46}", "importing", nil),
        ("out.lifetrace.importing-04242-9f", "importing", nil),
        ("out.lifetrace.importing-4242-09f", "importing", nil),
        ("out.lifetrace.importing-4242-0", "importing", 4242),
        (".out.lifetrace.partial-077", "partial", nil),
    ] as [(String, String, Int32?)])
    func names(name: String, what: String, pid: Int32?) {
        #expect(FilePaths.temporaryPID(name, base: "out.lifetrace", what) == pid)
    }

    @Test("import removes a killed import's file, says so, and keeps everything it cannot prove stale")
    func importCleansUp() throws {
        let scratch = try CLIScratch("stale-import")
        let trace = scratch.path("swipe.lifetrace")
        try #require(runCLI(["simulate", Self.scenario, "-o", trace]).code == .success)
        let jsonl = scratch.path("swipe.jsonl")
        try #require(runCLI(["export", trace, "-o", jsonl]).code == .success)
        let out = scratch.path("out.lifetrace")
        let stale = "out.lifetrace.importing-\(Self.deadPID)-9f3a1c2e"
        let live = "out.lifetrace.importing-\(getpid())-1b2c"          // a process that runs: this one
        let locked = "out.lifetrace.importing-\(Self.deadPID)-10c4ed"   // a writer holds its lock
        let other = "other.lifetrace.importing-\(Self.deadPID)-abc"     // another destination's
        for name in [stale, live, locked, other] { try Self.touch(scratch.path(name)) }
        let descriptor = open(scratch.path(locked), O_RDONLY)
        defer { close(descriptor) }
        try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)

        let result = runCLI(["import", jsonl, "-o", out])
        #expect(result.code == .success, "\(result.err)")
        #expect(result.err == "lifetrace import: note: removed \(scratch.path(stale)), a temporary file left by an earlier run (process \(Self.deadPID), which no longer runs)\n")
        #expect(try Self.names(in: scratch) == ["swipe.lifetrace", "swipe.jsonl", "out.lifetrace", live, locked, other])
    }

    @Test("simulate removes a killed simulate's file")
    func simulateCleansUp() throws {
        let scratch = try CLIScratch("stale-simulate")
        let stale = "out.lifetrace.simulating-\(Self.deadPID)-7"
        try Self.touch(scratch.path(stale))
        let result = runCLI(["simulate", Self.scenario, "-o", scratch.path("out.lifetrace")])
        #expect(result.code == .success)
        #expect(result.err.contains("lifetrace simulate: note: removed \(scratch.path(stale)), a temporary file left by an earlier run"))
        #expect(try Self.names(in: scratch) == ["out.lifetrace"])
    }

    @Test("export and audit -o remove a killed run's file, in the old name too")
    func exportCleansUp() throws {
        let scratch = try CLIScratch("stale-export")
        let trace = scratch.path("swipe.lifetrace")
        try #require(runCLI(["simulate", Self.scenario, "-o", trace]).code == .success)
        let old = ".out.jsonl.partial-\(Self.deadPID)"
        let new = "out.jsonl.partial-\(Self.deadPID)-ff"
        for name in [old, new] { try Self.touch(scratch.path(name)) }
        let export = runCLI(["export", trace, "-o", scratch.path("out.jsonl")])
        #expect(export.code == .success)
        #expect(export.err.contains("removed \(scratch.path(old))") && export.err.contains("removed \(scratch.path(new))"), "\(export.err)")
        try Self.touch(scratch.path("report.sarif.partial-\(Self.deadPID)-1"))
        let audit = runCLI(["audit", trace, "--format", "sarif", "-o", scratch.path("report.sarif")])
        #expect(audit.code == .problemFound)
        #expect(audit.err.contains("lifetrace audit: note: removed \(scratch.path("report.sarif.partial-\(Self.deadPID)-1"))"))
        #expect(try Self.names(in: scratch) == ["swipe.lifetrace", "out.jsonl", "report.sarif"])
    }

    @Test("two output files of one process for one destination get two temporary names")
    func uniquePerCall() throws {
        let scratch = try CLIScratch("unique-per-call")
        let path = scratch.path("out.jsonl")
        let first = try OutputFile(path: path)
        let second = try OutputFile(path: path)
        #expect(first.temporaryPath != second.temporaryPath)
        #expect(FilePaths.temporaryPID((first.temporaryPath as NSString).lastPathComponent, base: "out.jsonl", "partial") == getpid())
        // Each holds its writer's lock, so no other run's clean-up takes it for a leftover.
        let probe = open(first.temporaryPath, O_RDONLY)
        defer { close(probe) }
        #expect(flock(probe, LOCK_EX | LOCK_NB) != 0)
        try first.write(Array("{}\n".utf8))
        try first.commit()
        second.discard()
        #expect(try Self.names(in: scratch) == ["out.jsonl"])
    }
}
