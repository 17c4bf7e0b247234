import LifetraceTestSupport
import Testing
import TraceModel

@testable import TraceLog

/// The columnar decoder (`EventDecoder.decode(into:limit:)`, `FrameCursor.decode(into:limit:)`) gives the same
/// events as decoding one event at a time, on valid payloads and on damaged ones: the same events before the
/// first bad one, then the same error.
@Suite("Record batches: the same events and errors as one event at a time")
struct RecordBatchTests {
    /// A payload of session-like callbacks (many controllers, so 2-byte references) mixed with random events.
    static func payload(seed: UInt64) -> (payload: [UInt8], events: [Event]) {
        var generator = SeededGenerator(seed: seed)
        var events: [Event] = []
        var time: UInt64 = 1_000
        let random = RandomEvents.make(count: 300, seed: seed)
        for index in 0..<1_500 {
            time += generator.next() % 5_000
            if index % 5 == 4 {
                var event = random[index / 5]
                event.timestamp = time
                events.append(event)
                continue
            }
            let serial = UInt32(generator.next() % 300) + 1
            let controller = ControllerRef(serial: serial, typeName: "Screen\(serial % 7)ViewController", label: serial % 3 == 0 ? "tab" : nil)
            let callback = Callback.allCases[Int(generator.next() % UInt64(Callback.allCases.count))]
            let phase = Phase.allCases[Int(generator.next() % 3)]
            var parent: ParentArgument?
            switch generator.next() % 4 {
            case 0: parent = ParentArgument.none
            case 1: parent = .controller(ControllerRef(serial: serial + 1, typeName: "ContainerViewController"))
            default: parent = nil
            }
            let animated: Bool? = generator.next() % 3 == 0 ? nil : generator.next() % 2 == 0
            events.append(.callback(CallbackEvent(callback, phase, controller: controller, animated: animated, parent: parent), at: time))
        }
        var encoder = EventEncoder()
        for event in events { encoder.append(event) }
        return (encoder.payload().bytes, events)
    }

    /// Events one at a time: the events before the failure, and the failure.
    static func oneByOne(_ payload: [UInt8], count: Int, first: UInt64, last: UInt64) -> (events: [Event], error: TraceError?) {
        var events: [Event] = []
        do {
            var decoder = try EventDecoder(payload: payload, firstTimestamp: first, lastTimestamp: last, firstOrdinal: 7, eventCount: count)
            while let event = try decoder.nextEvent() { events.append(event) }
            return (events, nil)
        } catch {
            return (events, error as? TraceError)
        }
    }

    /// Events through batches of `limit`.
    static func batched(_ payload: [UInt8], count: Int, first: UInt64, last: UInt64, limit: Int) -> (events: [Event], error: TraceError?) {
        var events: [Event] = []
        do {
            var decoder = try EventDecoder(payload: payload, firstTimestamp: first, lastTimestamp: last, firstOrdinal: 7, eventCount: count)
            var batch = RecordBatch()
            var finished = false
            while !finished {
                do {
                    try decoder.decode(into: &batch, limit: limit)
                } catch {
                    for index in 0..<batch.count { events.append(decoder.event(of: batch, index)) }
                    return (events, error as? TraceError)
                }
                #expect(batch.firstOrdinal == 7 + UInt64(events.count))
                for index in 0..<batch.count { events.append(decoder.event(of: batch, index)) }
                finished = batch.isFinished
                #expect(finished || batch.count == limit)
            }
            return (events, nil)
        } catch {
            return (events, error as? TraceError)
        }
    }

    @Test("valid payloads, every batch size", arguments: [1, 2, 7, 1024])
    func valid(limit: Int) {
        let (payload, events) = Self.payload(seed: 31)
        let result = Self.batched(payload, count: events.count, first: events.first!.timestamp, last: events.last!.timestamp, limit: limit)
        #expect(result.error == nil)
        #expect(result.events == events)
    }

    @Test("damaged payloads: the same events before the damage, then the same error")
    func damaged() {
        let (payload, events) = Self.payload(seed: 32)
        let first = events.first!.timestamp
        let last = events.last!.timestamp
        var generator = SeededGenerator(seed: 33)
        var failures = 0
        for round in 0..<400 {
            var mutated = payload
            switch round % 3 {
            case 0: mutated[Int(generator.next() % UInt64(mutated.count))] ^= UInt8(1) << UInt8(generator.next() % 8)
            case 1: mutated[Int(generator.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: generator.next())
            default: mutated.removeLast(1 + Int(generator.next() % 40))
            }
            let count = round % 11 == 0 ? events.count - 1 : events.count
            let expected = Self.oneByOne(mutated, count: count, first: first, last: last)
            let actual = Self.batched(mutated, count: count, first: first, last: last, limit: 64)
            #expect(actual.events == expected.events, "round \(round)")
            #expect(actual.error?.message == expected.error?.message, "round \(round)")
            #expect(actual.error?.eventOrdinal == expected.error?.eventOrdinal, "round \(round)")
            if expected.error != nil { failures += 1 }
        }
        #expect(failures > 100)
    }
}

extension EventDecoder {
    /// The `Event` of entry `index` of `batch` (decoded by this decoder).
    func event(of batch: RecordBatch, _ index: Int) -> Event {
        let entry = batch[index]
        if entry.isRecord, let event = batch.events[Int(entry.record)] { return event }
        return event(of: batch.record(of: index))
    }
}
