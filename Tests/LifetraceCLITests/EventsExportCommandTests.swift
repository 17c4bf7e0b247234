import Foundation
import LifetraceTestSupport
import Testing
import TraceLog
import TraceModel

@testable import LifetraceCLI

/// A scratch directory removed when the value goes away.
private final class ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

private func run(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
    let (output, captured) = CommandOutput.capturing()
    let code = Lifetrace.run(arguments: arguments, output: output)
    return (code, captured.standardOutput, captured.standardError)
}

private let header = TraceHeader(
    clockDomain: .machContinuousTime,
    wallClockAnchor: WallClockAnchor(unixNanoseconds: 1_764_460_800_000_000_000, monotonicNanoseconds: 1_000_000_000),
    producer: "cli-tests",
    hasSyntheticTimes: true
)

private func writeTrace(_ events: [Event], to path: String, eventsPerFrame: Int = 4096) throws {
    var options = TraceWriter.Options()
    options.maxEventsPerFrame = eventsPerFrame
    let writer = try TraceWriter(creating: path, header: header, options: options)
    for event in events { try writer.append(event) }
    try writer.close()
}

private let navigation = ControllerRef(serial: 1, typeName: "UINavigationController")
private let list = ControllerRef(serial: 2, typeName: "NoteListViewController")
private let editor = ControllerRef(serial: 3, typeName: "NoteEditorViewController")

/// A push, a save inside viewWillDisappear, a pop: times in seconds from 1 s.
private let story: [Event] = [
    .container(ContainerEvent(.push, container: navigation, controllers: [editor], animated: true), at: 1_000_000_000),
    .callback(CallbackEvent(.viewWillAppear, .instant, controller: editor, animated: true), at: 1_010_000_000),
    .callback(CallbackEvent(.viewWillDisappear, .instant, controller: list, animated: true), at: 1_011_000_000),
    .mark(.edit(key: "draft", controller: editor), at: 3_500_000_000),
    .callback(CallbackEvent(.viewWillDisappear, .begin, controller: editor, animated: true), at: 5_904_000_000),
    .mark(.save(key: "draft", critical: true, controller: editor), at: 5_904_500_000),
    .callback(CallbackEvent(.viewWillDisappear, .end, controller: editor, animated: true), at: 5_905_000_000),
    .app(AppEvent(.didEnterBackground, scene: "main"), at: 10_214_000_000),
]

@Suite("lifetrace export")
struct ExportCommandTests {
    @Test("export -o then reading the JSONL gives back every event and the header")
    func exportRoundTrip() throws {
        let scratch = try ScratchDirectory()
        let events = RandomEvents.make(count: 700, seed: 5)
        try writeTrace(events, to: scratch.path("t.lifetrace"), eventsPerFrame: 50)
        let result = run(["export", scratch.path("t.lifetrace"), "--format", "jsonl", "-o", scratch.path("t.jsonl")])
        #expect(result.code == .success, "\(result.err)")
        #expect(result.out.hasPrefix("exported 700 events"))
        var reader = try JSONLReader(path: scratch.path("t.jsonl"))
        let decoded = try reader.readAll()
        #expect(decoded == events)
        let read = try #require(reader.header)
        #expect(read.clockDomain == header.clockDomain)
        #expect(read.wallClockAnchor == header.wallClockAnchor)
        #expect(read.traceID == header.traceID)
        #expect(read.producer == header.producer)
        #expect(read.hasSyntheticTimes == header.hasSyntheticTimes)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.contains("partial") }
        #expect(leftovers.isEmpty)
    }

    @Test("export, import, export: the same events, clock domain, wall-clock anchor and synthetic flag")
    func exportImportRoundTrip() throws {
        let scratch = try ScratchDirectory()
        let events = RandomEvents.make(count: 500, seed: 9)
        try writeTrace(events, to: scratch.path("a.lifetrace"), eventsPerFrame: 40)
        #expect(run(["export", scratch.path("a.lifetrace"), "-o", scratch.path("a.jsonl")]).code == .success)
        let imported = run(["import", scratch.path("a.jsonl"), "-o", scratch.path("b.lifetrace")])
        #expect(imported.code == .success, "\(imported.err)")
        let reader = try TraceReader(path: scratch.path("b.lifetrace"))
        var decoded: [Event] = []
        try reader.forEachEvent { _, event in decoded.append(event) }
        #expect(decoded == events)
        #expect(reader.header.clockDomain == header.clockDomain)
        #expect(reader.header.wallClockAnchor == header.wallClockAnchor)
        #expect(reader.header.hasSyntheticTimes == header.hasSyntheticTimes)
        #expect(run(["export", scratch.path("b.lifetrace"), "-o", scratch.path("b.jsonl")]).code == .success)
        let first = try String(contentsOfFile: scratch.path("a.jsonl"), encoding: .utf8).split(separator: "\n").dropFirst()
        let second = try String(contentsOfFile: scratch.path("b.jsonl"), encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(Array(first) == Array(second), "event lines are byte for byte the same")
    }

    @Test("export to standard output: a header line, then one line per event")
    func exportToStandardOutput() throws {
        let scratch = try ScratchDirectory()
        try writeTrace(story, to: scratch.path("t.lifetrace"))
        let result = run(["export", scratch.path("t.lifetrace")])
        #expect(result.code == .success)
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == story.count + 1)
        #expect(lines.first?.hasPrefix(#"{"lifetrace":{"format":"lifetrace-jsonl","version":1,"clock_domain":"machContinuousTime""#) == true)
        #expect(lines.last == #"{"t_ns":10214000000,"event":"didEnterBackground","phase":"instant","kind":"app","scene":"main"}"#)
        var reader = try JSONLReader(bytes: Array(result.out.utf8))
        #expect(try reader.readAll() == story)
    }

