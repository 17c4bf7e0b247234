import LifetraceTestSupport
import Testing
import TraceModel

@testable import TraceLog

/// Frame headers whose CRC holds but whose fields lie (rewritten with a fresh CRC, or written by a buggy
/// writer). Found by a fuzz of `lifetrace` over such headers: an event count of 2^32 − 1 made every command
/// abort allocating 34 GB, 2^31 used 13 GB for a minute, and a first ordinal of 2^64 − 1 trapped on overflow.
/// Every lie must end the valid prefix at that frame with an error naming its offset, or be read harmlessly.
@Suite("Frame headers with a valid CRC and impossible fields")
struct FrameHeaderLieTests {
    /// The file with `value` written over `size` bytes at `field` of the frame at `offset`, and its header CRC
    /// recomputed.
    static func lying(_ bytes: [UInt8], frame offset: Int, field: Int, size: Int, value: UInt64) -> [UInt8] {
        var bytes = bytes
        for index in 0..<size { bytes[offset + field + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
        let crc = CRC32.checksum(bytes[offset..<(offset + 60)])
        for index in 0..<4 { bytes[offset + 60 + index] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(index))) }
        return bytes
    }

    @Test("impossible counts and ordinals end the valid prefix at the lying frame, with its offset")
    func impossibleFields() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("small.lifetrace")
        let events = RandomEvents.make(count: 60, seed: 3)
        try TraceFiles.write(events, to: path, eventsPerFrame: 10, checkpointAfter: 30)
        let clean = try TraceReader(path: path)
        let bytes = try TraceFiles.bytes(path)
        let target = clean.frames[2]
        let offset = Int(target.offset)
        let lies: [(name: String, field: Int, size: Int, value: UInt64, message: String)] = [
            ("event count 2^32 − 1", 40, 4, UInt64(UInt32.max), "a frame may hold"),
            ("event count 2^31", 40, 4, 1 << 31, "a frame may hold"),
            ("event count above the raw length", 40, 4, UInt64(target.rawLength) + 1, "events in"),
            ("first ordinal 2^64 − 1", 16, 8, UInt64.max, "first event ordinal"),
            ("first ordinal 2^63", 16, 8, 1 << 63, "first event ordinal"),
            ("raw length 32 MiB from a few stored bytes", 44, 4, 1 << 25, "more than deflate can expand"),
            ("raw length 1 GiB, past the 64 MiB a frame may hold", 44, 4, 1 << 30, "exceeds the 64 MiB limit per frame"),
            ("event count 65,537, past the most a frame may hold", 40, 4, 65_537, "more than the 65536 a frame may hold"),
        ]
        let lyingPath = directory.file("lying.lifetrace")
        for lie in lies {
            try TraceFiles.put(Self.lying(bytes, frame: offset, field: lie.field, size: lie.size, value: lie.value), to: lyingPath)
            let reader = try TraceReader(path: lyingPath)
            let problem = reader.problems.first { $0.offset == target.offset }
            #expect(problem?.code == .corruptFrame, "\(lie.name): \(reader.problems)")
            #expect(problem?.message.contains(lie.message) == true, "\(lie.name): \(String(describing: problem))")
            let read = TraceFiles.readAll(reader)
            #expect(read.events == Array(events.prefix(20)), "\(lie.name): the two frames before it stay readable")
            let report = try reader.verify()
            #expect(report.problems.contains { $0.offset == target.offset }, "\(lie.name)")
        }
    }

    @Test("ordinals that are merely out of sequence are reported and still read, without trapping")
    func outOfSequenceOrdinals() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("small.lifetrace")
        let events = RandomEvents.make(count: 40, seed: 5)
        try TraceFiles.write(events, to: path, eventsPerFrame: 10)
        let clean = try TraceReader(path: path)
        let bytes = try TraceFiles.bytes(path)
        let lyingPath = directory.file("lying.lifetrace")
        // The largest ordinal a header may carry: the frame's last event is ordinal 2^63 − 2.
        let largest = UInt64(Int64.max) - UInt64(clean.frames[1].eventCount)
        try TraceFiles.put(Self.lying(bytes, frame: Int(clean.frames[1].offset), field: 16, size: 8, value: largest), to: lyingPath)
        let reader = try TraceReader(path: lyingPath)
        let read = TraceFiles.readAll(reader)
        #expect(read.events == events)
        #expect(read.ordinals[10] == largest)
        #expect(!(try reader.verify().problems.isEmpty))
    }
}
