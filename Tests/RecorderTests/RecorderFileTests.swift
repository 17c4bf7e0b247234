import Foundation
import Testing
import TraceLog
import TraceModel

@testable import Recorder

@Suite("Recorder writes trace files")
struct RecorderFileTests {
    static func temporaryPath(_ name: String) -> String {
        let directory = NSTemporaryDirectory() + "lifetrace-recorder-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/\(name)-\(UInt32.random(in: 0...UInt32.max)).lifetrace"
        try? FileManager.default.removeItem(atPath: path)
        return path
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
        defer { try? FileManager.default.removeItem(atPath: path) }
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

    @Test("appending with a clock behind the trace (a reboot) shifts the run to keep time non-decreasing")
    func appendAfterReboot() throws {
        let path = Self.temporaryPath("reboot")
        defer { try? FileManager.default.removeItem(atPath: path) }
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
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("hello, not a trace\n".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: RecorderError.self) { try Recorder(path: path) }
        #expect(error?.code == .open)
        #expect(error?.path == path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("hello, not a trace\n".utf8))
    }
}
