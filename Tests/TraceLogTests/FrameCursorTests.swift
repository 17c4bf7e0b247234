import LifetraceTestSupport
import Testing
import TraceModel

@testable import TraceLog

@Suite("Frame cursor: events one at a time, callbacks as records")
struct FrameCursorTests {
    @Test("records stand for exactly the events the frame holds", arguments: [(seed: UInt64(11), perFrame: 64), (seed: 12, perFrame: 4096)])
    func recordsMatchEvents(seed: UInt64, perFrame: Int) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("trace.lifetrace")
        let events = RandomEvents.make(count: 2000, seed: seed)
        _ = try TraceFiles.write(events, to: path, eventsPerFrame: perFrame)
        let reader = try TraceReader(path: path)
        var seen: [Event] = []
        var callbackRecords = 0
        for frame in reader.frames {
            var cursor = try reader.cursor(for: frame)
            while let record = try cursor.next() {
                #expect(record.ordinal == UInt64(seen.count))
                let event = cursor.event(of: record)
                #expect(record.timestamp == event.timestamp)
                if record.kind == .callback {
                    callbackRecords += 1
                    guard case .callback(let callback) = event.payload else {
                        Issue.record("a callback record stands for \(event)")
                        continue
                    }
                    #expect(event.source == nil)
                    #expect(callback.size == nil)
                    #expect(record.controller == callback.controller.serial)
                    #expect(cursor.controller(atSlot: record.controllerSlot) == callback.controller)
                    #expect(record.callback == callback.callback && record.phase == callback.phase && record.animated == callback.animated)
                    switch callback.parent {
                    case nil: #expect(record.parent == .absent)
                    case .none?: #expect(record.parent == .none)
                    case .controller(let parent)?:
                        #expect(record.parent == .controller)
                        #expect(record.parentSerial == parent.serial)
                        #expect(cursor.controller(atSlot: record.parentSlot) == parent)
                    }
                } else {
                    #expect(cursor.event == event)
                }
                seen.append(event)
            }
        }
        #expect(seen == events)
        #expect(callbackRecords > 100)
    }

    @Test("a frame whose last timestamp differs from its header fails at its end, after its events")
    func lastTimestampMismatch() throws {
        let controller = ControllerRef(serial: 1, typeName: "ListViewController")
        let events = (0..<3).map { Event.callback(CallbackEvent(.viewDidLoad, .instant, controller: controller), at: UInt64($0) * 10) }
        var encoder = EventEncoder()
        for event in events { encoder.append(event) }
        var decoder = try EventDecoder(payload: encoder.payload().bytes, firstTimestamp: 0, lastTimestamp: 25, firstOrdinal: 0, eventCount: 3)
        var decoded = 0
        #expect(throws: TraceError.self) {
            while try decoder.next() != nil { decoded += 1 }
        }
        #expect(decoded == 3)
    }
}
