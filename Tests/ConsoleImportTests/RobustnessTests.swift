import Testing
import TraceModel
@testable import ConsoleImport

/// Lines built at random from the pieces the scanners look for: the parser must never trap, every event keeps
/// its line, and times never go backwards.
@Suite("Robustness")
struct RobustnessTests {
    /// A small deterministic generator (SplitMix64) so failures reproduce.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let pieces = [
        "[", "]", "<", ">", "(", ")", "-", "+", ":", ".", ",", "|", " ", " ", "\t", "–", "⏱", "0", "7", "12", "2025-03-14",
        "09:12:00", ".000114", "+0100", "Z", "T", "App[1:2]", "0x1f", "-[", "viewDidLoad", "viewWillAppear:", "dealloc",
        "willMove(toParent:)", "nil", "begin", "end", "Controller", "Foo", "<0>", "animated = YES", "é", "🙂", "_",
        // Process IDs, printed objects, impossible dates and times, combining marks.
        "App[2:3]", "App[77:1a]", "<M.Foo: 0x7f1>", "<Foo: 0x7f2>", "Optional(", "2024-13-45", "25:61:00", "+2500",
        "e\u{301}", "⌚︎",
    ]

    @Test("random lines never trap; times never decrease; sources are kept", arguments: [1, 2, 3, 4])
    func randomLines(seed: UInt64) throws {
        var generator = SplitMix(state: seed)
        var lines: [String] = []
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...12, using: &generator)
            lines.append((0..<count).map { _ in Self.pieces.randomElement(using: &generator)! }.joined())
        }
        let parser = ConsoleLogParser(markRules: [MarkRule(substring: "Foo", name: "work")])
        let result = try parser.parse(lines: lines)
        var previous: UInt64 = 0
        for event in result.events {
            #expect(event.timestamp >= previous)
            previous = event.timestamp
            let line = try #require(event.source?.line)
            #expect(event.source?.text == lines[Int(line) - 1])
        }
        let blank = lines.filter { $0.allSatisfy(\.isWhitespace) }.count
        // A run start comes from a line that may also be skipped (a new process's first line without a callback).
        let producing = Set(result.events.filter { if case .recorder = $0.payload { false } else { true } }.compactMap { $0.source?.line })
        #expect(producing.count + result.skippedLines.count + blank == lines.count)
    }
}
