import Foundation
import LifetraceTestSupport
import Testing
import TraceModel

@testable import TraceLog

/// Writes a random 100 000-event sample as a trace and as JSON Lines when `LIFETRACE_SAMPLE_DIR` names a
/// directory (for measuring bytes/event against `gzip -6` of the JSONL; see docs/FORMAT.md §10). Disabled
/// otherwise.
@Suite("Sample trace for measurements")
struct SampleTraceWriter {
    static let directory = ProcessInfo.processInfo.environment["LIFETRACE_SAMPLE_DIR"]

    @Test("writes random-100k.lifetrace and random-100k.jsonl", .enabled(if: directory != nil))
    func writeSample() throws {
        let directory = try #require(Self.directory)
        let events = RandomEvents.make(count: 100_000, seed: 2026)
        let header = TraceHeader(
            clockDomain: .synthetic, wallClockAnchor: WallClockAnchor(unixNanoseconds: 1_764_460_800_000_000_000, monotonicNanoseconds: 0),
            producer: "lifetrace TraceLogTests sample"
        )
        let writer = try TraceWriter(creating: "\(directory)/random-100k.lifetrace", header: header)
        try writer.append(contentsOf: events)
        try writer.close()
        var bytes: [UInt8] = []
        var jsonl = JSONLWriter { bytes.append(contentsOf: $0) }
        for event in events { try jsonl.write(event) }
        try jsonl.finish()
        try Data(bytes).write(to: URL(fileURLWithPath: "\(directory)/random-100k.jsonl"))
        #expect(try TraceReader(path: "\(directory)/random-100k.lifetrace").eventCount == 100_000)
    }
}

extension SampleTraceWriter {
    /// A navigation session shaped like a real recording: pushes and pops with full callback intervals, layout
    /// passes, marks, app transitions; nanosecond timestamps with microsecond-to-second gaps.
    static func realisticSession(count: Int, seed: UInt64) -> [Event] {
        var generator = SeededGenerator(seed: seed)
        var time: UInt64 = 5_000_000_000
        var serial: UInt32 = 1
        var events: [Event] = []
        let root = ControllerRef(serial: serial, typeName: "UINavigationController")
        var stack: [ControllerRef] = []
        let types = ["NoteListViewController", "NoteEditorViewController", "SettingsViewController", "PhotoPageViewController"]
        func tick(_ bound: UInt64) { time += 1_000 + generator.next() % bound }
        func add(_ payload: EventPayload) { events.append(Event(timestamp: time, payload)) }
        func interval(_ callback: Callback, _ controller: ControllerRef, animated: Bool? = nil) {
            add(.callback(CallbackEvent(callback, .begin, controller: controller, animated: animated)))
            tick(300_000)
            add(.callback(CallbackEvent(callback, .end, controller: controller, animated: animated)))
            tick(50_000)
        }
        while events.count < count {
            if stack.count < 2 || generator.next() % 3 != 0 {
                serial += 1
                let pushed = ControllerRef(serial: serial, typeName: types[Int(generator.next() % 4)])
                add(.container(ContainerEvent(.push, container: root, controllers: [pushed], animated: true)))
                interval(.initialize, pushed)
                interval(.loadView, pushed)
                interval(.viewDidLoad, pushed)
                if let top = stack.last { interval(.viewWillDisappear, top, animated: true) }
                interval(.viewWillAppear, pushed, animated: true)
                interval(.viewIsAppearing, pushed, animated: true)
                for _ in 0..<2 {
                    interval(.viewWillLayoutSubviews, pushed)
                    interval(.viewDidLayoutSubviews, pushed)
                }
                if let top = stack.last { interval(.viewDidDisappear, top, animated: true) }
                interval(.viewDidAppear, pushed, animated: true)
                add(.mark(MarkEvent(MarkName.analyticsScreen, controller: pushed, fields: [MarkField("name", .string(pushed.typeName))])))
                stack.append(pushed)
                tick(3_000_000_000)
                if generator.next() % 2 == 0 {
                    add(.mark(.edit(key: "draft", controller: pushed)))
                    tick(2_000_000_000)
                    add(.mark(.save(key: "draft", critical: true, controller: pushed)))
                }
            } else {
                let popped = stack.removeLast()
                add(.container(ContainerEvent(.pop, container: root, controllers: [popped], animated: true)))
                interval(.viewWillDisappear, popped, animated: true)
                interval(.viewWillAppear, stack.last!, animated: true)
                interval(.viewDidDisappear, popped, animated: true)
                interval(.viewDidAppear, stack.last!, animated: true)
                interval(.deinitialize, popped)
                tick(2_000_000_000)
            }
            if generator.next() % 25 == 0 {
                add(.app(AppEvent(.willResignActive)))
                tick(100_000_000)
                add(.app(AppEvent(.didEnterBackground)))
                tick(10_000_000_000)
                add(.app(AppEvent(.willEnterForeground)))
                add(.app(AppEvent(.didBecomeActive)))
            }
        }
        return Array(events.prefix(count))
    }

    @Test("writes session-100k.lifetrace and session-100k.jsonl", .enabled(if: directory != nil))
    func writeRealisticSample() throws {
        let directory = try #require(Self.directory)
        let events = Self.realisticSession(count: 100_000, seed: 7)
        let header = TraceHeader(
            clockDomain: .synthetic, wallClockAnchor: WallClockAnchor(unixNanoseconds: 1_764_460_800_000_000_000, monotonicNanoseconds: 0),
            producer: "lifetrace TraceLogTests sample"
        )
        let writer = try TraceWriter(creating: "\(directory)/session-100k.lifetrace", header: header)
        try writer.append(contentsOf: events)
        try writer.close()
        var bytes: [UInt8] = []
        var jsonl = JSONLWriter { bytes.append(contentsOf: $0) }
        for event in events { try jsonl.write(event) }
        try jsonl.finish()
        try Data(bytes).write(to: URL(fileURLWithPath: "\(directory)/session-100k.jsonl"))
        #expect(try TraceReader(path: "\(directory)/session-100k.lifetrace").eventCount == 100_000)
    }
}
