import Foundation
import Testing
import TraceLog

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
}
