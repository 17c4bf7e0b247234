import Foundation
import LifetraceTestSupport
import Testing
import TraceLog
import TraceModel

@testable import LifetraceCLI

/// `lifetrace events` reads a `.lifetrace` file's records in place (`EventsCommand.Listing.listRecords`); its
/// output must be byte for byte what decoding every event into an `Event` and filtering those gives
/// (`listEvents`, the reference), for every filter: `--controller` by type name, `Type#N`, labelled names, several
/// names, names that match nothing; `--kind`; `--from`/`--to`; text and jsonl; `--visible`; damaged traces.
@Suite("lifetrace events: the record path prints what the event path prints")
struct EventsRecordPathTests {
    struct Outcome: Equatable, CustomStringConvertible {
        var code: ExitCode
        var out: String
        var err: String
        /// Writes to standard output (the same chunks either way, and none after the output closed).
        var writes: Int
        var description: String { "exit \(code), \(out.utf8.count) bytes out in \(writes) writes, stderr: \(err)" }
    }

    /// `lifetrace events ARGUMENTS`, reading the trace as `reading` says, with `Lifetrace.run`'s error handling;
    /// with `closedAfter`, standard output reports itself closed after that many writes (a pipe whose reader left).
    static func events(_ arguments: [String], reading: EventsCommand.Reading, closedAfter: Int? = nil) -> Outcome {
        let captured = CapturedOutput()
        var writes = 0
        let output = CommandOutput(
            standardOutput: { text in
                writes += 1
                if let closedAfter, writes > closedAfter { return }
                captured.standardOutput += text
            },
            standardError: { captured.standardError += $0 },
            isStandardOutputClosed: { closedAfter.map { writes >= $0 } ?? false })
        let code: ExitCode
        do {
            let parsed = try EventsCommand.spec.parse(arguments)
            code = try EventsCommand.run(parsed, output: output, reading: reading)
        } catch {
            output.errorLine("lifetrace events: error: \(error)")
            code = .usageOrInput
        }
        return Outcome(code: code, out: captured.standardOutput, err: captured.standardError, writes: writes)
    }

    /// Runs every query both ways and expects equal outcomes; returns how many queries printed something.
    @discardableResult
    static func expectSame(_ trace: String, _ queries: [[String]], sourceLocation: SourceLocation = #_sourceLocation) -> Int {
        var printing = 0
        for query in queries {
            let arguments = [trace] + query
            let fast = events(arguments, reading: .records)
            let reference = events(arguments, reading: .events)
            #expect(fast == reference, "lifetrace events \(query.joined(separator: " "))", sourceLocation: sourceLocation)
            if fast != reference, let line = zip(fast.out.split(separator: "\n"), reference.out.split(separator: "\n")).first(where: { $0 != $1 }) {
                Issue.record("first differing line:\n  records: \(line.0)\n  events:  \(line.1)", sourceLocation: sourceLocation)
            }
            if !reference.out.isEmpty { printing += 1 }
        }
        return printing
    }

    /// The controllers a trace's readable events name, most named first (ties by display name).
    static func controllers(of trace: String) throws -> [ControllerRef] {
        var counts: [ControllerRef: Int] = [:]
        let reader = try TraceReader(path: trace)
        var events = reader.events()  // the readable events (up to a frame that does not decode)
        while let (_, event) = events.next() {
            for ref in event.controllers { counts[ref, default: 0] += 1 }
        }
        return counts.sorted { ($0.value, $1.key.displayName) > ($1.value, $0.key.displayName) }.map(\.key)
    }

