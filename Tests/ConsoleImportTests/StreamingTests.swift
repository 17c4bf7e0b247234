import Testing
import TraceModel
@testable import ConsoleImport

/// `LogLineSplitter` and `ConsoleLogSession`: reading a log in chunks and line by line gives exactly what parsing
/// it whole gives.
@Suite("Streaming")
struct StreamingTests {
    /// Splits `bytes` into chunks of `size` and collects the lines as text with their numbers and lengths.
    static func split(_ bytes: [UInt8], chunk size: Int, maximum: Int = LogLineSplitter.defaultMaximumLineBytes) -> [LogLine] {
        var splitter = LogLineSplitter(maximumLineBytes: maximum)
        var lines: [LogLine] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + size)
            splitter.split(Array(bytes[start..<end])) { lines.append(LogLine(number: $0.number, bytes: Array($0.bytes)[...], length: $0.length)) }
            start = end
        }
        splitter.finish { lines.append(LogLine(number: $0.number, bytes: Array($0.bytes)[...], length: $0.length)) }
        return lines
    }

    static let mixedEndings = "A viewDidLoad\r\nB viewWillAppear\rC viewDidAppear\n\n\r\nD deinit\r\r\nlast line without newline"

    @Test("lines end at \\n, \\r\\n and \\r in any chunking, as parse(text:) splits them", arguments: [1, 2, 3, 5, 16, 4096])
    func lineEndings(chunk: Int) {
        var expected: [String] = []
        Self.mixedEndings.enumerateLinesWithoutFoundation { expected.append(String($0)) }
        let lines = Self.split(Array(Self.mixedEndings.utf8), chunk: chunk)
        #expect(lines.map { $0.decoded().text } == expected)
        #expect(lines.map(\.number) == Array(1...expected.count))
    }

    @Test("lines of any length, ended by \\n, \\r\\n or \\r alone, split as parse(text:) splits them", arguments: [1000, 4096, 1 << 20])
    func longMixedLines(chunk: Int) {
        // Lengths around and past the splitter's search window (512 bytes), and many empty `\r` lines in a row.
        var text = ""
        for (index, length) in [0, 1, 511, 512, 513, 1500, 3000, 0, 0, 700, 2].enumerated() {
            text += String(repeating: Character(UnicodeScalar(UInt8(0x61 + index % 26))), count: length)
            text += ["\n", "\r\n", "\r"][index % 3]
        }
        text += String(repeating: "\r", count: 2000) + "end"
        var expected: [String] = []
        text.enumerateLinesWithoutFoundation { expected.append(String($0)) }
        let lines = Self.split(Array(text.utf8), chunk: chunk)
        #expect(lines.map { $0.decoded().text } == expected)
        #expect(lines.map(\.number) == Array(1...expected.count))
    }

    @Test("a UTF-8 byte order mark starting line 1 is dropped in any chunking (it hid line 1's timestamp); later lines keep theirs", arguments: [1, 2, 3, 4, 4096])
    func byteOrderMark(chunk: Int) {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let bytes = bom + Array("2024-11-02 21:04:10.500 Chat[771:1203] A viewDidLoad\n".utf8) + bom + Array("B viewWillAppear".utf8)
        let lines = Self.split(bytes, chunk: chunk)
        #expect(lines.count == 2)
        #expect(lines.first?.decoded().text == "2024-11-02 21:04:10.500 Chat[771:1203] A viewDidLoad")
        #expect(lines.first?.length == 52)
        #expect(lines.last.map { Array($0.bytes.prefix(3)) } == bom)
        #expect(Self.split(bom, chunk: chunk).map { $0.decoded().text } == [""])
    }

    @Test("a file ending with a newline has no empty last line; an empty input has no line")
    func finalNewline() {
        #expect(Self.split(Array("a\nb\n".utf8), chunk: 1).map { $0.decoded().text } == ["a", "b"])
        #expect(Self.split(Array("a\r".utf8), chunk: 1).map { $0.decoded().text } == ["a"])
        #expect(Self.split([], chunk: 1).isEmpty)
        #expect(Self.split(Array("\n".utf8), chunk: 1).map { $0.decoded().text } == [""])
    }

    @Test("a line longer than the maximum is cut, its length kept, and the next line is whole", arguments: [1, 3, 7, 100])
    func longLine(chunk: Int) {
        let bytes = Array((String(repeating: "x", count: 30) + "\nA viewDidLoad\n" + String(repeating: "y", count: 9)).utf8)
        let lines = Self.split(bytes, chunk: chunk, maximum: 8)
        #expect(lines.count == 3)
        #expect(lines[0].bytes.count == 8)
        #expect(lines[0].length == 30)
        #expect(lines[0].isCut)
        #expect(lines[1].decoded().text == "A viewDi")  // cut too: 13 bytes > 8
        #expect(lines[2].length == 9)
        #expect(lines[2].bytes.count == 8)
    }

    @Test("invalid UTF-8 is reported for its line only; a cut through a character is not invalid")
    func invalidUTF8() {
        var bytes = Array("A viewDidLoad\n".utf8)
        bytes += [0x41, 0x20, 0xFF, 0xFE, 0x20] + Array("viewWillAppear\n".utf8)
        bytes += Array("é viewDidAppear\n".utf8)
        let lines = Self.split(bytes, chunk: 3)
        #expect(lines.map { $0.decoded().isValidUTF8 } == [true, false, true])
        #expect(lines[1].decoded().text == "A \u{FFFD}\u{FFFD} viewWillAppear")
        // "é" is 2 bytes: a maximum of 1 cuts through it.
        let cut = Self.split(Array("é".utf8), chunk: 1, maximum: 1)
        #expect(cut.first?.isCut == true)
        #expect(cut.first?.decoded().isValidUTF8 == true)
    }

    @Test("mark substrings: the byte search on ASCII lines answers as String.contains does")
    func markSubstring() {
        let cases: [(String, String)] = [
            ("saveDraft key=draft", "saveDraft"), ("savedraft", "saveDraft"), ("x saveDraf", "saveDraft"), ("", "a"), ("ab", "abc"),
            ("café saveDraft", "saveDraft"), ("cafe\u{301} x", "cafe"), ("cafe\u{301} x", "café"),
            ("\u{212A}elvin", "Kelvin"), ("aaab", "aab"), ("timer started", "timer started"),
        ]
        for (text, substring) in cases {
            let isASCII = text.utf8.allSatisfy { $0 < 0x80 }
            #expect(ConsoleLine.contains(text, substring, isASCII: isASCII) == text.contains(substring), "\(text) / \(substring)")
        }
    }

    @Test("the incremental fingerprint equals the one over the whole input")
    func fingerprint() {
        let input = Array(Self.mixedEndings.utf8)
        var hasher = ImportFingerprint.Hasher()
        for start in stride(from: 0, to: input.count, by: 7) { hasher.add(input[start..<min(input.count, start + 7)]) }
        #expect(hasher.traceID(options: ["format=text", "mark=a=b"]) == ImportFingerprint.traceID(input: input, options: ["format=text", "mark=a=b"]))
        #expect(hasher.traceID(options: []) != ImportFingerprint.traceID(input: input, options: ["format=text"]))
    }

    /// Parses `lines` as `lifetrace import` does: a session with `held` events at most, events taken after every
    /// line, and a second pass when the session asks for one.
    static func stream(_ lines: [String], held: Int, parser: ConsoleLogParser = ConsoleLogParser()) throws -> (events: [Event], result: ConsoleImportResult, passes: Int) {
        var leading = ConsoleLogSession.LeadingTime.unknown
        var passes = 0
        while true {
            passes += 1
            var session = ConsoleLogSession(parser: parser, leadingTime: leading, limits: .init(heldEvents: held, skippedLines: 2, controllers: 1))
            var events: [Event] = []
            for (offset, line) in lines.enumerated() {
                try session.read(line, number: offset + 1)
                if session.needsRestart, session.restartLeadingTime != nil { break }
                events += session.takeEvents()
            }
            let result = session.finish(lineCount: lines.count)
            if session.needsRestart {
                #expect(passes == 1, "a second pass never needs a third")
                leading = .known(session.restartLeadingTime ?? 0)
                continue
            }
            return (events + result.events, result, passes)
        }
    }

    static func lines(_ name: String) throws -> [String] {
        var lines: [String] = []
        try Fixtures.text(name).enumerateLinesWithoutFoundation { lines.append(String($0)) }
        return lines
    }

    @Test("every real case streams to the events and times of a whole parse, whatever the hold limit", arguments: [
        "01-cancelled-pop-save", "02-push-pop-dealloc", "03-sheet-presenter-silent", "04-double-did-disappear",
        "05-double-did-appear-forwarding", "06-tab-switch", "07-page-scroll-cancelled", "08-popped-never-deinit",
        "09-background-draft-lost", "10-seed-print-style", "11-page-tags-duplicate-will",
    ])
    func realCases(name: String) throws {
        let lines = try Self.lines(name + ".log")
        let parser = ConsoleLogParser(markRules: [MarkRule(substring: "saveDraft", name: "save")], sourceFile: name)
        let whole = try parser.parse(lines: lines)
        for held in [0, 1, 3, 10_000] {
            let streamed = try Self.stream(lines, held: held, parser: parser)
            #expect(streamed.events == whole.events, "held \(held)")
            #expect(streamed.result.clock == whole.clock)
            #expect(streamed.result.untimedLineCount == whole.untimedLineCount)
            #expect(streamed.result.skippedLineCount == whole.skippedLines.count)
            #expect(streamed.result.skippedLines == Array(whole.skippedLines.prefix(2)))
            #expect(streamed.result.controllerCount == whole.controllers.count)
            #expect(streamed.result.controllers == Array(whole.controllers.prefix(1)))
            #expect(streamed.passes == 1)
        }
    }

    @Test("untimed lines before the first timed one: held, or a second pass when too many", arguments: [0, 1, 2, 5, 100])
    func leadingUntimed(held: Int) throws {
        let lines = [
            "A viewDidLoad", "A viewWillAppear", "app started, no callback", "12:00:01.000 B loadView",
            "12:00:02.500 A viewDidAppear", "B viewDidLoad", "12:00:03.000 B viewWillAppear",
        ]
        let whole = try ConsoleLogParser().parse(lines: lines)
        let streamed = try Self.stream(lines, held: held)
        #expect(streamed.events == whole.events)
        #expect(streamed.events.map(\.timestamp) == [0, 0, 0, 1_500_000_000, 1_500_000_000, 2_000_000_000])
        #expect(streamed.result.hasSyntheticTimes)
        #expect(streamed.passes == (held < 2 ? 2 : 1))
    }

    @Test("a log without times streams synthetic times; a timed line after many untimed ones forces a second pass")
    func synthetic() throws {
        let untimed = (0..<50).map { "C\($0 % 5) \($0 % 2 == 0 ? "viewWillAppear" : "viewDidAppear")" }
        let all = try Self.stream(untimed, held: 3)
        #expect(all.events == (try ConsoleLogParser().parse(lines: untimed)).events)
        #expect(all.events.last?.timestamp == 49 * ConsoleLogParser.syntheticStep)
        #expect(all.passes == 1)
        let late = untimed + ["⏱ 7.000 | C1 | viewWillDisappear", "C1 viewDidDisappear"]
        let streamed = try Self.stream(late, held: 3)
        let whole = try ConsoleLogParser().parse(lines: late)
        #expect(streamed.events == whole.events)
        #expect(streamed.events.first?.timestamp == 7_000_000_000)
        #expect(streamed.passes == 2)
        // A timed line that is no event: the leading time is the first timed *event* line's.
        let noise = untimed + ["⏱ 1.000 | nothing here", "⏱ 2.000 | C2 | viewWillDisappear"]
        let second = try Self.stream(noise, held: 3)
        #expect(second.events == (try ConsoleLogParser().parse(lines: noise)).events)
        #expect(second.events.first?.timestamp == 2_000_000_000)
    }

    @Test("random lines stream like a whole parse", arguments: [5, 6, 7])
    func randomLines(seed: UInt64) throws {
        var generator = RobustnessTests.SplitMix(state: seed)
        var lines: [String] = []
        for _ in 0..<600 {
            let count = Int.random(in: 0...12, using: &generator)
            lines.append((0..<count).map { _ in RobustnessTests.pieces.randomElement(using: &generator)! }.joined())
        }
        let parser = ConsoleLogParser(markRules: [MarkRule(substring: "Foo", name: "work")])
        let whole = try parser.parse(lines: lines)
        for held in [0, 4] {
            let streamed = try Self.stream(lines, held: held, parser: parser)
            #expect(streamed.events == whole.events)
            #expect(streamed.result.timeAdjustmentCount == whole.timeAdjustments.count)
        }
    }
}
