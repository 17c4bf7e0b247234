import LifetraceTestSupport
import Testing
import TraceModel

@testable import TraceLog

/// A cleanly closed trace (valid footer and index) with a damaged frame in the middle must read exactly like the
/// same file without a footer: the valid prefix ends before the damaged frame, whatever the index lists after it.
@Suite("Damage in the middle of a cleanly closed trace")
struct MidTraceDamageReaderTests {
    /// 60 events in frames of 10, a checkpoint after 40, cleanly closed.
    static func trace(in directory: TemporaryDirectory) throws -> (path: String, events: [Event], reader: TraceReader) {
        let path = directory.file("closed.lifetrace")
        let events = RandomEvents.make(count: 60, seed: 11)
        try TraceFiles.write(events, to: path, eventsPerFrame: 10, checkpointAfter: 40)
        let reader = try TraceReader(path: path)
        try #require(reader.isCleanlyClosed)
        try #require(reader.frames.count == 6)
        return (path, events, reader)
    }

    @Test("a payload byte flipped in events frame N of 6 ends the valid prefix there, although the index lists all 6",
          arguments: [0, 2, 5])
    func indexIsNotTrustedPastDamage(damaged: Int) throws {
        let directory = TemporaryDirectory()
        let trace = try Self.trace(in: directory)
        let frame = trace.reader.frames[damaged]
        var bytes = try TraceFiles.bytes(trace.path)
        bytes[Int(frame.offset) + FrameHeader.length + Int(frame.compressedLength) / 2] ^= 0x5A
        try TraceFiles.put(bytes, to: trace.path)

        let reader = try TraceReader(path: trace.path)
        #expect(!reader.isCleanlyClosed)
        #expect(reader.frames == Array(trace.reader.frames.prefix(damaged)))
        #expect(reader.eventCount == frame.firstOrdinal)
        #expect(reader.checkpoints.allSatisfy { $0.endOffset <= frame.offset })
        let damage = try #require(reader.damage)
        #expect(damage.code == .corruptFrame)
        #expect(damage.offset == frame.offset)
        #expect(damage.file == trace.path)
        let read = TraceFiles.readAll(reader)
        #expect(read.error == nil)
        #expect(read.events == Array(trace.events.prefix(Int(frame.firstOrdinal))))
        // Appending or repairing would hide or cut the frames, index and footer after the damage: refused, even
        // for the last events frame (a damaged frame before a valid footer is not a torn write).
        #expect(throws: TraceError.self) { try TraceWriter.openForAppend(path: trace.path) }
        #expect(throws: TraceError.self) { try TraceWriter.truncateTornTail(path: trace.path) }
        #expect(reader.hasFooter)
    }

    @Test("bytes after a valid footer are a torn tail that ends after the footer; cutting it leaves a clean file")
    func garbageAfterFooter() throws {
        let directory = TemporaryDirectory()
        let trace = try Self.trace(in: directory)
        let clean = try TraceFiles.bytes(trace.path)
        try TraceFiles.put(clean + Array("not a frame, just junk appended by someone".utf8), to: trace.path)

        let reader = try TraceReader(path: trace.path)
        #expect(reader.frames == trace.reader.frames)
        #expect(reader.eventCount == 60)
        #expect(reader.validEnd == UInt64(clean.count))
        #expect(reader.damage?.code == .tornTail)
        #expect(reader.damage?.offset == UInt64(clean.count))
        #expect(try reader.verify().tornTail?.offset == UInt64(clean.count))

        let cut = try #require(try TraceWriter.truncateTornTail(path: trace.path))
        #expect(cut.offset == UInt64(clean.count))
        #expect(try TraceFiles.bytes(trace.path) == clean)
        let repaired = try TraceReader(path: trace.path)
        #expect(repaired.isCleanlyClosed)
        #expect(repaired.problems.isEmpty)
    }
}
