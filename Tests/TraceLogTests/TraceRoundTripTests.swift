import Dispatch
import LifetraceTestSupport
import Synchronization
import Testing
import TraceModel

@testable import TraceLog

@Suite("Trace file round trips")
struct TraceRoundTripTests {
    @Test("random event streams round-trip through a file", arguments: [
        (seed: UInt64(1), count: 1, perFrame: 4096),
        (seed: 2, count: 500, perFrame: 7),
        (seed: 3, count: 3000, perFrame: 64),
        (seed: 4, count: 20000, perFrame: 4096),
        (seed: 5, count: 257, perFrame: 1),
    ])
    func roundTrip(seed: UInt64, count: Int, perFrame: Int) throws {
        let directory = TemporaryDirectory()
        let path = directory.file("trace.lifetrace")
        let events = RandomEvents.make(count: count, seed: seed)
        let writer = try TraceFiles.write(events, to: path, eventsPerFrame: perFrame)
        #expect(writer.eventCount == UInt64(count))

        let reader = try TraceReader(path: path)
        #expect(reader.problems.isEmpty)
        #expect(reader.isCleanlyClosed)
        #expect(reader.header == TraceFiles.header)
        #expect(reader.eventCount == UInt64(count))
        #expect(reader.frames.count == (count + perFrame - 1) / perFrame)
        let read = TraceFiles.readAll(reader)
        #expect(read.error == nil)
        #expect(read.events == events)
        #expect(read.ordinals == Array(0..<UInt64(count)))
        let report = try reader.verify()
        #expect(report.problems.isEmpty)
        #expect(report.isCleanlyClosed)
        #expect(report.eventsChecked == UInt64(count))
    }

    @Test("every payload kind and optional field survives, including unknown kinds byte for byte")
    func everyKind() throws {
        let controller = ControllerRef(serial: 3, typeName: "NoteEditorViewController")
        let labelled = ControllerRef(serial: 4, typeName: "PhotoPageViewController", label: "0")
        let events: [Event] = [
            Event(timestamp: 10, .callback(CallbackEvent(.viewWillAppear, .begin, controller: controller, animated: true))),
            Event(timestamp: 10, .callback(CallbackEvent(.willMoveToParent, .instant, controller: labelled, parent: ParentArgument.none))),
            Event(timestamp: 11, .callback(CallbackEvent(.didMoveToParent, .end, controller: labelled, animated: false, parent: .controller(controller)))),
            Event(timestamp: 12, .callback(CallbackEvent(.viewWillTransition, .begin, controller: controller, size: Size(width: 390, height: -0.0)))),
            Event(timestamp: 13, .container(ContainerEvent(.present, container: controller, controllers: [labelled], animated: true, style: .pageSheet))),
            Event(timestamp: 14, .container(ContainerEvent(.selectTab, .end, container: nil, controllers: [], index: -3))),
            Event(timestamp: 15, .app(AppEvent(.didEnterBackground, .instant, scene: "scene-1"))),
            Event(timestamp: 16, .app(AppEvent(.willTerminate))),
            Event(timestamp: 17, .swiftUI(SwiftUIEvent(.onAppear, view: "ProfileView", host: labelled))),
            Event(timestamp: 18, .swiftUI(SwiftUIEvent(.onDisappear, view: "ProfileView"))),
            Event(timestamp: 19, .mark(.save(key: "draft", critical: true, controller: controller))),
            Event(timestamp: 20, .mark(MarkEvent("custom", .begin, fields: [
                MarkField("i", .int(.min)), MarkField("d", .double(-1.5e300)), MarkField("b", .bool(false)), MarkField("s", .string("")),
            ]))),
            Event(timestamp: 21, .recorder(.runStarted(process: "Notes[2231]"))),
            Event(timestamp: 22, .recorder(.eventsDropped(count: .max))),
            Event(timestamp: 23, .recorder(.note("imported 12 lines"))),
            Event(timestamp: 24, .unknown(UnknownEvent(tag: 0x42, body: [0, 1, 0xFF, 0x80]))),
            Event(timestamp: 24, .unknown(UnknownEvent(tag: 0x01, body: []))),
            Event(timestamp: .max, .mark(MarkEvent("late")), source: EventSource(text: "raw line", file: "log.txt", line: 7)),
        ]
        let directory = TemporaryDirectory()
        let path = directory.file("kinds.lifetrace")
        try TraceFiles.write(events, to: path, eventsPerFrame: 5)
        let read = TraceFiles.readAll(try TraceReader(path: path))
        #expect(read.error == nil)
        #expect(read.events == events)
    }