    @Test("a torn trace exports its readable prefix, warns on standard error, and exits 1")
    func tornTrace() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("torn.lifetrace")
        try writeTrace(story, to: path, eventsPerFrame: 2)
        let frames = try TraceReader(path: path).frames
        let cut = Int(frames[2].offset) + 10  // inside frame 2's header: frames 0 and 1 survive
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        try Data(bytes[..<cut]).write(to: URL(fileURLWithPath: path))

        let result = run(["export", path])
        #expect(result.code == .problemFound)
        #expect(result.err.contains("lifetrace export: warning:"))
        var reader = try JSONLReader(bytes: Array(result.out.utf8))
        #expect(try reader.readAll() == Array(story[..<4]))

        let listed = run(["events", path])
        #expect(listed.code == .problemFound)
        #expect(ordinals(listed.out) == [0, 1, 2, 3])
    }

    @Test("export refuses to overwrite its input, and names an unreadable trace")
    func exportErrors() throws {
        let scratch = try ScratchDirectory()
        try writeTrace(story, to: scratch.path("t.lifetrace"))
        let same = run(["export", scratch.path("t.lifetrace"), "-o", scratch.path("t.lifetrace")])
        #expect(same.code == .usageOrInput)
        #expect(same.err.contains("is the input trace"))
        #expect(try TraceReader(path: scratch.path("t.lifetrace")).eventCount == UInt64(story.count))

        let missing = run(["export", scratch.path("absent.lifetrace")])
        #expect(missing.code == .usageOrInput)
        #expect(missing.err.contains("absent.lifetrace"))

        let format = run(["export", scratch.path("t.lifetrace"), "--format", "csv"])
        #expect(format.code == .usageOrInput)
    }
}

