import Foundation
import LifetraceTestSupport
import Testing
import TraceModel

@testable import TraceLog

/// `TraceWriter.rewriteHeader(of:with:)`: a header set after the events gives the bytes a writer created with
/// that header writes.
@Suite("Header rewrite")
struct HeaderRewriteTests {
    @Test("rewriting the header of a closed trace gives the file written with the new header")
    func sameBytes() throws {
        let directory = TemporaryDirectory()
        let events = RandomEvents.make(count: 3000, seed: 9)
        var final = TraceFiles.header
        final.clockDomain = .synthetic
        final.hasSyntheticTimes = true
        final.traceID = Array(1...16)
        final.wallClockAnchor = WallClockAnchor(unixNanoseconds: -5, monotonicNanoseconds: 0)
        let direct = directory.file("direct.lifetrace")
        let writer = try TraceWriter(creating: direct, header: final, options: TraceFiles.options(eventsPerFrame: 100))
        try writer.append(contentsOf: events)
        try writer.close()
        let rewritten = directory.file("rewritten.lifetrace")
        _ = try TraceFiles.write(events, to: rewritten, eventsPerFrame: 100)
        try TraceWriter.rewriteHeader(of: rewritten, with: final)
        #expect(try Data(contentsOf: URL(fileURLWithPath: rewritten)) == Data(contentsOf: URL(fileURLWithPath: direct)))
        let reader = try TraceReader(path: rewritten)
        #expect(reader.header.traceID == Array(1...16))
        #expect(reader.problems.isEmpty)
        #expect(try reader.verify().problems.isEmpty)
    }

    @Test("a header of another length, a bad trace id or a file that is no trace is refused, the file unchanged")
    func refusals() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("t.lifetrace")
        _ = try TraceFiles.write(RandomEvents.make(count: 10, seed: 1), to: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var longer = TraceFiles.header
        longer.producer += " and more"
        #expect(throws: TraceError.self) { try TraceWriter.rewriteHeader(of: path, with: longer) }
        var shortID = TraceFiles.header
        shortID.traceID = [1, 2, 3]
        #expect(throws: TraceError.self) { try TraceWriter.rewriteHeader(of: path, with: shortID) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let text = directory.file("log.txt")
        try Data("not a trace, just some text".utf8).write(to: URL(fileURLWithPath: text))
        #expect(throws: TraceError.self) { try TraceWriter.rewriteHeader(of: text, with: TraceFiles.header) }
        #expect(try String(contentsOfFile: text, encoding: .utf8) == "not a trace, just some text")
    }
}
