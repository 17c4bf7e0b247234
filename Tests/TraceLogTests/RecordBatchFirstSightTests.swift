import LifetraceTestSupport
import Testing
import TraceModel

@testable import TraceLog

/// The callback run of `EventDecoder.decode(into:limit:)` reads callbacks that name a controller (or a parent) for
/// the first time in their frame without leaving the run (`firstSight`): the same records, events, frame tables
/// and errors as `next(into:)`, on valid payloads and on damaged ones, cut streams included.
@Suite("Record batches: callbacks naming new controllers")
struct RecordBatchFirstSightTests {
    /// Callbacks over many controllers (most named for the first time in the frame), with parents that are new,
    /// known, the callback's own controller or `nil`, labels or none, serials of one to five varint bytes, type
    /// names the frame knows or not; a few marks and size arguments between them.
    static func events(seed: UInt64, count: Int) -> [Event] {
        var generator = SeededGenerator(seed: seed)
        var events: [Event] = []
        var time: UInt64 = 5_000
        var next: UInt32 = 1
        func controller() -> ControllerRef {
            let serial: UInt32
            switch generator.next() % 10 {
            case 0 ..< 5:
                // A new controller; its serial sometimes wide (several varint bytes).
                serial = generator.next() % 4 == 0 ? UInt32.max - UInt32(generator.next() % 1_000) - next : next
                next += 1
            default:
                serial = next > 1 ? 1 + UInt32(generator.next() % UInt64(next - 1)) : next
            }
            let type = generator.next() % 5 == 0 ? "Rare\(generator.next() % 1_000)Controller" : "Screen\(serial % 6)ViewController"
            return ControllerRef(serial: serial, typeName: type, label: serial % 3 == 0 ? "tab \(serial % 2)" : nil)
        }
        for _ in 0..<count {
            time += generator.next() % 3 == 0 ? 0 : generator.next() % 2_000_000
            let subject = controller()
            var parent: ParentArgument?
            switch generator.next() % 5 {
            case 0: parent = ParentArgument.none
            case 1: parent = .controller(controller())
            case 2: parent = .controller(subject)
            default: parent = nil
            }
            let callback = Callback.allCases[Int(generator.next() % UInt64(Callback.allCases.count))]
            let phase = Phase.allCases[Int(generator.next() % 3)]
            let animated: Bool? = generator.next() % 3 == 0 ? nil : generator.next() % 2 == 0
            var event = CallbackEvent(callback, phase, controller: subject, animated: animated, parent: parent)
            if generator.next() % 40 == 0 { event.size = Size(width: 320, height: 480) }
            events.append(.callback(event, at: time))
            if generator.next() % 12 == 0 {
                events.append(Event(timestamp: time, .mark(MarkEvent("save", .instant, controller: subject, fields: []))))
            }
        }
        return events
    }

    static func payload(_ events: [Event]) -> [UInt8] {
        var encoder = EventEncoder()
        for event in events { encoder.append(event) }
        return encoder.payload().bytes
    }

    /// `payload` with the last `cut` bytes of stream `stream` (0 ops … 4 literals) removed and the stream table
    /// rewritten to match: a frame whose stream ends early, inside whatever the decoder reads there.
    static func cutting(_ payload: [UInt8], stream: Int, by cut: Int) -> [UInt8]? {
        var position = 0
        func varint() -> Int {
            var value = 0
            var shift = 0
            while true {
                let byte = payload[position]
                position += 1
                value |= Int(byte & 0x7F) << shift
                if byte & 0x80 == 0 { return value }
                shift += 7
            }
        }
        guard varint() == 5 else { return nil }
        var lengths = (0..<5).map { _ in varint() }
        var streams: [[UInt8]] = []
        for length in lengths {
            streams.append(Array(payload[position..<(position + length)]))
            position += length
        }
        guard streams[stream].count >= cut else { return nil }
        streams[stream].removeLast(cut)
        lengths[stream] -= cut
        var writer = ByteWriter(capacity: payload.count)
        writer.writeVarint(5)
        for length in lengths { writer.writeVarint(UInt64(length)) }
        for bytes in streams { writer.writeBytes(bytes) }
        return writer.bytes
    }