@Suite("lifetrace events")
struct EventsCommandTests {
    @Test("text output: time since the first event, ordinal, summary")
    func textOutput() throws {
        let scratch = try ScratchDirectory()
        try writeTrace(story, to: scratch.path("t.lifetrace"))
        let result = run(["events", scratch.path("t.lifetrace")])
        #expect(result.code == .success, "\(result.err)")
        #expect(result.out == """
                0.000 s  #0  pushViewController container=UINavigationController#1 NoteEditorViewController#3 animated=true
                0.010 s  #1  NoteEditorViewController#3 viewWillAppear animated=true
                0.011 s  #2  NoteListViewController#2 viewWillDisappear animated=true
                2.500 s  #3  mark edit key=draft @ NoteEditorViewController#3
                4.904 s  #4  NoteEditorViewController#3 viewWillDisappear begin animated=true
                4.905 s  #5  mark save key=draft critical=true @ NoteEditorViewController#3  (in NoteEditorViewController#3.viewWillDisappear)
                4.905 s  #6  NoteEditorViewController#3 viewWillDisappear end animated=true
                9.214 s  #7  sceneDidEnterBackground(_:) scene=main

            """)
    }

    @Test("--from and --to select an inclusive window relative to the first event", arguments: [
        (["--from", "2.5s", "--to", "4904500000ns"], [3, 4, 5]),
        (["--from", "4904ms"], [4, 5, 6, 7]),
        (["--to", "0.0105"], [0, 1]),
        (["--from", "20s"], []),
    ] as [([String], [Int])])
    func timeWindow(options: [String], expected: [Int]) throws {
        let scratch = try ScratchDirectory()
        try writeTrace(story, to: scratch.path("t.lifetrace"), eventsPerFrame: 2)
        let result = run(["events", scratch.path("t.lifetrace")] + options)
        // Nothing in the window: exit 1, as grep when no line matches (NothingSelectedTests).
        #expect(result.code == (expected.isEmpty ? .problemFound : .success), "\(result.err)")
        #expect(ordinals(result.out) == expected)
    }

    @Test("--controller matches a display name or a type name; --kind a kind, an event name or a mark name", arguments: [
        (["--controller", "NoteEditorViewController#3"], [0, 1, 3, 4, 5, 6]),
        (["--controller", "NoteListViewController"], [2]),
        (["--controller", "UINavigationController#1"], [0]),
        (["--kind", "callback"], [1, 2, 4, 6]),
        (["--kind", "viewWillDisappear", "--controller", "NoteEditorViewController"], [4, 6]),
        (["--kind", "save", "--kind", "app"], [5, 7]),
        (["--kind", "mark", "--from", "3s"], [5]),
    ] as [([String], [Int])])
    func filters(options: [String], expected: [Int]) throws {
        let scratch = try ScratchDirectory()
        try writeTrace(story, to: scratch.path("t.lifetrace"))
        let result = run(["events", scratch.path("t.lifetrace")] + options)
        #expect(result.code == .success, "\(result.err)")
        #expect(ordinals(result.out) == expected)
    }

    @Test("--format jsonl prints the export schema without a header, readable back")
    func jsonlOutput() throws {
        let scratch = try ScratchDirectory()
        try writeTrace(story, to: scratch.path("t.lifetrace"))
        let result = run(["events", scratch.path("t.lifetrace"), "--kind", "mark", "--format", "jsonl"])
        #expect(result.code == .success)
        var reader = try JSONLReader(bytes: Array(result.out.utf8))
        #expect(reader.header == nil)
        #expect(try reader.readAll() == [story[3], story[5]])
    }

    @Test("a damaged earlier frame ends the readable prefix, with or without --from: nothing after it is listed")
    func damagedEarlierFrameEndsThePrefix() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("t.lifetrace")
        try writeTrace(story, to: path, eventsPerFrame: 2)
        let frames = try TraceReader(path: path).frames
        let second = try #require(frames.dropFirst().first)
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[Int(second.offset) + Int(second.totalLength) - 1] ^= 0xFF  // last payload byte of frame 1
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        // The valid prefix is frame 0 (events 0 and 1), even though the index lists the frames after the damage.
        let late = run(["events", path, "--from", "4s"])
        #expect(late.code == .problemFound, "\(late.err)")
        #expect(ordinals(late.out) == [])
        #expect(late.err.contains("damaged at offset \(second.offset)"), "\(late.err)")

        let all = run(["events", path])
        #expect(all.code == .problemFound)
        #expect(ordinals(all.out) == [0, 1])
        #expect(all.err.contains("t.lifetrace"))
    }

    @Test("a JSONL file works as input; a bad line stops with its line number and exit 2")
    func jsonlInput() throws {
        let scratch = try ScratchDirectory()
        let good = story.map { JSONLWriter.line(for: $0) }
        try (good.joined(separator: "\n") + "\n").write(toFile: scratch.path("ok.jsonl"), atomically: true, encoding: .utf8)
        let ok = run(["events", scratch.path("ok.jsonl"), "--from", "2.5s", "--to", "4.904s"])
        #expect(ok.code == .success, "\(ok.err)")
        #expect(ordinals(ok.out) == [3, 4])

        let bad = [good[0], good[1], #"{"t_ns":5,"event":"viewDidLoad","phase":"instant","controller":"A#1"}"#, good[3]]
        try (bad.joined(separator: "\n") + "\n").write(toFile: scratch.path("bad.jsonl"), atomically: true, encoding: .utf8)
        let failed = run(["events", scratch.path("bad.jsonl")])
        #expect(failed.code == .usageOrInput)
        #expect(failed.err.contains("bad.jsonl:3: time goes backwards"))
        #expect(ordinals(failed.out) == [0, 1], "events before the bad line are still listed")
    }

    @Test("bad arguments exit 2 with a message", arguments: [
        ["--from", "soon"], ["--kind", "gesture"], ["--format", "xml"], ["--from", "5s", "--to", "1s"],
    ])
    func badArguments(options: [String]) throws {
        let scratch = try ScratchDirectory()
        try writeTrace(story, to: scratch.path("t.lifetrace"))
        let result = run(["events", scratch.path("t.lifetrace")] + options)
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains("lifetrace events: error:"))
        #expect(result.out.isEmpty)
    }

    @Test("--help names the options and says how --controller matches")
    func help() {
        let result = run(["events", "--help"])
        #expect(result.code == .success)
        #expect(result.out.contains("--controller NAME"))
        #expect(result.out.contains("type name"))
    }
}

/// The ordinals (`#N`) of text output lines.
private func ordinals(_ text: String) -> [Int] {
    text.split(separator: "\n").compactMap { line in
        guard let hash = line.firstIndex(of: "#") else { return nil }
        return Int(line[line.index(after: hash)...].prefix { $0.isNumber })
    }
}
