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
        var otherRecords = 0
        var kinds: Set<EventRecord.Kind> = []
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
                } else if record.kind == .other {
                    #expect(cursor.event == event)
                    otherRecords += 1
                } else {
                    #expect(event.source == nil)
                    checkRecord(record, of: event, in: cursor)
                    kinds.insert(record.kind)
                }
                seen.append(event)
            }
        }
        #expect(seen == events)
        #expect(callbackRecords > 100)
        #expect(otherRecords > 100)
        #expect(kinds == [.container, .app, .swiftUI, .mark])
    }

    /// A container, app, SwiftUI or mark record says what its event says, through the frame's tables.
    private func checkRecord(_ record: EventRecord, of event: Event, in cursor: FrameCursor) {
        func controller(_ present: Bool, _ slot: UInt32) -> ControllerRef? {
            present ? cursor.controller(atSlot: slot) : nil
        }
        if record.hasController { #expect(cursor.serial(atSlot: record.controllerSlot) == record.controller) }
        switch event.payload {
        case .container(let container):
            #expect(record.kind == .container)
            #expect(record.containerOperation == container.operation && record.phase == container.phase)
            #expect(record.animated == container.animated && record.presentationStyle == container.style)
            #expect(record.hasIndex == (container.index != nil) && (container.index.map { Int64($0) } ?? 0) == record.index)
            #expect(controller(record.hasController, record.controllerSlot) == container.container)
            let list = (0..<record.listCount).map { cursor.controller(atSlot: cursor.listSlot(record.listStart + $0)) }
            #expect(list == container.controllers)
        case .app(let app):
            #expect(record.kind == .app && record.appTransition == app.transition && record.phase == app.phase)
            #expect((record.stringSlot == EventRecord.noString ? nil : cursor.string(atSlot: record.stringSlot)) == app.scene)
        case .swiftUI(let swiftUI):
            #expect(record.kind == .swiftUI && record.swiftUIAction == swiftUI.action)
            #expect(cursor.string(atSlot: record.stringSlot) == swiftUI.view)
            #expect(controller(record.hasController, record.controllerSlot) == swiftUI.host)
        case .mark(let mark):
            #expect(record.kind == .mark && record.phase == mark.phase)
            #expect(cursor.string(atSlot: record.stringSlot) == mark.name)
            #expect(record.markName == (KnownName(mark.name) == .other ? nil : KnownName(mark.name)))
            #expect(controller(record.hasController, record.controllerSlot) == mark.controller)
            let fields = (0..<record.listCount).map { cursor.field(record.listStart + $0) }
            #expect(fields.map { cursor.string(atSlot: $0.nameSlot) } == mark.fields.map(\.name))
            #expect(fields.map { cursor.value(of: $0) } == mark.fields.map(\.value))
            #expect(fields.map { $0.knownName?.string ?? cursor.string(atSlot: $0.nameSlot) } == mark.fields.map(\.name))
        default:
            Issue.record("a \(record.kind) record stands for \(event)")
        }
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
