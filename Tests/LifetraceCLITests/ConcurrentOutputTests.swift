import Foundation
import Testing
import TraceLog
import TraceModel

@testable import LifetraceCLI

/// Runs writing the same `-o` at the same time each write their own temporary file and rename it into place: every
/// run succeeds and the file left is one complete trace. Before, they shared `TRACE.importing` /
/// `TRACE.simulating`: one removed the file another was writing, which then failed `cannot move the new trace into
/// place (errno 2)`, or "another writer has this trace open"; three imports at once could all fail and leave no
/// trace.
@Suite("the same -o written by several runs at once")
struct ConcurrentOutputTests {
    /// Runs `arguments` `count` times at once (threads of this process: the temporary name must differ within
    /// one process too), and returns each run's exit code and standard error.
    static func together(_ arguments: [String], count: Int) -> [(code: ExitCode, err: String)] {
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var all: [(code: ExitCode, err: String)] = []
        }
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: count) { _ in
            let result = runCLI(arguments)
            results.lock.withLock { results.all.append((result.code, result.err)) }
        }
        return results.all
    }

    /// The files of `directory` other than `kept`: temporary files left behind.
    static func leftovers(_ scratch: CLIScratch, keeping kept: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { !kept.contains($0) }
    }

    @Test("four imports of one JSON Lines file into the same -o: all succeed, the trace is whole, nothing left over")
    func imports() throws {
        let scratch = try CLIScratch("concurrent-import")
        let source = scratch.path("source.lifetrace")
        let jsonl = scratch.path("source.jsonl")
        let trace = scratch.path("same.lifetrace")
        try #require(runCLI(["simulate", "--generate", "30000", "--seed", "5", "-o", source]).code == .success)
        try #require(runCLI(["export", source, "-o", jsonl]).code == .success)
        let expected = try TraceReader(path: source).eventCount
        for result in Self.together(["import", jsonl, "-o", trace], count: 4) {
            #expect(result.code == .success, "\(result.err)")
        }
        let reader = try TraceReader(path: trace)
        #expect(reader.problems.isEmpty)
        #expect(reader.eventCount == expected)
        #expect(try Self.leftovers(scratch, keeping: ["source.lifetrace", "source.jsonl", "same.lifetrace"]) == [])
    }

    @Test("four simulate --generate into the same -o: all succeed, the trace is whole, nothing left over")
    func simulations() throws {
        let scratch = try CLIScratch("concurrent-simulate")
        let trace = scratch.path("same.lifetrace")
        for result in Self.together(["simulate", "--generate", "30000", "--seed", "7", "-o", trace], count: 4) {
            #expect(result.code == .success, "\(result.err)")
        }
        let reader = try TraceReader(path: trace)
        #expect(reader.problems.isEmpty)
        #expect(reader.eventCount >= 30_000)
        #expect(try Self.leftovers(scratch, keeping: ["same.lifetrace"]) == [])
    }

    /// A trace a writer still has open (a recorder recording into it) is not renamed over: the writer would go on
    /// writing into a file without a name, and lose every later event silently. Before, `import -o` and
    /// `simulate -o` replaced it and said nothing; a recorder then wrote 4 s of events into the void.
    @Test("import and simulate refuse to replace a trace a writer has open, exit 2; once it is closed they replace it",
          arguments: [["simulate", "--generate", "100", "-o"], ["import", "JSONL", "-o"]])
    func writerStillOpen(command: [String]) throws {
        let scratch = try CLIScratch("replace-open-trace")
        let jsonl = scratch.path("in.jsonl")
        let source = scratch.path("source.lifetrace")
        try #require(runCLI(["simulate", "--generate", "50", "--seed", "2", "-o", source]).code == .success)
        try #require(runCLI(["export", source, "-o", jsonl]).code == .success)
        let live = scratch.path("live.lifetrace")
        let header = TraceHeader(clockDomain: .synthetic, wallClockAnchor: WallClockAnchor(unixNanoseconds: 0, monotonicNanoseconds: 0), producer: "test")
        let writer = try TraceWriter(creating: live, header: header)
        let arguments = command.map { $0 == "JSONL" ? jsonl : $0 } + [live]

        let refused = runCLI(arguments)
        #expect(refused.code == .usageOrInput)
        #expect(refused.err.contains("another writer has this trace open"), "\(refused.err)")
        #expect(try Self.leftovers(scratch, keeping: ["in.jsonl", "source.lifetrace", "live.lifetrace"]) == [])
        try writer.append(Event(timestamp: 5, .recorder(.note("still recording"))))
        try writer.close()
        #expect(try TraceReader(path: live).eventCount == 1, "the writer's trace is the one at the path")

        #expect(runCLI(arguments).code == .success)
        #expect(try TraceReader(path: live).eventCount > 1)
    }
}
