import Foundation
import Testing
import TraceLog
import TraceModel

@testable import LifetraceCLI

/// Nothing Lifetrace writes replaces an input or a file it did not create, and the promises of README.md,
/// docs/CLI.md, docs/RECORDING.md and docs/IMPORT.md about damaged, special and leftover files hold.
@Suite("hostile files: no input or foreign file replaced; the documented promises hold")
struct HostileFileTests {
    static let scenario = "title \"hostile\"\nat 0s launch\nat 0.1s root nav: UINavigationController(list: ListViewController)\n"
    static let deadPID: Int32 = 2_147_483_646

    static func bytes(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map(Array.init) }

    static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// A scenario that simulates, in a scratch directory.
    static func scratchWithScenario(_ name: String) throws -> CLIScratch {
        let scratch = try CLIScratch(name)
        try Self.scenario.write(toFile: scratch.path("s.scenario"), atomically: false, encoding: .utf8)
        let check = runCLI(["simulate", scratch.path("s.scenario"), "-o", scratch.path("check.lifetrace")])
        try #require(check.code == .success, "the sample scenario simulates: \(check.err)")
        return scratch
    }

    @Test("simulate s.scenario -o s.scenario, or -o a link to it: exit 2, the scenario unchanged")
    func simulateOntoItsScenario() throws {
        let scratch = try Self.scratchWithScenario("sim-self")
        let scenario = scratch.path("s.scenario")
        try FileManager.default.createSymbolicLink(atPath: scratch.path("link"), withDestinationPath: scenario)
        for output in [scenario, scratch.path("link")] {
            let result = runCLI(["simulate", scenario, "-o", output])
            #expect(result.code == .usageOrInput, "\(output): \(result.err)")
            #expect(result.err.contains("is the scenario"), "\(result.err)")
            #expect(Self.bytes(scenario) == Array(Self.scenario.utf8))
        }
        #expect(Self.isSymbolicLink(scratch.path("link")))
    }

    @Test("simulate -o a file that is not a trace (directly or through a link): exit 2, left as it was")
    func foreignDestination() throws {
        let scratch = try Self.scratchWithScenario("foreign")
        let notes = scratch.path("notes.txt")
        try "my notes\n".write(toFile: notes, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: scratch.path("link.lifetrace"), withDestinationPath: notes)
        try "1 ListViewController viewDidLoad\n".write(toFile: scratch.path("app.log"), atomically: false, encoding: .utf8)
        for output in [notes, scratch.path("link.lifetrace")] {
            let simulated = runCLI(["simulate", scratch.path("s.scenario"), "-o", output])
            #expect(simulated.code == .usageOrInput, "\(simulated.err)")
            #expect(simulated.err.contains("is not a Lifetrace trace; it is left as it was"), "\(simulated.err)")
            #expect(Self.bytes(notes) == Array("my notes\n".utf8))
        }
        #expect(Self.isSymbolicLink(scratch.path("link.lifetrace")))
        // A link to a trace: the trace it leads to is replaced, the link stays (docs/CLI.md).
        try FileManager.default.createSymbolicLink(atPath: scratch.path("trace-link"), withDestinationPath: scratch.path("check.lifetrace"))
        #expect(runCLI(["simulate", scratch.path("s.scenario"), "-o", scratch.path("trace-link")]).code == .success)
        #expect(Self.isSymbolicLink(scratch.path("trace-link")))
    }

    @Test("audit --format sarif|github writes no file beside the trace and leaves an existing TRACE.jsonl (a file or a link) as it was", arguments: ["sarif", "github"])
    func auditSideFile(_ format: String) throws {
        let scratch = try Self.scratchWithScenario("side-\(format)")
        let trace = scratch.path("check.lifetrace")
        let before = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted()
        let clean = runCLI(["audit", trace, "--format", format])
        #expect(clean.code != .usageOrInput, "\(clean.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == before)
        let mine = scratch.path("mine.txt")
        try "keep me\n".write(toFile: mine, atomically: false, encoding: .utf8)
        try "user file\n".write(toFile: trace + ".jsonl", atomically: false, encoding: .utf8)
        let first = runCLI(["audit", trace, "--format", format])
        #expect(first.code == clean.code, "\(first.err)")
        #expect(first.out == clean.out)
        #expect(Self.bytes(trace + ".jsonl") == Array("user file\n".utf8))
        try FileManager.default.removeItem(atPath: trace + ".jsonl")
        try FileManager.default.createSymbolicLink(atPath: trace + ".jsonl", withDestinationPath: mine)
        _ = runCLI(["audit", trace, "--format", format])
        #expect(Self.isSymbolicLink(trace + ".jsonl"))
        #expect(Self.bytes(mine) == Array("keep me\n".utf8))
    }

