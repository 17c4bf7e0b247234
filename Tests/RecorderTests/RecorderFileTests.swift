import Foundation
import Testing
import Replay
import TraceLog
import TraceModel

@testable import Recorder

@Suite("Recorder writes trace files")
struct RecorderFileTests {
    /// A path `NAME.lifetrace` in a new directory of its own under the temporary directory; `removeTemporary(_:)`
    /// removes that directory (and whatever the test wrote next to the trace).
    static func temporaryPath(_ name: String) -> String {
        let directory = NSTemporaryDirectory() + "lifetrace-recorder-tests-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory + "/\(name).lifetrace"
    }

    /// Removes the directory `temporaryPath(_:)` made for `path`.
    static func removeTemporary(_ path: String) {
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
    }

    static func readAll(_ path: String) throws -> [Event] {
        let reader = try TraceReader(path: path)
        var events: [Event] = []
        try reader.forEachEvent { _, event in events.append(event) }
        return events
    }

    @Test("a new file gets a header with the clock domain; a reopened one gets a new run with fresh serials")
    func createThenAppend() throws {
        let path = Self.temporaryPath("append")
        defer { RecorderFileTests.removeTemporary(path) }
        var options = RecorderOptions()
        options.processDescription = "first[1]"
        let first = try Recorder(path: path, options: options)
        let editor = first.registry.register(typeName: "NoteEditorViewController")
        first.viewWillDisappear(editor, animated: true) {
            first.save(key: "draft", critical: true, controller: editor)
        }
        try first.close()

        let header = try TraceReader(path: path).header
        #expect(header.clockDomain == Recorder.clockDomain(of: MonotonicClock()))
        #expect(header.hasSyntheticTimes == false)

        options.processDescription = "second[2]"
        let second = try Recorder(path: path, options: options)
        let list = second.registry.register(typeName: "NoteListViewController")
        #expect(list.serial == editor.serial + 1)
        second.sceneDidEnterBackground("main")
        try second.close()

        let events = try Self.readAll(path)
        #expect(events.map(\.payload) == [
            .recorder(.runStarted(process: "first[1]")),
            .callback(CallbackEvent(.viewWillDisappear, .begin, controller: editor, animated: true)),
            .mark(.save(key: "draft", critical: true, controller: editor)),
            .callback(CallbackEvent(.viewWillDisappear, .end, controller: editor, animated: true)),
            .recorder(.runStarted(process: "second[2]")),
            .app(AppEvent(.didEnterBackground, scene: "main")),
        ])
        let times = events.map(\.timestamp)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test("serials continue after every controller of the trace, dead ones and ones only named by marks included")
    func serialsContinue() throws {
        let path = Self.temporaryPath("serials")
        defer { RecorderFileTests.removeTemporary(path) }
        let first = try Recorder(path: path, checkpoints: CheckpointingWriter.Policy(eventInterval: 100, timeInterval: 0))
        for _ in 0..<300 {
            let controller = first.registry.register(typeName: "Short")
            first.record(.initialize, .instant, controller)
            first.controllerDeinit(controller)
        }
        let markedOnly = first.registry.register(typeName: "Marked")
        first.timerStart(id: "t", controller: markedOnly)
        try first.close()
        #expect(markedOnly.serial == 301)
        let second = try Recorder(path: path)
        #expect(second.registry.register(typeName: "Next").serial == 302)
        try second.close()
    }

    @Test("appending with a clock behind the trace (a reboot) shifts the run to keep time non-decreasing")
    func appendAfterReboot() throws {
        let path = Self.temporaryPath("reboot")
        defer { RecorderFileTests.removeTemporary(path) }
        let late = ManualClock(start: 9_000_000)
        let first = try Recorder(path: path, clock: late)
        first.applicationDidBecomeActive()
        try first.close()
        #expect(try TraceReader(path: path).header.clockDomain == .synthetic)

        let early = ManualClock(start: 100)
        let second = try Recorder(path: path, clock: early)
        early.advance(by: 50)
        second.applicationDidBecomeActive()
        try second.close()
        let times = try Self.readAll(path).map(\.timestamp)
        #expect(times == [9_000_000, 9_000_000, 9_000_000, 9_000_050])
    }

    @Test("opening something that is not a trace fails with RecorderError.open naming the file")
    func notATrace() throws {
        let path = Self.temporaryPath("garbage")
        defer { RecorderFileTests.removeTemporary(path) }
        try Data("hello, not a trace\n".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: RecorderError.self) { try Recorder(path: path) }
        #expect(error?.code == .open)
        #expect(error?.path == path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("hello, not a trace\n".utf8))
    }

    @Test("a second recorder on a trace another recorder is writing is refused; the first one's events all stay")
    func secondRecorderRefused() throws {
        let path = Self.temporaryPath("shared")
        defer { RecorderFileTests.removeTemporary(path) }
        var options = RecorderOptions()
        options.processDescription = "first[1]"
        let first = try Recorder(path: path, options: options)
        let editor = first.registry.register(typeName: "NoteEditorViewController")
        first.viewDidLoad(editor) {}
        try first.flush()
        // Before, the second recorder appended at the same end of file as the first: their frames overwrote
        // each other (or, on an empty file, TraceWriter(creating:) truncated the first's header).
        let error = #expect(throws: RecorderError.self) { try Recorder(path: path) }
        #expect(error?.code == .open)
        #expect(error?.cause?.contains("another writer") == true)
        first.viewWillAppear(editor, animated: false) {}
        try first.close()
        let events = try Self.readAll(path)
        #expect(events.map(\.payload) == [
            .recorder(.runStarted(process: "first[1]")),
            .callback(CallbackEvent(.viewDidLoad, .begin, controller: editor)),
            .callback(CallbackEvent(.viewDidLoad, .end, controller: editor)),
            .callback(CallbackEvent(.viewWillAppear, .begin, controller: editor, animated: false)),
            .callback(CallbackEvent(.viewWillAppear, .end, controller: editor, animated: false)),
        ])
        // Once the first closed, the next recorder appends its run.
        let second = try Recorder(path: path)
        try second.close()
        #expect(try Self.readAll(path).count == 6)
    }
}

