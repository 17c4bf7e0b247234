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
            // Compared as text: a damaged double may be a NaN, which is unequal to itself.
            #expect(actual.events.count == expected.events.count, "round \(round)")
            #expect("\(actual.events)" == "\(expected.events)", "round \(round)")
            #expect(actual.error?.message == expected.error?.message, "round \(round)")
            #expect(actual.error?.eventOrdinal == expected.error?.eventOrdinal, "round \(round)")
            if expected.error != nil { failures += 1 }
        }
        #expect(failures > 100)
    }
}

/// The inline paths of `EventDecoder.decode(into:limit:)` (callbacks, marks and container operations whose strings
/// and controllers the frame already named) give the very records `next(into:)` gives — same slots, same list and
/// field positions, same frame tables — on valid payloads of every kind and on damaged ones.
@Suite("Record batches: inline records equal the general decoder's")
struct RecordBatchInlineTests {
    /// Random events of every kind, mostly marks and container operations over a few controllers and strings
    /// (so that most of them name known entries and take the inline path), with their times.
    static func payload(seed: UInt64, count: Int) -> (payload: [UInt8], events: [Event]) {
        var events = RandomEvents.make(count: count, seed: seed)
        var generator = SeededGenerator(seed: seed &+ 1)
        var controllers: [ControllerRef] = []
        for index in events.indices where index % 3 != 0 {
            let time = events[index].timestamp
            var event = RandomEvents.event(at: time, controllers: &controllers, using: &generator)
            event.timestamp = time
            events[index] = event
        }
        var encoder = EventEncoder()
        for event in events { encoder.append(event) }
        return (encoder.payload().bytes, events)
    }

    /// Records one at a time (`next(into:)`), the error that stopped them, and the frame tables afterwards.
    static func general(_ payload: [UInt8], count: Int, first: UInt64, last: UInt64) -> Outcome {
        var outcome = Outcome()
        do {
            var decoder = try EventDecoder(payload: payload, firstTimestamp: first, lastTimestamp: last, firstOrdinal: 7, eventCount: count)
            defer { outcome.tables(of: decoder) }
            var record = EventRecord(otherAt: 0, ordinal: 0)
            while try decoder.next(into: &record) {
                outcome.records.append(record)
                outcome.events.append(decoder.event(of: record))
            }
        } catch {
            outcome.error = error as? TraceError
        }
        return outcome
    }

    /// The same through batches of `limit`.
    static func batched(_ payload: [UInt8], count: Int, first: UInt64, last: UInt64, limit: Int) -> Outcome {
        var outcome = Outcome()
        do {
            var decoder = try EventDecoder(payload: payload, firstTimestamp: first, lastTimestamp: last, firstOrdinal: 7, eventCount: count)
            defer { outcome.tables(of: decoder) }
            var batch = RecordBatch()
            var finished = false
            while !finished {
                var failure: (any Error)?
                do {
                    try decoder.decode(into: &batch, limit: limit)
                } catch {
                    failure = error
                }
                for index in 0..<batch.count {
                    outcome.records.append(batch.record(of: index))
                    outcome.events.append(decoder.event(of: batch, index))
                }
                if let failure { throw failure }
                finished = batch.isFinished
            }
        } catch {
            outcome.error = error as? TraceError
        }
        return outcome
    }

    struct Outcome {
        var records: [EventRecord] = []
        var events: [Event] = []
        var error: TraceError?
        var fields: [MarkFieldRecord] = []
        var listSlots: [UInt32] = []
        var controllers: [ControllerRef] = []

        mutating func tables(of decoder: EventDecoder) {
            listSlots = decoder.listSlots
            controllers = decoder.controllers
            fields = decoder.fields
        }
    }

    /// Records of kind `.other` carry their event in the decoder, not in the record: compare their events only.
    static func expectSame(_ actual: Outcome, _ expected: Outcome, _ label: String) {
        #expect(actual.records.count == expected.records.count, "\(label)")
        for (index, (record, other)) in zip(actual.records, expected.records).enumerated() where record != other {
            Issue.record("\(label): record \(index) differs: \(record) vs \(other)")
            break
        }
        #expect(actual.events.count == expected.events.count, "\(label)")
        // Compared as text: a damaged double may be a NaN, which is unequal to itself.
        for (index, (event, other)) in zip(actual.events, expected.events).enumerated() where "\(event)" != "\(other)" {
            Issue.record("\(label): event \(index) differs: \(event) vs \(other)")
            break
        }
        #expect(actual.error?.message == expected.error?.message, "\(label)")
        #expect(actual.error?.eventOrdinal == expected.error?.eventOrdinal, "\(label)")
        if actual.error == nil, expected.error == nil {
            #expect(actual.fields == expected.fields, "\(label)")
            #expect(actual.listSlots == expected.listSlots, "\(label)")
            #expect(actual.controllers == expected.controllers, "\(label)")
        }
    }

    @Test("valid payloads of every kind, every batch size", arguments: [1, 3, 64, 1024])
    func valid(limit: Int) throws {
        for seed: UInt64 in [41, 42, 43] {
            let (payload, events) = Self.payload(seed: seed, count: 2_000)
            let first = events.first!.timestamp
            let last = events.last!.timestamp
            let expected = Self.general(payload, count: events.count, first: first, last: last)
            #expect(expected.error == nil)
            #expect(expected.events == events)
            let inline = expected.records.filter { $0.kind == .mark || $0.kind == .container }.count
            #expect(inline > 300, "the payload exercises the inline mark and container paths")
            Self.expectSame(Self.batched(payload, count: events.count, first: first, last: last, limit: limit), expected, "seed \(seed)")
        }
    }

    @Test("damaged payloads of every kind: the same records before the damage, then the same error")
    func damaged() {
        let (payload, events) = Self.payload(seed: 44, count: 600)
        let first = events.first!.timestamp
        let last = events.last!.timestamp
        var generator = SeededGenerator(seed: 45)
        var failures = 0
        for round in 0..<600 {
            var mutated = payload
            switch round % 4 {
            case 0: mutated[Int(generator.next() % UInt64(mutated.count))] ^= UInt8(1) << UInt8(generator.next() % 8)
            case 1: mutated[Int(generator.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: generator.next())
            case 2:
                // A byte of the ops, refs or values streams (after the stream table), where the inline paths read.
                let position = 8 + Int(generator.next() % UInt64(mutated.count - 8))
                mutated[position] = [0, 1, 2, 3, 0x7F, 0x80, 0xFF][Int(generator.next() % 7)]
            default: mutated.removeLast(1 + Int(generator.next() % 40))
            }
            let count = round % 13 == 0 ? events.count - 1 : events.count
            let expected = Self.general(mutated, count: count, first: first, last: last)
            let actual = Self.batched(mutated, count: count, first: first, last: last, limit: 64)
            Self.expectSame(actual, expected, "round \(round)")
            if expected.error != nil { failures += 1 }
        }
        #expect(failures > 150)
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
