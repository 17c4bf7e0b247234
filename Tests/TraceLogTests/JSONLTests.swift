import Foundation
import LifetraceTestSupport
import Testing
import TraceModel

@testable import TraceLog

/// Encodes `events` as JSONL bytes (no header).
private func encode(_ events: [Event]) throws -> [UInt8] {
    var bytes: [UInt8] = []
    var writer = JSONLWriter(flushThreshold: 4096) { bytes.append(contentsOf: $0) }
    for event in events { try writer.write(event) }
    try writer.finish()
    return bytes
}

/// Reads every event of `text`, named `in.jsonl` in errors.
private func decode(_ text: String) throws(JSONLError) -> [Event] {
    var reader = try JSONLReader(bytes: Array(text.utf8), file: "in.jsonl")
    return try reader.readAll()
}

/// The error reading `text` produces.
private func decodeError(_ text: String) -> JSONLError? {
    do {
        _ = try decode(text)
        return nil
    } catch {
        return error
    }
}

private let editor = ControllerRef(serial: 2, typeName: "NoteEditorViewController")
private let list = ControllerRef(serial: 1, typeName: "NoteListViewController")
private let navigation = ControllerRef(serial: 3, typeName: "UINavigationController")

@Suite("JSONL round trip")
struct JSONLRoundTripTests {
    @Test("random event streams come back equal, field for field", arguments: [1, 2, 3, 42, 2026] as [UInt64])
    func randomStreams(seed: UInt64) throws {
        let events = RandomEvents.make(count: 2_000, seed: seed)
        let bytes = try encode(events)
        var reader = try JSONLReader(bytes: bytes, file: "random.jsonl")
        let decoded = try reader.readAll()
        #expect(decoded.count == events.count)
        for (index, (original, roundTripped)) in zip(events, decoded).enumerated() where original != roundTripped {
            Issue.record("event \(index) differs:\n  \(JSONLWriter.line(for: original))\n  \(JSONLWriter.line(for: roundTripped))")
            break
        }
        #expect(decoded == events)
        #expect(reader.lineNumber == events.count)
    }

    @Test("the random stream covers every kind, phase and field value type")
    func generatorCoverage() {
        let events = RandomEvents.make(count: 2_000, seed: 1)
        let kinds = Set(events.map { JSONLSchema.Kind(of: $0.payload) })
        #expect(kinds == Set(JSONLSchema.Kind.allCases))
        let values = events.flatMap { event -> [FieldValue] in
            if case .mark(let mark) = event.payload { return mark.fields.map(\.value) }
            return []
        }
        #expect(values.contains { $0.intValue != nil })
        #expect(values.contains { $0.boolValue != nil })
        #expect(values.contains { $0.stringValue != nil })
        #expect(values.contains { if case .double = $0 { true } else { false } })
        #expect(events.contains { $0.controller?.label != nil })
        #expect(events.contains { $0.source != nil })
    }

    @Test("reading a file in chunks smaller than a line gives the same events")
    func fileInSmallChunks() throws {
        let events = RandomEvents.make(count: 300, seed: 7)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("jsonl-chunks-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(try encode(events)).write(to: URL(fileURLWithPath: path))
        for chunk in [1, 7, 100, 1 << 20] {
            var reader = try JSONLReader(path: path, chunkSize: chunk)
            #expect(try reader.readAll() == events, "chunk size \(chunk)")
        }
    }

    @Test("field value types survive: int, double, bool and string stay apart")
    func fieldTypes() throws {
        let mark = MarkEvent("custom", controller: editor, fields: [
            MarkField("int", .int(3)), MarkField("double", .double(3)), MarkField("bool", .bool(true)),
            MarkField("string", .string("3")), MarkField("big", .int(.max)), MarkField("small", .int(.min)),
            MarkField("tiny", .double(.leastNonzeroMagnitude)), MarkField("inf", .double(.infinity)), MarkField("dup", .int(1)),
            MarkField("dup", .int(2)),
        ])
        let event = Event.mark(mark, at: 5)
        let line = JSONLWriter.line(for: event)
        #expect(line.contains(#""fields":{"int":3,"double":3.0,"bool":true,"string":"3","big":9223372036854775807,"small":-9223372036854775808,"tiny":5e-324,"inf":{"double":"Infinity"},"dup":1,"dup":2}"#))
        #expect(try decode(line) == [event])
    }

    @Test("a NaN field is written as {\"double\":\"NaN\"} and read back as NaN")
    func notANumber() throws {
        let event = Event.mark(MarkEvent("m", fields: [MarkField("x", .double(.nan))]), at: 1)
        let line = JSONLWriter.line(for: event)
        #expect(line.contains(#""x":{"double":"NaN"}"#))
        let decoded = try decode(line)
        guard case .mark(let mark) = try #require(decoded.first).payload else {
            Issue.record("not a mark")
            return
        }
        #expect(mark[field: "x"]?.doubleValue?.isNaN == true)
    }

