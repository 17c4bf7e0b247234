import Foundation
import LifetraceTestSupport
import Testing
import TraceModel

@testable import TraceLog

/// The times stream's two layouts (docs/FORMAT.md §5), and files of format 1.0 (byte planes) read and appended
/// to by this build.
@Suite("Times stream")
struct TimeDeltaCodecTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/format-1.0").path

    /// Delta sets that reach every corner: zeros, one event, a shared divisor, nanosecond noise, 64-bit extremes.
    static func deltaSets() -> [[UInt64]] {
        var generator = SeededGenerator(seed: 31)
        var sets: [[UInt64]] = [[], [0], [0, 0, 0], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 255, 256]]
        sets.append((0..<500).map { _ in (generator.next() % 40) * 1_000 })
        sets.append((0..<500).map { _ in 100_000 + generator.next() % 50_000 })
        sets.append((0..<500).map { _ in generator.next() >> (generator.next() % 64) })
        sets.append([0, UInt64.max, 1, UInt64.max - 1, 1 << 63, (1 << 63) - 1, 3])
        sets.append([1 << 40, 3 << 40, 1 << 62])
        return sets
    }

    static func decode(_ bytes: [UInt8], count: Int) throws -> [UInt64] {
        try TimeDeltaCodec.decode(ByteReader(bytes), count: count, firstOrdinal: 0)
    }

    @Test("split streams read back exactly for every S from 1 to 64, planes too")
    func roundTrips() throws {
        for deltas in Self.deltaSets() {
            for significant in [1, 2, 3, 4, 7, 8, 13, 32, 63, 64] {
                let encoded = TimeDeltaCodec.encode(deltas, layout: .split, significant: significant)
                #expect(encoded.bytes.bytes.first == TimeDeltaCodec.splitMarker + UInt8(significant))
                #expect(try Self.decode(encoded.bytes.bytes, count: deltas.count) == deltas, "S = \(significant)")
            }
            let planes = TimeDeltaCodec.encode(deltas, layout: .planes)
            #expect(planes.storedBitsOffset == nil)
            #expect(planes.bytes.bytes.first! <= 8)
            #expect(try Self.decode(planes.bytes.bytes, count: deltas.count) == deltas)
        }
    }

    /// docs/FORMAT.md §5's split layout read the plain way (one bit at a time): the deltas, or the ordinal a
    /// failure is reported at (`firstOrdinal` 0: the event's index for a bad token or stored bits, 0 otherwise).
    static func reference(_ bytes: [UInt8], count: Int) -> (deltas: [UInt64]?, failedAt: UInt64?) {
        var position = 0
        func varint(_ end: Int) -> UInt64? {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while position < end, shift < 64 {
                let byte = bytes[position]
                position += 1
                if shift == 63, byte > 1 { return nil }
                value |= UInt64(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
            return nil
        }
        guard let first = bytes.first, first > 0x80, first <= 0x80 + 64 else { return (nil, nil) }
        let significant = Int(first - 0x80)
        position = 1
        guard let divisor = varint(bytes.count), divisor >= 1, let tokenLength = varint(bytes.count),
              tokenLength <= UInt64(bytes.count - position)
        else { return (nil, 0) }
        let tokenEnd = position + Int(tokenLength)
        var bit = tokenEnd * 8
        var deltas: [UInt64] = []
        for index in 0..<count {
            guard let token = varint(tokenEnd) else { return (nil, UInt64(index)) }
            var q = token
            if significant < 64, token >= 1 << UInt64(significant) {
                let stored = Int(token >> UInt64(significant - 1)) - 1
                guard stored + significant <= 64 else { return (nil, UInt64(index)) }
                q = (1 << UInt64(significant - 1) + token % (1 << UInt64(significant - 1))) << UInt64(stored)
                for offset in 0..<stored {
                    guard bit < bytes.count * 8 else { return (nil, UInt64(index)) }
                    q |= UInt64((bytes[bit / 8] >> UInt8(bit % 8)) & 1) << UInt64(offset)
                    bit += 1
                }
            }
            let (scaled, overflow) = q.multipliedReportingOverflow(by: divisor)
            guard !overflow else { return (nil, UInt64(index)) }
            deltas.append(scaled)
        }
        // Every token used, the stored bits end in the last byte, whose padding bits are zero.
        guard position == tokenEnd, (bit + 7) / 8 == bytes.count,
              bit % 8 == 0 || bytes[bit / 8] >> UInt8(bit % 8) == 0
        else { return (nil, 0) }
        return (deltas, nil)
    }

    @Test("damaged split streams: the same deltas or the same failing event as a plain reading of the format")
    func damagedAgainstReference() {
        var generator = SeededGenerator(seed: 77)
        var failures = 0
        for round in 0..<3_000 {
            let significant = [1, 2, 3, 3, 3, 4, 7, 8][round % 8]
            let count = 1 + Int(generator.next() % 40)
            let deltas = (0..<count).map { _ -> UInt64 in
                switch generator.next() % 4 {
                case 0: (generator.next() % 8) * 100_000
                case 1: 100_000 + generator.next() % 50_000
                case 2: generator.next() >> (generator.next() % 64)
                default: generator.next() % 300
                }
            }
            var bytes = TimeDeltaCodec.encode(deltas, layout: .split, significant: significant).bytes.bytes
            if round % 5 != 0 {
                let position = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[position] ^= UInt8(1) << UInt8(generator.next() % 8)
                case 1: bytes[position] = UInt8(truncatingIfNeeded: generator.next())
                default: bytes.removeLast(1 + Int(generator.next() % UInt64(bytes.count)))
                }
            }
            let expected = Self.reference(bytes, count: count)
            do {
                let actual = try Self.decode(bytes, count: count)
                #expect(expected.deltas == actual, "round \(round)")
            } catch {
                failures += 1
                #expect(expected.deltas == nil, "round \(round): \(error)")
                if let failedAt = expected.failedAt {
                    #expect((error as? TraceError)?.eventOrdinal == failedAt, "round \(round): \(error)")
                }
            }
        }
        #expect(failures > 500)
    }

    @Test("a split stream's layout: marker, divisor, token length, tokens, stored bits packed from bit 0")
    func splitLayout() {
        // Divisor 1 000; quotients 1, 5 (< 8: tokens 1 and 5, no stored bits) and 45 = 0b101101 (6 bits:
        // 3 stored bits 0b101, token (3 + 1) · 4 + 0b01 = 17).
        let encoded = TimeDeltaCodec.encode([1_000, 5_000, 45_000], layout: .split)
        #expect(encoded.bytes.bytes == [0x83, 0xE8, 0x07, 3, 1, 5, 17, 0b101])
        #expect(encoded.storedBitsOffset == 7)
    }

    @Test("noise costs its bits and no more: 16-bit jitter on 100 µs gaps stores about 14 bits per delta")
    func noiseIsStoredApart() {
        var generator = SeededGenerator(seed: 5)
        let deltas = (0..<4096).map { _ in 100_000 + generator.next() % 50_000 }
        let encoded = TimeDeltaCodec.encode(deltas, layout: .split)
        let stored = encoded.bytes.count - encoded.storedBitsOffset!
        // 100 000…149 999 have 17 or 18 bits: 14 or 15 stored below the three significant ones.
        #expect(stored >= 4096 * 14 / 8 && stored <= 4096 * 15 / 8 + 1)
    }

    @Test("malformed split streams throw corruptFrame, never trap")
    func malformed() {
        let valid = TimeDeltaCodec.encode([1_000, 5_000, 45_000], layout: .split).bytes.bytes
        let cases: [([UInt8], Int)] = [
            ([], 1),
            (valid, 4),  // one token short
            (valid, 2),  // a token left over
            (Array(valid.dropLast()), 3),  // stored bits cut
            (valid + [0], 3),  // a byte after the stored bits
            (Array(valid.dropLast()) + [0b1101], 3),  // padding bit set
            ([0x83, 0, 0], 0),  // divisor 0
            ([0x83, 1, 9, 1], 1),  // token length past the end
            ([0x81, 1, 10, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], 1),  // token of 2^64 − 1
            ([0x83, 1, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], 1),  // token 255: 63 stored bits + 3 > 64
            ([0x83, 3, 1, 0xF8, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], 1),  // fits 64 bits, × 3 does not
            ([0xC1, 1, 0], 0),  // S = 65
            ([9, 1], 0),  // 9 planes
        ]
        for (bytes, count) in cases {
            let error = #expect(throws: TraceError.self, "\(bytes) count \(count)") { try Self.decode(bytes, count: count) }
            #expect(error?.code == .corruptFrame)
        }
        var generator = SeededGenerator(seed: 12)
        let long = TimeDeltaCodec.encode((0..<300).map { _ in generator.next() >> (generator.next() % 64) }, layout: .split)
        for _ in 0..<2000 {
            var mutated = long.bytes.bytes
            mutated[Int(generator.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: generator.next())
            _ = try? Self.decode(mutated, count: 300)
        }
    }

    @Test("the writer deflates every stream in blocks of its own; any inflater reads the one stream")
    func blocksInflate() throws {
        var encoder = EventEncoder()
        let events = RandomEvents.make(count: 400, seed: 77)
        for event in events { encoder.append(event) }
        let payload = encoder.payload()
        #expect(payload.blocks.map(\.method) == [.filtered, .stored, .standard, .standard, .standard])
        let deflater = try Deflater(level: 6)
        for blocks in [payload.blocks, [], [Deflater.Block(start: 0, method: .stored)]] {
            var compressed: [UInt8] = []
            try deflater.compress(payload.bytes, blocks: blocks, appendingTo: &compressed)
            #expect(try Inflater().decompress(compressed[...], expectedLength: payload.bytes.count) == payload.bytes)
        }
    }

    @Test("format 1.0 traces (byte-plane times) read, verify, and rewrite as 2.0 with the same events")
    func legacyFilesRead() throws {
        let directory = TemporaryDirectory()
        for (name, count) in [("generated-session-seed1", 5_021), ("01-cancelled-pop-save", 19)] {
            let reader = try TraceReader(path: "\(Self.fixtures)/\(name).lifetrace")
            #expect(reader.header.formatMajor == 1)
            #expect(try reader.verify().problems.isEmpty)
            let events = TraceFiles.readAll(reader).events
            #expect(events.count == count, "\(name)")
            let path = directory.file("\(name).lifetrace")
            try TraceFiles.write(events, to: path)
            let rewritten = try TraceReader(path: path)
            #expect(rewritten.header.formatMajor == 2)
            #expect(TraceFiles.readAll(rewritten).events == events)
        }
    }

    @Test("appending to a format 1.0 trace keeps it 1.0: the new frames use byte planes")
    func legacyAppend() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("legacy.lifetrace")
        try FileManager.default.copyItem(atPath: "\(Self.fixtures)/generated-session-seed1.lifetrace", toPath: path)
        let before = TraceFiles.readAll(try TraceReader(path: path)).events
        let last = before.last!.timestamp
        let added = (1...3).map { Event(timestamp: last + UInt64($0) * 1_234_567, .app(AppEvent(.didBecomeActive, .instant))) }
        let writer = try TraceWriter.openForAppend(path: path)
        for event in added { try writer.append(event) }
        try writer.close()
        let reader = try TraceReader(path: path)
        #expect(reader.header.formatMajor == 1)
        #expect(TraceFiles.readAll(reader).events == before + added)
        let frame = try #require(reader.frames.last)
        let inflated = try reader.rawPayload(of: frame)
        // The stream table (varint 5, five varint lengths), then the ops stream, then the times stream.
        var table = ByteReader(inflated)
        #expect(table.readVarint() == 5)
        let opsLength = Int(table.readVarint()!)
        for _ in 0..<4 { _ = table.readVarint() }
        #expect(inflated[table.position + opsLength] <= 8, "times stream should start with a plane count")
    }
}