    @Test("valid payloads: the run reads new controllers as the general decoder does", arguments: [1, 5, 64, 1024])
    func valid(limit: Int) {
        for seed: UInt64 in [71, 72] {
            let events = Self.events(seed: seed, count: 1_500)
            let payload = Self.payload(events)
            let first = events.first!.timestamp
            let last = events.last!.timestamp
            let expected = RecordBatchInlineTests.general(payload, count: events.count, first: first, last: last)
            #expect(expected.error == nil)
            #expect(expected.events == events)
            #expect(expected.controllers.count > 500, "most callbacks name a new controller")
            RecordBatchInlineTests.expectSame(
                RecordBatchInlineTests.batched(payload, count: events.count, first: first, last: last, limit: limit), expected,
                "seed \(seed), limit \(limit)")
        }
    }

    @Test("damaged payloads: the same records before the damage, then the same error")
    func damaged() {
        let events = Self.events(seed: 73, count: 500)
        let payload = Self.payload(events)
        let first = events.first!.timestamp
        let last = events.last!.timestamp
        var generator = SeededGenerator(seed: 74)
        var failures = 0
        for round in 0..<500 {
            var mutated = payload
            switch round % 3 {
            case 0: mutated[Int(generator.next() % UInt64(mutated.count))] ^= UInt8(1) << UInt8(generator.next() % 8)
            case 1:
                let position = 8 + Int(generator.next() % UInt64(mutated.count - 8))
                mutated[position] = [0, 1, 2, 3, 0x7F, 0x80, 0xFF][Int(generator.next() % 7)]
            default: mutated[Int(generator.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            let count = round % 13 == 0 ? events.count - 1 : events.count
            let expected = RecordBatchInlineTests.general(mutated, count: count, first: first, last: last)
            let actual = RecordBatchInlineTests.batched(mutated, count: count, first: first, last: last, limit: 64)
            RecordBatchInlineTests.expectSame(actual, expected, "round \(round)")
            if expected.error != nil { failures += 1 }
        }
        #expect(failures > 100)
    }

    @Test("a frame cut inside a new controller's serial varint, type or label reference, or a parent reference")
    func cutStreams() throws {
        // The last callback names a new controller with a 5-byte serial and a new parent with a 3-byte one: its
        // values end with serial, type and label of each, its refs with two references.
        let wide = ControllerRef(serial: UInt32.max - 3, typeName: "ScreenViewController", label: "tab")
        let parent = ControllerRef(serial: 40_000, typeName: "ScreenViewController")
        var events = Self.events(seed: 75, count: 300)
        events.append(.callback(
            CallbackEvent(.viewDidAppear, .end, controller: wide, animated: true, parent: .controller(parent)), at: events.last!.timestamp + 10))
        let payload = Self.payload(events)
        let first = events.first!.timestamp
        let last = events.last!.timestamp
        var checked = 0
        for stream in [1, 2, 3] {
            for cut in 1...12 {
                guard let mutated = Self.cutting(payload, stream: stream, by: cut) else { continue }
                let expected = RecordBatchInlineTests.general(mutated, count: events.count, first: first, last: last)
                #expect(expected.error != nil, "stream \(stream), cut \(cut)")
                for limit in [1, 64, 1024] {
                    RecordBatchInlineTests.expectSame(
                        RecordBatchInlineTests.batched(mutated, count: events.count, first: first, last: last, limit: limit), expected,
                        "stream \(stream), cut \(cut), limit \(limit)")
                }
                checked += 1
            }
        }
        #expect(checked == 36)
        // Uncut, the same payload reads whole both ways.
        let whole = RecordBatchInlineTests.general(payload, count: events.count, first: first, last: last)
        #expect(whole.error == nil)
        #expect(whole.events == events)
        RecordBatchInlineTests.expectSame(
            RecordBatchInlineTests.batched(payload, count: events.count, first: first, last: last, limit: 64), whole, "uncut")
    }
}