    @Test("the line for a callback reads as the schema says")
    func callbackLine() {
        let event = Event.callback(CallbackEvent(.viewWillDisappear, .begin, controller: editor, animated: true), at: 1_500_000_000)
        #expect(JSONLWriter.line(for: event) == #"{"t_ns":1500000000,"event":"viewWillDisappear","phase":"begin","kind":"callback","controller":"NoteEditorViewController#2","serial":2,"type":"NoteEditorViewController","animated":true}"#)
        let removal = Event.callback(CallbackEvent(.didMoveToParent, .instant, controller: editor, parent: ParentArgument.none), at: 7)
        #expect(JSONLWriter.line(for: removal).hasSuffix(#""event":"didMove(toParent:)","phase":"instant","kind":"callback","controller":"NoteEditorViewController#2","serial":2,"type":"NoteEditorViewController","parent":null}"#))
    }

    @Test("the line for a container operation lists its controllers with serial and type")
    func containerLine() throws {
        let labelled = ControllerRef(serial: 9, typeName: "PhotoPageViewController", label: "0")
        let event = Event.container(ContainerEvent(.push, container: navigation, controllers: [labelled], animated: false), at: 10)
        let line = JSONLWriter.line(for: event)
        #expect(line == #"{"t_ns":10,"event":"pushViewController","phase":"instant","kind":"container","controller":"PhotoPageViewController<0>","container":{"name":"UINavigationController#3","serial":3,"type":"UINavigationController"},"controllers":[{"name":"PhotoPageViewController<0>","serial":9,"type":"PhotoPageViewController","label":"0"}],"animated":false}"#)
        #expect(try decode(line) == [event])
    }

    @Test("strings with quotes, backslashes, control characters and non-ASCII text are escaped and restored")
    func stringEscapes() throws {
        let text = "a\"b\\c\n\t\u{0}\u{1F}é🧭/\u{7F}"
        let event = Event(timestamp: 1, .recorder(.note(text)), source: EventSource(text: text, file: "f", line: 3))
        let line = JSONLWriter.line(for: event)
        #expect(line.contains(#""text":"a\"b\\c\n\t\u0000\u001fé🧭/"#))
        #expect(try decode(line) == [event])
    }

