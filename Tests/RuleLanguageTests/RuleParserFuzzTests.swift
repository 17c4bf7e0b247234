import Foundation
import Testing
import TraceModel
@testable import Audit
@testable import RuleLanguage

/// Generated and mutated rule files never crash the parser, the compiler or a compiled rule: each is either an
/// error at a place inside the file, or rules that audit their examples. Deterministic (a fixed seed) and bounded.
@Suite("Rule parser fuzzing")
struct RuleParserFuzzTests {
    /// SplitMix64: the same inputs on every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let seeds: [String] = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var texts: [String] = []
        for directory in ["examples/rules", "examples/rules/builtins"] {
            let base = root.appendingPathComponent(directory)
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []).sorted() where name.hasSuffix(".rule") {
                if let text = try? String(contentsOf: base.appendingPathComponent(name), encoding: .utf8) { texts.append(text) }
            }
        }
        return texts
    }()

    static let words = [
        "rule", "end", "never", "eventually", "requires", "earlier", "leads", "to", "within", "unless", "anywhere", "before",
        "after", "between", "and", "until", "globally", "or", "in", "of", "the", "same", "controller", "type", "per", "app",
        "once", "callback", "severity", "error", "warning", "note", "if", "followed", "by", "message", "fix", "summary",
        "parameter", "where", "duration", "with", "nil", "parent", "mark", "save", "edit", "geometry.read", "viewDidLoad",
        "viewWillDisappear", "viewDidDisappear", "deinit", "init", "cancellation", "removed", "exit", "push", "present",
        "didEnterBackground", "scene", "onAppear", "example", "fires", "passes", "as", "inconclusive", "$key", "$",
        "(", ")", ",", ":", "=", "<", ">=", "!=", "\"", "\"text {controller} {key}\"", "5s", "8ms", "3", "-1", "1e400", "#",
        "\n", "\n  ", "A#1", "B#2 viewDidLoad", "mark save key=a critical=true @ A#1", "wait 5s", "wait", "{", "}", "µs", "*",
    ]

    func check(_ text: String) {
        let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
        do {
            let rules = try RuleLanguage.rules(in: text, file: "fuzz.rule")
            for rule in rules {
                // A compiled rule runs on its examples and on the other rules' examples without trapping.
                _ = RuleExampleCheck.failures(of: rule)
            }
        } catch {
            #expect(error.location.line >= 1 && error.location.line <= lineCount + 1, "\(error) in:\n\(text)")
            #expect(error.location.column >= 1, "\(error)")
            #expect(!error.message.isEmpty)
        }
    }

    @Test func mutatedRuleFiles() {
        var random = Generator(state: 21)
        #expect(Self.seeds.count >= 8)
        for _ in 0..<1500 {
            var characters = Array(Self.seeds.randomElement(using: &random)!)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                guard !characters.isEmpty else { break }
                let at = Int.random(in: 0..<characters.count, using: &random)
                switch Int.random(in: 0..<5, using: &random) {
                case 0: characters.remove(at: at)
                case 1: characters.insert(Array("\"(){}$#:,=<>\n µ*").randomElement(using: &random)!, at: at)
                case 2: characters.insert(contentsOf: Array(" " + Self.words.randomElement(using: &random)! + " "), at: at)
                case 3:
                    let end = min(characters.count, at + Int.random(in: 1...40, using: &random))
                    characters.removeSubrange(at..<end)
                default:
                    let other = Int.random(in: 0..<characters.count, using: &random)
                    characters.swapAt(at, other)
                }
            }
            check(String(characters))
        }
    }

    @Test func generatedWordSequences() {
        var random = Generator(state: 2026)
        for _ in 0..<1500 {
            var text = "rule fuzz_rule\n  "
            for _ in 0..<Int.random(in: 1...30, using: &random) { text += Self.words.randomElement(using: &random)! + " " }
            if Bool.random(using: &random) { text += "\n  example \"a\" fires\n    A#1 viewDidLoad\n  example \"b\" passes\n    A#1 init" }
            text += "\nend\n"
            check(text)
        }
    }

    @Test func oddInputs() {
        for text in ["", "\n\n", "rule", "rule a", "rule a\nend", "end", "# only a comment", "rule a\n  never\nend",
                     String(repeating: "(", count: 5000), "rule a\n  never " + String(repeating: "viewDidLoad or ", count: 2000) + "init\nend",
                     "rule a\n  never mark save(key: $k) after mark save(key: $k)\n  example \"x\" fires\n    0.5 s  #0  mark save key=a\n    0.1 s  mark save key=a\nend"] {
            check(text)
        }
    }
}
