import Foundation
import Testing
import TraceLog

@testable import LifetraceCLI

/// A JSON Lines export carries the trace's identity (trace id, producer, clock, anchor, synthetic flag) through
/// `import`, so export → import → export gives the same bytes (docs/JSONL.md, "Header").
@Suite("JSON Lines round trip keeps the trace's identity")
struct JSONLIdentityTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every `.lifetrace` file shipped in the repository: the sample traces, the imported cases, the fixtures.
    static let shippedTraces: [String] = {
        var paths: [String] = []
        for folder in ["traces", "Tests/Fixtures"] {
            let root = repositoryRoot.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: root.path) else { continue }
            while let relative = walker.nextObject() as? String {
                if relative.hasSuffix(".lifetrace") { paths.append(folder + "/" + relative) }
            }
        }
        return paths.sorted()
    }()

    final class Scratch {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-jsonl-id-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    }

    static func run(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        let (output, captured) = CommandOutput.capturing()
        let code = Lifetrace.run(arguments: arguments, output: output)
        return (code, captured.standardOutput, captured.standardError)
    }

    @Test("the repository ships traces to check")
    func tracesFound() {
        #expect(Self.shippedTraces.count >= 50, "\(Self.shippedTraces)")
    }

    @Test("export → import → export is byte-identical", arguments: shippedTraces)
    func roundTrip(_ relativePath: String) throws {
        let scratch = try Scratch()
        let trace = Self.repositoryRoot.appendingPathComponent(relativePath).path
        let first = Self.run(["export", trace, "-o", scratch.path("a.jsonl")])
        // A fixture damaged on purpose exports its readable prefix (exit 1); that prefix must round-trip too.
        #expect(first.code == .success || first.code == .problemFound, "\(first.err)")
        let imported = Self.run(["import", scratch.path("a.jsonl"), "-o", scratch.path("b.lifetrace")])
        try #require(imported.code == .success, "\(imported.err)")
        let second = Self.run(["export", scratch.path("b.lifetrace"), "-o", scratch.path("b.jsonl")])
        try #require(second.code == .success, "\(second.err)")
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.path("a.jsonl")))
        let after = try Data(contentsOf: URL(fileURLWithPath: scratch.path("b.jsonl")))
        #expect(before == after, "\(relativePath): the second export differs from the first")
        let original = try TraceReader(path: trace).header
        let copy = try TraceReader(path: scratch.path("b.lifetrace")).header
        #expect(copy.traceIDHex == original.traceIDHex)
        #expect(copy.producer == original.producer)
    }

    @Test("an edited export keeps its header's trace id; without a trace_id the id hashes the content")
    func editedExport() throws {
        let scratch = try Scratch()
        let trace = Self.repositoryRoot.appendingPathComponent("traces/cancelled-swipe-back-save.lifetrace").path
        #expect(Self.run(["export", trace, "-o", scratch.path("a.jsonl")]).code == .success)
        var lines = try String(contentsOfFile: scratch.path("a.jsonl"), encoding: .utf8).split(separator: "\n")
        lines.remove(at: 5)
        try (lines.joined(separator: "\n") + "\n").write(toFile: scratch.path("edited.jsonl"), atomically: true, encoding: .utf8)
        #expect(Self.run(["import", scratch.path("edited.jsonl"), "-o", scratch.path("edited.lifetrace")]).code == .success)
        let original = try TraceReader(path: trace).header
        let edited = try TraceReader(path: scratch.path("edited.lifetrace")).header
        #expect(edited.traceIDHex == original.traceIDHex)

        // The same file with its trace_id member removed: the id is derived from the bytes, the same each time.
        let header = String(lines[0])
        let withoutID = header.replacingOccurrences(
            of: #""trace_id":"\#(original.traceIDHex)","#, with: "")
        #expect(withoutID != header)
        lines[0] = Substring(withoutID)
        try (lines.joined(separator: "\n") + "\n").write(toFile: scratch.path("anonymous.jsonl"), atomically: true, encoding: .utf8)
        #expect(Self.run(["import", scratch.path("anonymous.jsonl"), "-o", scratch.path("x.lifetrace")]).code == .success)
        #expect(Self.run(["import", scratch.path("anonymous.jsonl"), "-o", scratch.path("y.lifetrace")]).code == .success)
        let x = try TraceReader(path: scratch.path("x.lifetrace")).header
        let y = try TraceReader(path: scratch.path("y.lifetrace")).header
        #expect(x.traceIDHex != original.traceIDHex)
        #expect(x.traceIDHex == y.traceIDHex)
        #expect(x.producer == original.producer, "the producer member is still given")
    }
}