    @Test("\\u escapes, surrogate pairs and escaped slashes are read")
    func unicodeEscapes() throws {
        let events = try decode(#"{"t_ns":1,"event":"note","phase":"instant","text":"\u00e9\ud83e\udded\/"}"#)
        #expect(events == [Event(timestamp: 1, .recorder(.note("é🧭/")))])
    }
}

@Suite("JSONL hand-written input")
struct JSONLHandWrittenTests {
    @Test("minimal lines: kind inferred, controllers named by display name only")
    func minimalLines() throws {
        let events = try decode("""
            {"t_ns": 0, "event": "viewDidLoad", "phase": "instant", "controller": "NoteEditorViewController#2"}

            {"t_ns": 5, "event": "viewWillAppear", "phase": "begin", "controller": "NoteEditorViewController#2", "animated": true}
            {"t_ns": 6, "event": "pushViewController", "phase": "instant", "container": "UINavigationController#3", "controllers": ["NoteEditorViewController#2"]}
            {"t_ns": 7, "event": "viewWillAppear", "phase": "begin", "controller": "PhotoPageViewController<0>"}
            {"t_ns": 8, "event": "viewDidAppear", "phase": "end", "controller": "PhotoPageViewController<0>"}
            {"t_ns": 9, "event": "didReceiveMemoryWarning", "phase": "instant"}
            {"t_ns": 9, "event": "didReceiveMemoryWarning", "phase": "instant", "controller": "NoteEditorViewController#2"}
            {"t_ns": 10, "event": "mark", "phase": "instant", "name": "save", "fields": {"key": "draft", "critical": true}, "controller": "NoteEditorViewController#2", "unknown_member": [1, {"x": null}]}
            """)
        #expect(events.count == 8)
        #expect(events[0] == Event.callback(CallbackEvent(.viewDidLoad, .instant, controller: editor), at: 0))
        #expect(events[1] == Event.callback(CallbackEvent(.viewWillAppear, .begin, controller: editor, animated: true), at: 5))
        #expect(events[2] == Event.container(ContainerEvent(.push, container: navigation, controllers: [editor]), at: 6))
        let page = ControllerRef(serial: 4, typeName: "PhotoPageViewController", label: "0")
        #expect(events[3].controller == page)
        #expect(events[4].controller == page, "the same name resolves to the same controller")
        #expect(events[5] == Event.app(AppEvent(.didReceiveMemoryWarning), at: 9))
        #expect(events[6] == Event.callback(CallbackEvent(.didReceiveMemoryWarning, .instant, controller: editor), at: 9))
        #expect(events[7] == Event.mark(.save(key: "draft", critical: true, controller: editor), at: 10))
    }

    @Test("a UTF-8 byte order mark before line 1 (header or event) is skipped, from bytes and from a file in any chunking")
    func byteOrderMark() throws {
        let events = RandomEvents.make(count: 50, seed: 11)
        let plain = try encode(events)
        let marked: [UInt8] = [0xEF, 0xBB, 0xBF] + plain
        var fromBytes = try JSONLReader(bytes: marked, file: "bom.jsonl")
        #expect(try fromBytes.readAll() == events)
        let headerLine = #"{"lifetrace":{"format":"lifetrace-jsonl","version":1,"producer":"p"}}"# + "\n"
        var withHeader = try JSONLReader(bytes: [0xEF, 0xBB, 0xBF] + Array(headerLine.utf8) + plain, file: "bom.jsonl")
        #expect(withHeader.header?.producer == "p")
        #expect(try withHeader.readAll() == events)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("jsonl-bom-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(marked).write(to: URL(fileURLWithPath: path))
        for chunk in [1, 2, 5, 1 << 20] {
            var reader = try JSONLReader(path: path, chunkSize: chunk)
            #expect(try reader.readAll() == events, "chunk size \(chunk)")
        }
        // Only before line 1: a mark starting a later line is still not JSON, reported on that line.
        let later = Array(#"{"t_ns":1,"event":"note","phase":"instant","text":"a"}"#.utf8) + [0x0A, 0xEF, 0xBB, 0xBF] + Array(#"{"t_ns":2,"event":"note","phase":"instant","text":"b"}"#.utf8)
        var laterReader = try JSONLReader(bytes: later, file: "late.jsonl")
        let error = #expect(throws: JSONLError.self) { try laterReader.readAll() }
        #expect(error?.line == 2)
    }

    @Test("CRLF line endings and blank lines are accepted; line numbers still count every line")
    func crlfAndBlankLines() throws {
        let text = "{\"t_ns\":1,\"event\":\"note\",\"phase\":\"instant\",\"text\":\"a\"}\r\n\r\n   \r\n{\"t_ns\":0,\"event\":\"note\",\"phase\":\"instant\",\"text\":\"b\"}\r\n"
        let error = try #require(decodeError(text))
        #expect(error.line == 4)
        #expect(error.code == .timeWentBackwards)
    }
}

@Suite("JSONL bad input")
struct JSONLBadInputTests {
    static let good = #"{"t_ns":1,"event":"viewDidLoad","phase":"instant","controller":"A#1"}"#