    @Test("one reader decodes frames from several threads at once")
    func concurrentDecoding() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("shared.lifetrace")
        let events = RandomEvents.make(count: 2000, seed: 21)
        try TraceFiles.write(events, to: path, eventsPerFrame: 50)
        let reader = try TraceReader(path: path)
        let frames = reader.frames
        let results = Mutex<[Int: [Event]]>([:])
        DispatchQueue.concurrentPerform(iterations: frames.count) { position in
            let decoded = (try? reader.decodeFrame(frames[position])) ?? []
            results.withLock { $0[position] = decoded }
        }
        let joined = results.withLock { table in (0..<frames.count).flatMap { table[$0] ?? [] } }
        #expect(joined == events)
    }

    @Test("controllers sharing a serial but not a type name or label stay distinct")
    func sameSerialDifferentController() throws {
        let first = ControllerRef(serial: 7, typeName: "A")
        let second = ControllerRef(serial: 7, typeName: "B")
        let labelled = ControllerRef(serial: 7, typeName: "A", label: "0")
        let events = [first, second, first, labelled, second, labelled, first].enumerated().map { position, controller in
            Event(timestamp: UInt64(position), .callback(CallbackEvent(.viewDidLoad, .instant, controller: controller)))
        }
        let directory = TemporaryDirectory()
        let path = directory.file("serials.lifetrace")
        try TraceFiles.write(events, to: path)
        #expect(TraceFiles.readAll(try TraceReader(path: path)).events == events)
    }

    @Test("an escaped event is encoded as tag, kind, length and the body's exact bytes")
    func escapeLayout() {
        var encoder = EventEncoder()
        encoder.append(Event(timestamp: 5, .unknown(UnknownEvent(tag: 0xC8, body: [9, 8, 7]))))
        // 5 streams of 2, 4, 0, 1 and 3 bytes: ops (escape tag, kind), times (split layout with S = 3, divisor 1,
        // one token byte, token 0), refs (none), values (body length 3), literals (the body).
        #expect(encoder.payload().bytes == [5, 2, 4, 0, 1, 3, EventTag.escape, 0xC8, 0x83, 1, 1, 0, 3, 9, 8, 7])
    }

    @Test("checkpoints keep their opaque payload and the ordinal they cover")
    func checkpoints() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("checkpoint.lifetrace")
        let events = RandomEvents.make(count: 100, seed: 9)
        let writer = try TraceWriter(creating: path, header: TraceFiles.header, options: TraceFiles.options(eventsPerFrame: 16))
        try writer.append(contentsOf: events[0..<40])
        let payload: [UInt8] = (0..<5000).map { UInt8(truncatingIfNeeded: $0 * 31) }
        try writer.writeCheckpoint(payload)
        try writer.append(contentsOf: events[40...])
        try writer.writeCheckpoint([])
        try writer.close()

        let reader = try TraceReader(path: path)
        #expect(reader.checkpoints.count == 2)
        let first = try #require(reader.checkpoints.first)
        #expect(first.firstOrdinal == 40)
        #expect(first.eventCount == 0)
        #expect(first.lastTimestamp == events[39].timestamp)
        #expect(try reader.checkpointPayload(first) == payload)
        #expect(try reader.checkpointPayload(reader.checkpoints[1]) == [])
        #expect(reader.checkpoints[1].firstOrdinal == 100)
        #expect(reader.checkpointIndex(atOrBefore: 39) == nil)
        #expect(reader.checkpointIndex(atOrBefore: 40) == 0)
        #expect(reader.checkpointIndex(atOrBefore: 1000) == 1)
        #expect(TraceFiles.readAll(reader).events == events)
        #expect(throws: TraceError.self) { try reader.decodeFrame(first) }
    }

    @Test("frameIndex(containing:) finds the first frame whose last timestamp is at or after the instant")
    func frameLookup() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("lookup.lifetrace")
        let events = (0..<100).map { Event(timestamp: UInt64($0) * 10, .app(AppEvent(.didBecomeActive))) }
        try TraceFiles.write(events, to: path, eventsPerFrame: 10)
        let reader = try TraceReader(path: path)
        #expect(reader.frameIndex(containing: 0) == 0)
        #expect(reader.frameIndex(containing: 90) == 0)
        #expect(reader.frameIndex(containing: 91) == 1)
        #expect(reader.frameIndex(containing: 990) == 9)
        #expect(reader.frameIndex(containing: 991) == nil)
        #expect(reader.timeSpan == 0...990)
        let tail = Array(reader.events(fromFrame: 9)).map(\.ordinal)
        #expect(tail == Array(90..<100))
    }

    @Test("the writer refuses a timestamp that goes backwards, naming both, and keeps going")
    func backwardsTimestamp() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("backwards.lifetrace")
        let writer = try TraceWriter(creating: path, header: TraceFiles.header)
        try writer.append(Event(timestamp: 1_500, .app(AppEvent(.didBecomeActive))))
        let error = try #require(throws: TraceError.self) {
            try writer.append(Event(timestamp: 1_200, .app(AppEvent(.willResignActive))))
        }
        #expect(error.code == .timestampWentBackwards)
        #expect(error.message.contains("1200") && error.message.contains("1500"))
        #expect(error.eventOrdinal == 1)
        #expect(error.description.hasPrefix(path))
        try writer.append(Event(timestamp: 1_500, .app(AppEvent(.willResignActive))))
        try writer.close()
        #expect(try TraceReader(path: path).eventCount == 2)
    }

    @Test("close is idempotent and the writer refuses events after it")
    func closeTwice() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("closed.lifetrace")
        let writer = try TraceWriter(creating: path, header: TraceFiles.header)
        try writer.close()
        try writer.close()
        #expect(throws: TraceError.self) { try writer.append(Event(timestamp: 1, .app(AppEvent(.didBecomeActive)))) }
        let reader = try TraceReader(path: path)
        #expect(reader.isCleanlyClosed)
        #expect(reader.eventCount == 0)
        #expect(reader.timeSpan == nil)
    }
}