    @Test("import LOG -o missing/x.lifetrace names the missing directory, not a temporary file")
    func importIntoMissingDirectory() throws {
        let scratch = try CLIScratch("missing-dir")
        try "1 ListViewController viewDidLoad\n".write(toFile: scratch.path("app.log"), atomically: false, encoding: .utf8)
        let result = runCLI(["import", scratch.path("app.log"), "-o", scratch.path("missing/x.lifetrace")])
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains("directory \(scratch.path("missing")) does not exist"), "\(result.err)")
        #expect(!result.err.contains("importing-"), "\(result.err)")
    }

    @Test("verify --repair on a trace a writer holds: exit 2, whether or not its tail looks torn")
    func repairHeldTrace() throws {
        let scratch = try CLIScratch("repair-held")
        let path = scratch.path("held.lifetrace")
        let writer = try TraceWriter(creating: path, header: TraceHeader(clockDomain: .synthetic, wallClockAnchor: .none, producer: "held"))
        try writer.append(.mark(MarkEvent("tick"), at: 1))
        try writer.flush()
        let result = runCLI(["verify", "--repair", path])
        #expect(result.code == .usageOrInput, "\(result.out) \(result.err)")
        #expect(result.err.contains("another writer has this trace open"), "\(result.err)")
        try writer.close()
        #expect(runCLI(["verify", "--repair", path]).code == .success)
    }

    @Test("a cut inside the footer is reported as one")
    func cutFooter() throws {
        let scratch = try Self.scratchWithScenario("footer-cut")
        let trace = scratch.path("check.lifetrace")
        var bytes = try #require(Self.bytes(trace))
        bytes.removeLast(10)
        try Data(bytes).write(to: URL(fileURLWithPath: trace))
        let result = runCLI(["verify", trace])
        #expect(result.out.contains("file ends inside the footer (22 of 32 bytes present)"), "\(result.out)")
    }

    @Test("--at -0s is the trace's first instant, not a negative time")
    func negativeZero() throws {
        let scratch = try Self.scratchWithScenario("minus-zero")
        let result = runCLI(["state", scratch.path("check.lifetrace"), "--at", "-0s"])
        #expect(result.code == .success, "\(result.err)")
        #expect(runCLI(["state", scratch.path("check.lifetrace"), "--at", "-1s"]).err.contains("is negative"))
    }

    @Test("/proc/self/status is not a trace, not an empty file")
    func procFile() throws {
        let result = runCLI(["info", "/proc/self/status"])
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains("not a Lifetrace trace"), "\(result.err)")
        #expect(!result.err.contains("empty file"), "\(result.err)")
    }

    @Test("audit DIR through a symbolic link searches the directory it leads to")
    func directoryThroughLink() throws {
        let scratch = try Self.scratchWithScenario("dir-link")
        try FileManager.default.createDirectory(atPath: scratch.path("traces"), withIntermediateDirectories: false)
        try FileManager.default.moveItem(atPath: scratch.path("check.lifetrace"), toPath: scratch.path("traces/check.lifetrace"))
        try FileManager.default.createSymbolicLink(atPath: scratch.path("dl"), withDestinationPath: scratch.path("traces"))
        let result = runCLI(["audit", scratch.path("dl"), "--format", "json"])
        #expect(result.code != .usageOrInput, "\(result.err)")
        #expect(result.out.contains("dl/check.lifetrace"), "\(result.out.prefix(300))")
    }

    @Test("a file import into TRACE keeps a killed import -'s copy of standard input as TRACE.stdin.log, with a note")
    func killedSpoolRecoveredByFileImport() throws {
        let scratch = try CLIScratch("spool")
        let trace = scratch.path("app.lifetrace")
        let spool = "\(trace).spooling-\(Self.deadPID)-9f3a"
        try "1 A viewDidLoad\n".write(toFile: spool, atomically: false, encoding: .utf8)
        try "1 ListViewController viewDidLoad\n".write(toFile: scratch.path("app.log"), atomically: false, encoding: .utf8)
        let result = runCLI(["import", scratch.path("app.log"), "-o", trace])
        #expect(result.code == .success, "\(result.err)")
        #expect(result.err.contains("note: kept"), "\(result.err)")
        #expect(Self.bytes(trace + ".stdin.log") == Array("1 A viewDidLoad\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: spool))
    }
}
