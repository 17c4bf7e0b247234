import Foundation
import Testing
import TraceModel

@testable import TraceLog

/// Opening a trace checks every events frame's payload CRC; reading a frame again (`cursor(for:)`) checks it again
/// only when the file changed since. A frame damaged after opening is still refused.
@Suite("Payload CRC: once per frame, again when the file changed")
struct PayloadCheckOnceTests {
    @Test("a payload damaged in place after opening (the file's modification time moved) fails its CRC when read")
    func damagedAfterOpening() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("t.lifetrace")
        let events = TraceFiles.small(count: 600, seed: 5)
        try TraceFiles.write(events, to: path, eventsPerFrame: 100)
        let reader = try TraceReader(path: path)
        #expect(reader.isCleanlyClosed)
        #expect(reader.frames.count == 6)
        // Unchanged: every frame reads, twice.
        for _ in 0..<2 { #expect(TraceFiles.readAll(reader).events == events) }

        // One payload byte of frame 2 flipped in place (same inode, same size), with another modification time.
        let frame = reader.frames[2]
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        let at = frame.offset + UInt64(FrameHeader.length) + UInt64(frame.compressedLength / 2)
        try handle.seek(toOffset: at)
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: at)
        try handle.write(contentsOf: Data([byte ^ 0x10]))
        try handle.close()
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000)], ofItemAtPath: path)

        #expect(throws: TraceError.self) { _ = try reader.cursor(for: frame) }
        do {
            _ = try reader.cursor(for: frame)
        } catch let error as TraceError {
            #expect(error.code == .corruptFrame)
            #expect(error.message.contains("payload CRC mismatch"))
            #expect(error.offset == frame.offset)
        }
        // The frames before it still read.
        for earlier in reader.frames.prefix(2) {
            var cursor = try reader.cursor(for: earlier)
            var count = 0
            while try cursor.next() != nil { count += 1 }
            #expect(count == Int(earlier.eventCount))
        }
        // A reader opened now ends its valid prefix before the damaged frame.
        let reopened = try TraceReader(path: path)
        #expect(reopened.frames.count == 2)
        #expect(reopened.damage?.offset == frame.offset)
    }
}