    /// Bad lines placed on line 3 after two good lines, and the error code each must give.
    static let cases: [(name: String, line: String, code: JSONLError.Code, mentions: String)] = [
        ("not JSON", #"{"t_ns": 2, "event": "viewDidLoad""#, .notJSON, "not JSON"),
        ("plain text", "viewWillAppear NoteEditorViewController", .notJSON, "not JSON"),
        ("trailing garbage", #"{"t_ns":2,"event":"note","phase":"instant","text":"x"} x"#, .notJSON, "column"),
        ("not an object", "[1, 2, 3]", .notAnObject, "array"),
        ("unknown event", #"{"t_ns":2,"event":"viewWillExplode","phase":"instant","controller":"A#1"}"#, .unknownEvent, "viewWillExplode"),
        ("unknown kind", #"{"t_ns":2,"event":"viewDidLoad","phase":"instant","kind":"gesture","controller":"A#1"}"#, .unknownEvent, "gesture"),
        ("event of another kind", #"{"t_ns":2,"event":"viewDidLoad","phase":"instant","kind":"app"}"#, .unknownEvent, #"event "viewDidLoad" is of kind "callback", not "app""#),
        ("no such event of an existing kind", #"{"t_ns":2,"event":"frobnicate","phase":"instant","kind":"unknown"}"#, .unknownEvent, #"kind "unknown" has no event "frobnicate" (its event is "unknown")"#),
        ("missing t_ns", #"{"event":"viewDidLoad","phase":"instant","controller":"A#1"}"#, .missingField, "t_ns"),
        ("missing event", #"{"t_ns":2,"phase":"instant","controller":"A#1"}"#, .missingField, "event"),
        ("missing phase", #"{"t_ns":2,"event":"viewDidLoad","controller":"A#1"}"#, .missingField, "phase"),
        ("missing controller", #"{"t_ns":2,"event":"viewDidLoad","phase":"instant"}"#, .missingField, "controller"),
        ("missing controllers", #"{"t_ns":2,"event":"pushViewController","phase":"instant"}"#, .missingField, "controllers"),
        ("missing mark name", #"{"t_ns":2,"event":"mark","phase":"instant"}"#, .missingField, "name"),
        ("negative time", #"{"t_ns":-2,"event":"viewDidLoad","phase":"instant","controller":"A#1"}"#, .badField, "t_ns"),
        ("fractional time", #"{"t_ns":2.5,"event":"viewDidLoad","phase":"instant","controller":"A#1"}"#, .badField, "t_ns"),
        ("time as string", #"{"t_ns":"2","event":"viewDidLoad","phase":"instant","controller":"A#1"}"#, .badField, "t_ns"),
        ("time too large", #"{"t_ns":18446744073709551616,"event":"viewDidLoad","phase":"instant","controller":"A#1"}"#, .badField, "t_ns"),
        ("bad phase", #"{"t_ns":2,"event":"viewDidLoad","phase":"middle","controller":"A#1"}"#, .badField, "middle"),
        ("animated not a bool", #"{"t_ns":2,"event":"viewWillAppear","phase":"begin","controller":"A#1","animated":"yes"}"#, .badField, "animated"),
        ("serial out of range", #"{"t_ns":2,"event":"viewDidLoad","phase":"instant","controller":"A#1","serial":4294967296,"type":"A"}"#, .badField, #""serial" must be a controller serial, an integer from 1 to 4294967295 (2^32 − 1; serials start at 1); got 4294967296"#),
        ("serial beyond 64 bits", #"{"t_ns":2,"event":"viewDidLoad","phase":"instant","controller":"A#1","serial":18446744073709551616,"type":"A"}"#, .badField, "from 1 to 4294967295 (2^32 − 1; serials start at 1); got 18446744073709551616"),
        ("nested serial out of range", #"{"t_ns":2,"event":"pushViewController","phase":"instant","controllers":[{"serial":4294967296,"type":"A"}]}"#, .badField, #""controllers.serial" must be a controller serial"#),
        ("bad style", #"{"t_ns":2,"event":"present","phase":"instant","controllers":["A#1"],"style":"sideways"}"#, .badField, "sideways"),
        ("field value null", #"{"t_ns":2,"event":"mark","phase":"instant","name":"m","fields":{"x":null}}"#, .badField, "fields.x"),
        ("bad base64", #"{"t_ns":2,"event":"unknown","phase":"instant","tag":9,"body":"***"}"#, .badField, "base64"),
        ("tag too large", #"{"t_ns":2,"event":"unknown","phase":"instant","tag":300,"body":""}"#, .badField, "tag"),
        ("begin phase on a SwiftUI event", #"{"t_ns":2,"event":"onAppear","phase":"begin","view":"V"}"#, .badField, "phase"),
        ("time goes backwards", #"{"t_ns":0,"event":"viewDidLoad","phase":"instant","controller":"A#1"}"#, .timeWentBackwards, "t_ns 0 after 1"),
        ("header after the first line", #"{"lifetrace":{"version":1}}"#, .misplacedHeader, "first line"),
        ("deep nesting", String(repeating: "[", count: 10_000), .notJSON, "nesting"),
        ("unterminated string", #"{"t_ns":2,"event":"note"#, .notJSON, "unterminated"),
        ("a member given twice", #"{"t_ns":2,"t_ns":99,"event":"viewDidLoad","phase":"instant","controller":"A#1"}"#, .notJSON, #"member "t_ns" appears twice in the same object at column 11"#),
        ("a member given twice after a nested object", #"{"t_ns":2,"event":"mark","phase":"instant","name":"m","fields":{"a":1},"name":"n"}"#, .notJSON, #"member "name" appears twice"#),
        ("raw control character", "{\"t_ns\":2,\"event\":\"note\",\"phase\":\"instant\",\"text\":\"a\u{1}\"}", .notJSON, "control"),
    ]

    @Test("each bad line gives a JSONLError naming the file and line 3", arguments: 0..<cases.count)
    func badLine(index: Int) throws {
        let bad = Self.cases[index]
        let text = [Self.good, Self.good, bad.line, Self.good].joined(separator: "\n")
        let error = try #require(decodeError(text), "\(bad.name) was accepted")
        #expect(error.line == 3, "\(bad.name)")
        #expect(error.file == "in.jsonl")
        #expect(error.code == bad.code, "\(bad.name): \(error)")
        #expect(error.description.hasPrefix("in.jsonl:3: "))
        #expect(error.description.contains(bad.mentions), "\(bad.name): \(error)")
    }

    @Test("invalid UTF-8 in a string is an error on its line")
    func invalidUTF8() throws {
        var bytes = Array((Self.good + "\n").utf8)
        bytes += Array(#"{"t_ns":2,"event":"note","phase":"instant","text":""#.utf8) + [0xC3, 0x28] + Array("\"}\n".utf8)
        var reader = try JSONLReader(bytes: bytes, file: "u.jsonl")
        #expect(try reader.next() != nil)
        #expect(throws: JSONLError.self) { try reader.next() }
        do {
            _ = try reader.next()
        } catch {
            Issue.record("reader should be past the bad line: \(error)")
        }
    }

    @Test("a header from a newer schema version is refused on line 1")
    func newerVersion() throws {
        let error = try #require(decodeError(#"{"lifetrace":{"version":99}}"# + "\n" + Self.good))
        #expect(error.code == .unsupportedVersion)
        #expect(error.line == 1)
    }

    @Test("a missing file is an unreadable-input error naming the path")
    func missingFile() {
        #expect {
            _ = try JSONLReader(path: "/nonexistent/dir/x.jsonl")
        } throws: { error in
            let error = error as? JSONLError
            return error?.code == .unreadable && error?.description.hasPrefix("/nonexistent/dir/x.jsonl: cannot open") == true
        }
    }

    @Test("cutting or flipping bytes of a valid export never traps: it reads or throws with a line number")
    func truncationAndBitFlips() throws {
        let bytes = try encode(RandomEvents.make(count: 40, seed: 11))
        var generator = SeededGenerator(seed: 99)
        for cut in stride(from: 0, through: bytes.count, by: 3) {
            readNeverTraps(Array(bytes[..<cut]))
        }
        for _ in 0..<2_000 {
            var flipped = bytes
            let position = Int(generator.next() % UInt64(bytes.count))
            flipped[position] ^= UInt8(1) << (generator.next() % 8)
            readNeverTraps(flipped)
        }
    }

    private func readNeverTraps(_ bytes: [UInt8]) {
        do {
            var reader = try JSONLReader(bytes: bytes, file: "x")
            _ = try reader.readAll()
        } catch {
            #expect(error.line >= 1)
        }
    }

    @Test("the writer refuses an event earlier than the previous one, naming both timestamps")
    func writerRefusesBackwardsTime() throws {
        var writer = JSONLWriter { _ in }
        try writer.write(Event(timestamp: 10, .recorder(.note("a"))))
        #expect {
            try writer.write(Event(timestamp: 9, .recorder(.note("b"))))
        } throws: { error in
            (error as? JSONLError)?.code == .timeWentBackwards && "\(error)".contains("t_ns 9 after 10")
        }
    }
}

@Suite("JSONL header")
struct JSONLHeaderTests {
    @Test("the header line carries clock domain, anchor, trace id, producer and the synthetic flag")
    func headerRoundTrip() throws {
        let header = TraceHeader(
            clockDomain: .linuxBoottime,
            wallClockAnchor: WallClockAnchor(unixNanoseconds: -5, monotonicNanoseconds: .max),
            producer: "tests \"quoted\"",
            hasSyntheticTimes: true
        )
        var bytes: [UInt8] = []
        var writer = JSONLWriter { bytes.append(contentsOf: $0) }
        try writer.writeHeader(header)
        try writer.write(Event(timestamp: 3, .recorder(.note("x"))))
        try writer.finish()
        var reader = try JSONLReader(bytes: bytes, file: "h.jsonl")
        #expect(reader.header == header)
        #expect(try reader.readAll() == [Event(timestamp: 3, .recorder(.note("x")))])
    }

    @Test("a header after an event is refused by the writer")
    func headerAfterEvent() throws {
        var writer = JSONLWriter { _ in }
        try writer.write(Event(timestamp: 3, .recorder(.note("x"))))
        #expect(throws: JSONLError.self) {
            try writer.writeHeader(TraceHeader(clockDomain: .unknown, wallClockAnchor: .none, producer: "p"))
        }
    }

    @Test("absent header members take defaults", arguments: [#"{"lifetrace":{}}"#, #"{"lifetrace":{"version":1,"clock_domain":"unknown"}}"#])
    func defaults(line: String) throws {
        let reader = try JSONLReader(bytes: Array(line.utf8))
        let header = try #require(reader.header)
        #expect(header.clockDomain == .unknown)
        #expect(header.wallClockAnchor == .none)
        #expect(header.producer == JSONLSchema.defaultProducer)
        #expect(header.hasSyntheticTimes == false)
        #expect(header.traceID.count == 16)
    }

    @Test("bad header members are named, on line 1", arguments: [
        (#"{"lifetrace":{"trace_id":"xyz"}}"#, "trace_id"),
        (#"{"lifetrace":{"clock_domain":"sundial"}}"#, "sundial"),
        (#"{"lifetrace":{"wall_clock_anchor":{"unix_ns":1.5}}}"#, "unix_ns"),
        (#"{"lifetrace":{"synthetic_times":"yes"}}"#, "synthetic_times"),
        (#"{"lifetrace":[]}"#, "object"),
    ])
    func badHeader(line: String, mentions: String) throws {
        #expect {
            _ = try JSONLReader(bytes: Array((line + "\n" + JSONLBadInputTests.good).utf8), file: "h.jsonl")
        } throws: { error in
            guard let error = error as? JSONLError else { return false }
            return error.code == .badHeader && error.line == 1 && error.description.hasPrefix("h.jsonl:1: ")
                && error.description.contains(mentions)
        }
    }

    @Test("the example export in docs/JSONL.md reads back and re-writes byte for byte")
    func documentedExample() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent("docs/JSONL.md"), encoding: .utf8)
        let start = try #require(doc.range(of: "```jsonl\n"))
        let end = try #require(doc.range(of: "\n```", range: start.upperBound..<doc.endIndex))
        let example = String(doc[start.upperBound..<end.lowerBound]) + "\n"
        var reader = try JSONLReader(bytes: Array(example.utf8), file: "JSONL.md")
        let events = try reader.readAll()
        #expect(events.count == 9)
        var bytes: [UInt8] = []
        var writer = JSONLWriter { bytes.append(contentsOf: $0) }
        try writer.writeHeader(try #require(reader.header))
        for event in events { try writer.write(event) }
        try writer.finish()
        #expect(String(decoding: bytes, as: UTF8.self) == example)
    }
}