    /// Queries over a trace: `--controller` by display name and type name (the most named controllers, a labelled
    /// one, one without a type name), several at once, names that match nothing; `--kind` alone and with names;
    /// the whole trace, its middle half, from the middle, up to the middle; text and jsonl.
    static func queries(for trace: String, controllerCount: Int = 4) throws -> [[String]] {
        let refs = try controllers(of: trace)
        let reader = try TraceReader(path: trace)
        let span = try #require(reader.timeSpan)
        let length = span.upperBound - span.lowerBound
        let ranges: [[String]] = [
            [], ["--from", "\(length / 4)ns", "--to", "\(length - length / 4)ns"], ["--from", "\(length / 2)ns"],
            ["--to", "\(length / 2)ns"],
        ]
        var names: [[String]] = [[]]
        var picked = Array(refs.prefix(controllerCount))
        if let labelled = refs.first(where: { $0.label != nil && !$0.typeName.isEmpty }) { picked.append(labelled) }
        if let bare = refs.first(where: { $0.typeName.isEmpty }) { picked.append(bare) }
        for ref in picked {
            names.append(["--controller", ref.displayName])
            names.append(["--controller", ref.typeName])
        }
        if refs.count >= 3 {
            names.append(["--controller", refs[1].displayName, "--controller", refs[2].typeName])
        }
        names.append(["--controller", "NoSuchViewController"])
        names.append(["--controller", (refs.first?.typeName ?? "T") + "#999999"])
        let kinds: [[String]] = [
            [], ["--kind", "callback"], ["--kind", "container"], ["--kind", "mark"], ["--kind", "viewWillAppear"],
            ["--kind", "save", "--kind", "didMoveToParent"], ["--kind", "app", "--kind", "swiftUI"],
            ["--kind", "recorder", "--kind", "unknown"],
        ]
        var queries: [[String]] = []
        for (index, name) in names.enumerated() {
            for (position, range) in ranges.enumerated() {
                for format in ["text", "jsonl"] {
                    let kind = name.isEmpty ? [] : kinds[(index + position) % kinds.count]
                    queries.append(name + kind + range + ["--format", format])
                }
            }
        }
        for kind in kinds.dropFirst() {
            for format in ["text", "jsonl"] { queries.append(kind + ranges[1] + ["--format", format]) }
        }
        return queries
    }

    static let header = TraceHeader(clockDomain: .synthetic, wallClockAnchor: .none, producer: "events-record-path-tests")

    static func write(_ events: [Event], to path: String, eventsPerFrame: Int) throws {
        var options = TraceWriter.Options()
        options.maxEventsPerFrame = eventsPerFrame
        let writer = try TraceWriter(creating: path, header: header, options: options)
        for event in events { try writer.append(event) }
        try writer.close()
    }

    @Test("random events of every kind (sources, sizes, labels, odd strings), small frames", arguments: [UInt64(1), 2, 3])
    func randomTraces(seed: UInt64) throws {
        let scratch = try CLIScratch("events-records")
        let path = scratch.path("random.lifetrace")
        try Self.write(RandomEvents.make(count: 1_200, seed: seed), to: path, eventsPerFrame: 97)
        let printing = Self.expectSame(path, try Self.queries(for: path))
        #expect(printing > 20)
    }

    @Test("a simulated session (navigation, presentation, tabs, containment, marks, SwiftUI, background)")
    func simulatedSession() throws {
        let scratch = try CLIScratch("events-records")
        let path = scratch.path("session.lifetrace")
        try #require(runCLI(["simulate", "--generate", "20000", "--seed", "8", "-o", path]).code == .success)
        let printing = Self.expectSame(path, try Self.queries(for: path, controllerCount: 3))
        #expect(printing > 20)
    }

