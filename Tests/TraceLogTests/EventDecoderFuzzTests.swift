import LifetraceTestSupport
import Testing
import TraceModel

@testable import TraceLog

/// The events decoder sits behind the payload CRC, but a writer bug or a crafted file can still hand it any
/// bytes: it must throw, never trap.
@Suite("Events payload decoder under arbitrary bytes")
struct EventDecoderFuzzTests {
    static func validPayload() -> (payload: [UInt8], events: [Event]) {
        var encoder = EventEncoder()
        let events = RandomEvents.make(count: 60, seed: 404)
        for event in events { encoder.append(event) }
        return (encoder.payload().bytes, events)
    }

    static func decode(_ payload: [UInt8], count: Int, first: UInt64, last: UInt64) -> Result<[Event], TraceError> {
        Result {
            try EventDecoder.decode(payload: payload, firstTimestamp: first, lastTimestamp: last, firstOrdinal: 0, expectedCount: count)
        }.mapError { $0 as! TraceError }
    }

    @Test("the valid payload decodes, and every mutation of it decodes or throws")
    func mutations() {
        let (payload, events) = Self.validPayload()
        let first = events.first!.timestamp
        let last = events.last!.timestamp
        #expect((try? Self.decode(payload, count: events.count, first: first, last: last).get()) == events)
        var generator = SeededGenerator(seed: 99)
        for round in 0..<3000 {
            var mutated = payload
            switch round % 4 {
            case 0:
                mutated[Int(generator.next() % UInt64(mutated.count))] ^= UInt8(1) << UInt8(generator.next() % 8)
            case 1:
                mutated[Int(generator.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: generator.next())
            case 2:
                mutated.removeLast(Int(generator.next() % UInt64(mutated.count)))
            default:
                let position = Int(generator.next() % UInt64(mutated.count))
                mutated.insert(contentsOf: [0xFF, 0xFF, 0xFF, 0x7F], at: position)
            }
            let count = round % 7 == 0 ? Int(generator.next() % 100) : events.count
            if case .failure(let error) = Self.decode(mutated, count: count, first: first, last: last) {
                #expect(error.code == .corruptFrame)
            }
        }
    }

    @Test("random bytes behind a well-formed stream table throw or decode, never trap")
    func randomStreams() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<3000 {
            let lengths = (0..<5).map { _ in Int(generator.next() % 24) }
            var payload: [UInt8] = [5] + lengths.map(UInt8.init)
            for _ in 0..<lengths.reduce(0, +) { payload.append(UInt8(truncatingIfNeeded: generator.next())) }
            let count = Int(generator.next() % 6)
            if case .failure(let error) = Self.decode(payload, count: count, first: generator.next() >> 1, last: .max) {
                #expect(error.code == .corruptFrame)
            }
        }
    }
}