@Suite("Recorder writes checkpoints")
struct RecorderCheckpointTests {
    @Test("the background thread writes checkpoint frames that replay to the same state as the events")
    func checkpoints() throws {
        let path = RecorderFileTests.temporaryPath("checkpoints")
        defer { RecorderFileTests.removeTemporary(path) }
        let clock = ManualClock(start: 1_000_000)
        let recorder = try Recorder(path: path, clock: clock, checkpoints: CheckpointingWriter.Policy(eventInterval: 50, timeInterval: 0))
        let nav = recorder.registry.register(typeName: "UINavigationController")
        recorder.setRoot(nav)
        for index in 0..<40 {
            let controller = recorder.registry.register(typeName: "Page\(index % 3)")
            recorder.pushViewController(controller, onto: nav, animated: true)
            recorder.viewWillAppear(controller, animated: true) {}
            recorder.viewDidAppear(controller, animated: true) {}
            clock.advance(by: 1_000)
        }
        try recorder.close()
        let reader = try TraceReader(path: path)
        #expect(reader.checkpoints.count >= 3)
        let replayer = Replayer(reader: reader)
        let middle = reader.timeSpan.map { ($0.lowerBound + $0.upperBound) / 2 } ?? 0
        let seek = try replayer.seek(to: middle)
        #expect(seek.checkpoint != nil)
        var full = ReplayState()
        try reader.forEachEvent { ordinal, event in
            if event.timestamp <= middle { full.apply(event, ordinal: ordinal) }
        }
        #expect(seek.state == full)
    }

    /// `Tests/Fixtures/format-1.0/NAME.lifetrace`.
    static func legacyFixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/format-1.0/\(name).lifetrace").path
    }

    @Test("a Recorder appends a run to a format 1.0 trace cut anywhere after its header: the valid prefix stays, the run follows, the file stays 1.0")
    func appendToTornLegacyTrace() throws {
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: RecorderCheckpointTests.legacyFixture("01-cancelled-pop-save"))))
        let headerLength = Int(try TraceReader(path: RecorderCheckpointTests.legacyFixture("01-cancelled-pop-save")).headerLength)
        let path = RecorderFileTests.temporaryPath("legacy")
        defer { RecorderFileTests.removeTemporary(path) }
        for length in stride(from: headerLength, through: original.count, by: 5) {
            try Data(original[0..<length]).write(to: URL(fileURLWithPath: path))
            let prefix = try RecorderFileTests.readAll(path)
            let last = prefix.last?.timestamp ?? 0
            var options = RecorderOptions()
            options.processDescription = "appended"
            let recorder = try Recorder(path: path, options: options, clock: ManualClock(start: last + 1_000))
            let editor = recorder.registry.register(typeName: "NoteEditorViewController")
            recorder.viewDidLoad(editor) {}
            recorder.sceneDidEnterBackground("main")
            try recorder.close()

            let reader = try TraceReader(path: path)
            #expect(reader.header.formatMajor == 1, "length \(length)")
            #expect(try reader.verify().problems.isEmpty, "length \(length)")
            let events = try RecorderFileTests.readAll(path)
            #expect(Array(events.prefix(prefix.count)) == prefix, "length \(length)")
            #expect(events.count == prefix.count + 4, "length \(length)")
            #expect(events.dropFirst(prefix.count).first?.payload == .recorder(.runStarted(process: "appended")), "length \(length)")
            let serials = prefix.compactMap { event -> UInt32? in
                if case .callback(let callback) = event.payload { return callback.controller.serial }
                return nil
            }
            #expect(editor.serial > (serials.max() ?? 0), "length \(length)")
        }
    }
}
