import Foundation
import LifetraceTestSupport
import TraceModel
import Testing

@testable import Replay
@testable import TraceLog

/// A trace whose frames are out of sequence (spliced from another trace, or a header rewritten with a fresh
/// CRC) is reported and still read in file order. Seeking from a checkpoint finds the frames after it by their
/// ordinals, which such a file cannot be trusted for: found by hand, `lifetrace state T --at 6000s` on a
/// 140 000-event trace whose 10th frame claimed to start at event 1000 instead of 65 536 answered from the
/// checkpoint and silently dropped that frame's 8 192 events, unlike the fold from the start (and the trace's
/// own JSON Lines export).
@Suite("Seeking in a trace with frames out of sequence")
struct SplicedSeekTests {
    /// `bytes` with the first-ordinal field of the frame at `offset` set to `ordinal` and its header CRC redone.
    static func relabel(_ bytes: [UInt8], frameAt offset: Int, ordinal: UInt64) -> [UInt8] {
        var bytes = bytes
        for index in 0..<8 { bytes[offset + 16 + index] = UInt8(truncatingIfNeeded: ordinal >> (8 * UInt64(index))) }
        let crc = CRC32.checksum(bytes[offset..<(offset + 60)])
        for index in 0..<4 { bytes[offset + 60 + index] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(index))) }
        return bytes
    }

    /// The fold from the start in file order, with the ordinals the frames claim, of the events up to `instant`.
    static func foldFromStart(_ reader: TraceReader, until instant: UInt64) -> ReplayState {
        var state = ReplayState()
        var iterator = reader.events()
        while let (ordinal, event) = iterator.next() {
            if event.timestamp > instant { break }
            state.apply(event, ordinal: ordinal)
        }
        return state
    }

    @Test("seek(to:) equals the fold from the start when a frame after a checkpoint claims other ordinals", arguments: [0, 37, 1_000_000] as [UInt64])
    func relabelledFrame(claimed: UInt64) throws {
        let scratch = ScratchDirectory()
        let path = scratch.file("spliced.lifetrace")
        let events = RandomEvents.make(count: 3_000, seed: 21)
        _ = try TestTraces.write(events, to: path, eventsPerFrame: 100, policy: .init(eventInterval: 500, timeInterval: 0))
        let clean = try TraceReader(path: path)
        // The events frame right after the second checkpoint (ordinal 1000).
        let frame = try #require(clean.frames.first { $0.firstOrdinal == 1_000 })
        try TestTraces.put(Self.relabel(try TestTraces.bytes(path), frameAt: Int(frame.offset), ordinal: claimed), path)

        let replayer = try Replayer(path: path)
        #expect(replayer.reader.problems.contains { $0.code == .sequenceGap }, "the splice is reported")
        let frameIndex = try #require(replayer.reader.frames.firstIndex { $0.offset == frame.offset })
        let inside = events[1_050].timestamp
        let later = events[1_420].timestamp
        let end = events[2_999].timestamp
        for instant in [inside, later, replayer.reader.frames[frameIndex + 1].firstTimestamp, end] {
            let reference = Self.foldFromStart(replayer.reader, until: instant)
            let seek = try replayer.seek(to: instant)
            #expect(seek.state.eventCount == reference.eventCount, "at \(instant): \(seek.state.eventCount) events vs \(reference.eventCount)")
            #expect(Bool(seek.state == reference), "at \(instant)")
        }
    }
}