    @Test("every committed sample trace and imported case")
    func sampleTraces() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var traces: [String] = []
        for directory in ["traces", "traces/cases", "Tests/Fixtures/format-1.0"] {
            let url = root.appendingPathComponent(directory)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            traces += names.filter { $0.hasSuffix(".lifetrace") }.sorted().map { url.appendingPathComponent($0).path }
        }
        try #require(traces.count >= 5)
        for trace in traces {
            Self.expectSame(trace, try Self.queries(for: trace, controllerCount: 2))
        }
    }

    @Test("a frame that passes its CRCs but does not decode: the same events before it, the same error")
    func undecodableFrame() throws {
        let fixture = try UndecodableFrameTests.Fixture()
        let refs = try Self.controllers(of: fixture.path)
        let name = try #require(refs.first).displayName
        var queries: [[String]] = []
        for format in ["text", "jsonl"] {
            queries.append(["--format", format])
            queries.append(["--controller", name, "--format", format])
            queries.append(["--from", fixture.before, "--format", format])
            queries.append(["--from", fixture.after, "--controller", name, "--format", format])
            queries.append(["--to", fixture.before, "--format", format])
        }
        Self.expectSame(fixture.path, queries)
        let broken = Self.events([fixture.path, "--format", "jsonl"], reading: .records)
        #expect(broken.code == .usageOrInput)
        #expect(broken.err.contains("events frame \(fixture.sequence)"))
    }

    @Test("--visible, and an empty selection's warning, are the same either way")
    func visibleAndWarnings() throws {
        let scratch = try CLIScratch("events-records")
        let path = scratch.path("session.lifetrace")
        try #require(runCLI(["simulate", "--generate", "3000", "--seed", "4", "-o", path]).code == .success)
        let name = try #require(try Self.controllers(of: path).first).displayName
        Self.expectSame(path, [
            ["--visible", name], ["--visible", name, "--format", "jsonl"], ["--controller", "Nope#1"],
            ["--controller", "Nope", "--controller", "Other#2", "--format", "jsonl"],
        ])
        let warned = Self.events([path, "--controller", "Nope#1"], reading: .records)
        #expect(warned.err.contains("no event matched --controller 'Nope#1'"))
    }

    @Test("standard output closed part-way (lifetrace events T | head): both stop at the same event")
    func closedOutput() throws {
        let scratch = try CLIScratch("events-records")
        let path = scratch.path("session.lifetrace")
        try #require(runCLI(["simulate", "--generate", "20000", "--seed", "5", "-o", path]).code == .success)
        let name = try #require(try Self.controllers(of: path).first).typeName
        for query in [["--format", "jsonl"], ["--format", "text"], ["--controller", name], ["--controller", name, "--format", "jsonl"]] {
            for closedAfter in [1, 3] {
                let fast = Self.events([path] + query, reading: .records, closedAfter: closedAfter)
                let reference = Self.events([path] + query, reading: .events, closedAfter: closedAfter)
                #expect(fast == reference, "\(query) closed after \(closedAfter) writes")
                #expect(!fast.out.isEmpty)
            }
        }
    }

    @Test("lifetrace events reads records by default")
    func defaultIsRecords() throws {
        let scratch = try CLIScratch("events-records")
        let path = scratch.path("random.lifetrace")
        try Self.write(RandomEvents.make(count: 300, seed: 9), to: path, eventsPerFrame: 64)
        let name = try #require(try Self.controllers(of: path).first).typeName
        let arguments = [path, "--controller", name, "--format", "jsonl"]
        let viaRun = runCLI(["events"] + arguments)
        let records = Self.events(arguments, reading: .records)
        #expect(viaRun.code == records.code && viaRun.out == records.out && viaRun.err == records.err)
        #expect(!records.out.isEmpty)
    }

    @Test("JSONLines hands the output what JSONLWriter does, and refuses time going backwards the same way")
    func jsonLinesMirrorsTheWriter() throws {
        let events = RandomEvents.make(count: 900, seed: 12)
        var backwards = Array(events.prefix(600))
        backwards.append(Event(timestamp: events[0].timestamp - 1, .recorder(.note("late"))))
        for sequence in [events, backwards] {
            var chunksA: [String] = []
            var chunksB: [String] = []
            let outputA = CommandOutput(standardOutput: { chunksA.append($0) }, standardError: { _ in })
            var writer = JSONLWriter { bytes in outputA.write(String(decoding: bytes, as: UTF8.self)) }
            var lines = JSONLines(output: CommandOutput(standardOutput: { chunksB.append($0) }, standardError: { _ in }))
            var errorA: String?
            var errorB: String?
            for event in sequence {
                do { try writer.write(event) } catch { errorA = errorA ?? "\(error)" }
                do { try lines.append(event) } catch { errorB = errorB ?? "\(error)" }
                if errorA != nil || errorB != nil { break }
            }
            if errorA == nil { try writer.finish() }
            if errorB == nil { try lines.finish() }
            #expect(errorA == errorB)
            #expect(chunksA == chunksB)
        }
    }
}
