import Foundation
import Recorder
import Replay
import Simulator
import Testing
import TraceLog
import TraceModel

/// The recorder path: a scenario recorded through the real Recorder into a file reads back as the same events
/// the in-memory run produced, and the same input always gives the same bytes.
@Suite("Recording through the Recorder")
struct RecordingTests {
    static let scenario = """
        scene main
        class NoteEditorViewController
            viewWillDisappear: save key=draft critical=true
            deinit: observer.remove name=keyboard
        at 0s    launch
        at 0s    root nav: UINavigationController(list: NotesListViewController)
        at 2s    push editor: NoteEditorViewController on nav
        at 3s    editor does edit key=draft; custom.mark size=3 label="two words"
        at 4s    begin-swipe-back nav
        at 4.3s  cancel-swipe-back nav
        at 6s    present s: UIHostingController<ShareView> from editor as pageSheet
        at 7s    swipe-down s
        at 8s    background
        """

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("simulator-\(UUID().uuidString)-\(name)").path
    }

    static func readEvents(_ path: String) throws -> [Event] {
        let reader = try TraceReader(path: path)
        #expect(reader.isCleanlyClosed)
        #expect(reader.problems.isEmpty)
        var events: [Event] = []
        try reader.forEachEvent { _, event in events.append(event) }
        return events
    }

    @Test("a recorded scenario reads back as the in-memory events, after the recorder's run-started event")
    func roundTrip() throws {
        let memory = EventCollector()
        try Simulator.run(text: Self.scenario, into: memory)
        let path = Self.temporaryPath("round-trip.lifetrace")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try TraceFileRecording.record(to: path, identity: Array(Self.scenario.utf8)) { sink in
            try Simulator.run(text: Self.scenario, into: sink)
        }
        let events = try Self.readEvents(path)
        let first = try #require(events.first)
        #expect(first.payload == .recorder(.runStarted(process: TraceFileRecording.producer)))
        #expect(Array(events.dropFirst()) == memory.events)
        let header = try TraceReader(path: path).header
        #expect(header.clockDomain == .synthetic)
        #expect(header.traceID == TraceFileRecording.traceID(for: Array(Self.scenario.utf8)))
    }

    @Test("the same scenario gives byte-identical files; a different one a different trace id")
    func deterministic() throws {
        let paths = (0..<2).map { Self.temporaryPath("same-\($0).lifetrace") }
        defer { paths.forEach { try? FileManager.default.removeItem(atPath: $0) } }
        for path in paths {
            try TraceFileRecording.record(to: path, identity: Array(Self.scenario.utf8)) { sink in
                try Simulator.run(text: Self.scenario, into: sink)
            }
        }
        let bytes = try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(bytes[0] == bytes[1])
        #expect(TraceFileRecording.traceID(for: Array("a".utf8)) != TraceFileRecording.traceID(for: Array("b".utf8)))
    }

    @Test("an illegal step keeps what was recorded before it")
    func illegalStepKeepsPrefix() throws {
        let text = """
            at 0s   root nav: UINavigationController(a: A)
            at 1s   push b: B on nav
            at 2s   pop nav
            at 3s   pop nav
            """
        let path = Self.temporaryPath("prefix.lifetrace")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: ScenarioError.self) {
            try TraceFileRecording.record(to: path, identity: []) { sink in try Simulator.run(text: text, into: sink) }
        }
        #expect(error?.line == 4)
        let events = try Self.readEvents(path)
        #expect(events.contains { event in
            if case .callback(let callback) = event.payload { return callback.callback == .deinitialize }
            return false
        })
    }

    @Test("a long generated session goes through the recorder without dropping events")
    func generatedThroughRecorder() throws {
        let path = Self.temporaryPath("generated.lifetrace")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let count = try TraceFileRecording.record(to: path, identity: []) { sink in
            SessionGenerator(seed: 5).generate(count: 50_000, into: sink)
        }
        let events = try Self.readEvents(path)
        #expect(events.count == count + 1)
        #expect(Array(events.dropFirst()) == SessionGenerator(seed: 5).events(count: 50_000))
        #expect(!events.contains { if case .recorder(.eventsDropped) = $0.payload { true } else { false } })
    }
}
