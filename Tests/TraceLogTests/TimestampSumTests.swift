import LifetraceTestSupport
import Testing

@testable import TraceLog

/// `TimeDeltaCodec.decodeTimestamps`: the deltas added up from a first timestamp while the tokens are read (eight
/// one-byte tokens at a time where they are whole), against the deltas added up one by one.
@Suite("Times stream: timestamps read as running sums")
struct TimestampSumTests {
    /// The sums of `deltas` from `first`, and the index of the first that overflows (`deltas.count`: none).
    static func reference(_ deltas: [UInt64], first: UInt64) -> (sums: [UInt64], valid: Int) {
        var sums: [UInt64] = []
        var time = first
        for (index, delta) in deltas.enumerated() {
            let (sum, overflow) = time.addingReportingOverflow(delta)
            if overflow { return (sums, index) }
            time = sum
            sums.append(sum)
        }
        return (sums, deltas.count)
    }

    static func decode(_ bytes: [UInt8], count: Int, first: UInt64) throws -> (sums: [UInt64], valid: Int) {
        var output = [UInt64](repeating: 0, count: count)
        let valid = try bytes.withUnsafeBufferPointer { buffer in
            try output.withUnsafeMutableBufferPointer { sums in
                try TimeDeltaCodec.decodeTimestamps(
                    buffer.baseAddress!, from: 0, to: buffer.count, count: count, firstOrdinal: 0, first: first, into: sums.baseAddress!)
            }
        }
        return (Array(output.prefix(valid)), valid)
    }

    @Test("long runs of whole tokens, split tokens between them, sums that overflow anywhere; both layouts")
    func sums() throws {
        var generator = SeededGenerator(seed: 91)
        var overflows = 0
        for round in 0..<600 {
            let count = Int(generator.next() % 120)
            let divisor: UInt64 = [1, 7, 100_000, 1 << 40, 1 << 57][round % 5]
            let deltas = (0..<count).map { _ -> UInt64 in
                switch generator.next() % 10 {
                case 0: divisor &* (8 + generator.next() % 5_000)
                case 1: divisor &* (generator.next() % 200)
                default: divisor &* (generator.next() % 8)
                }
            }
            let first: UInt64 = switch round % 4 {
            case 0: 0
            case 1: generator.next()
            case 2: UInt64.max - generator.next() % (divisor &* 64 &+ 1)
            default: UInt64.max - deltas.reduce(0, &+) / 2
            }
            let expected = Self.reference(deltas, first: first)
            if expected.valid < count { overflows += 1 }
            for significant in [3, 3, 1, 8, 64] {
                let split = TimeDeltaCodec.encode(deltas, layout: .split, significant: significant).bytes.bytes
                let actual = try Self.decode(split, count: count, first: first)
                #expect(actual.valid == expected.valid, "round \(round), S = \(significant)")
                #expect(actual.sums == expected.sums, "round \(round), S = \(significant)")
            }
            let planes = TimeDeltaCodec.encode(deltas, layout: .planes).bytes.bytes
            let actual = try Self.decode(planes, count: count, first: first)
            #expect(actual.valid == expected.valid, "round \(round), planes")
            #expect(actual.sums == expected.sums, "round \(round), planes")
        }
        #expect(overflows > 50)
    }
}
