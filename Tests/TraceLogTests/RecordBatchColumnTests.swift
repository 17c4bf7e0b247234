import LifetraceTestSupport
import Testing
import TraceModel

@testable import TraceLog

/// The columns of a `RecordBatch` (one word per callback, side columns for parent controllers and slots that do
/// not fit in 16 bits, the frame's times) give back every field the general decoder reads.
@Suite("Record batches: the columns give back every field")
struct RecordBatchColumnTests {
    /// Records one at a time (`next(into:)`) and through batches of `limit` (`batch.record(of:)`), with each batch's
    /// entries through the subscript and the column accessors.
    static func bothWays(_ events: [Event], limit: Int) throws -> (general: [EventRecord], batched: [EventRecord]) {
        var encoder = EventEncoder()
        for event in events { encoder.append(event) }
        let payload = encoder.payload().bytes
        let first = events.first!.timestamp
        let last = events.last!.timestamp
        var general: [EventRecord] = []
        var decoder = try EventDecoder(payload: payload, firstTimestamp: first, lastTimestamp: last, firstOrdinal: 3, eventCount: events.count)
        var record = EventRecord(otherAt: 0, ordinal: 0)
        while try decoder.next(into: &record) { general.append(record) }
        var batched: [EventRecord] = []
        decoder = try EventDecoder(payload: payload, firstTimestamp: first, lastTimestamp: last, firstOrdinal: 3, eventCount: events.count)
        var batch = RecordBatch()
        repeat {
            try decoder.decode(into: &batch, limit: limit)
            let entries = batch.entries
            batch.withEntries { view in
                #expect(view.count == entries.count)
                #expect(Array(view) == entries)
                for index in view.indices {
                    #expect(view.timestamp(at: index) == entries[index].timestamp)
                    #expect(view.isRecord(at: index) == entries[index].isRecord)
                }
            }
            for index in 0..<batch.count { batched.append(batch.record(of: index)) }
        } while !batch.isFinished
        return (general, batched)
    }

    @Test("slots past 16 bits and parents on them", arguments: [1024, 7])
    func wideSlots(limit: Int) throws {
        // 70 000 controllers named in one frame: the last ones' slots do not fit in the word's 16 bits.
        var events: [Event] = []
        var time: UInt64 = 10
        func controller(_ serial: UInt32) -> ControllerRef { ControllerRef(serial: serial, typeName: "Screen\(serial % 5)ViewController") }
        for serial in UInt32(1)...70_000 {
            time += 3
            events.append(.callback(CallbackEvent(.viewDidLoad, .instant, controller: controller(serial)), at: time))
        }
        var generator = SeededGenerator(seed: 5)
        for round in 0..<400 {
            time += 7
            let serial = UInt32(generator.next() % 70_000) + 1
            let parent: ParentArgument? =
                switch round % 3 {
                case 0: .controller(controller(UInt32(generator.next() % 70_000) + 1))
                case 1: ParentArgument.none
                default: nil
                }
            let callback = Callback.allCases[Int(generator.next() % UInt64(Callback.allCases.count))]
            let animated: Bool? = round % 4 == 0 ? nil : round % 2 == 0
            events.append(
                .callback(CallbackEvent(callback, Phase.allCases[round % 3], controller: controller(serial), animated: animated, parent: parent), at: time))
        }
        let (general, batched) = try Self.bothWays(events, limit: limit)
        #expect(general.count == events.count)
        #expect(batched == general)
        #expect(general.contains { $0.controllerSlot >= 0xFFFF })
        #expect(general.contains { $0.parent == .controller && $0.parentSlot >= 0xFFFF })
    }

    @Test("random events of every kind", arguments: [UInt64(1), 2, 3])
    func everyKind(seed: UInt64) throws {
        let events = RandomEvents.make(count: 3_000, seed: seed)
        let (general, batched) = try Self.bothWays(events, limit: 100)
        #expect(general.count == events.count)
        #expect(batched.count == general.count)
        for (index, (record, other)) in zip(batched, general).enumerated() where record.kind != .other || other.kind != .other {
            if record != other {
                Issue.record("record \(index) differs: \(record) vs \(other)")
                break
            }
        }
    }
}
