import Foundation
import Testing
import TraceModel
@testable import ConsoleImport

/// Every controller an import produces is one its log names: its type name and its label stand in the log's text as
/// whole words (not cut from a longer name: `ViewController` out of `ÜberblickViewController`).
/// (An anonymous controller, for lines that name none, is reported as such: `ConsoleImportResult.anonymousLines`.)
@Suite("No phantom controllers")
struct NoPhantomControllerTests {
    static let fixtures: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// Every console log of `Tests/Fixtures/cases`, `public` and `processes`, as `directory/name`.
    static let logs: [String] = ["cases", "public", "processes"].flatMap { directory in
        ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.appendingPathComponent(directory).path)) ?? [])
            .filter { $0.hasSuffix(".log") }.sorted().map { "\(directory)/\($0)" }
    }

    @Test("the fixtures are all here")
    func fixturesFound() {
        #expect(Self.logs.count >= 39, "\(Self.logs.count) logs")
    }

    @Test("a name cut from a longer one is not a whole word")
    func wholeWords() {
        #expect(!Self.containsWord("-[überblickviewcontroller viewdidload]", "viewcontroller"))
        #expect(Self.containsWord("-[überblickviewcontroller viewdidload]", "überblickviewcontroller"))
        #expect(Self.containsWord("settings view controller viewdidload called", "settings view controller"))
    }

    @Test("each controller of each fixture is named in its log", arguments: logs)
    func namedInLog(path: String) throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent(path))
        let text = String(decoding: data, as: UTF8.self)
        let result = try ConsoleLogParser(sourceFile: path).parse(text: text)
        let folded = text.lowercased()
        for controller in result.controllers where controller.typeName != ConsoleLogParser.anonymousTypeName {
            let names = [controller.typeName, controller.label ?? ""].filter { !$0.isEmpty }
            #expect(!names.isEmpty, "\(path): \(controller.displayName) has neither a type name nor a label")
            for name in names {
                #expect(Self.containsWord(folded, name.lowercased()), "\(path): \(controller.displayName) is not in the log (\(name))")
            }
        }
    }

    /// Whether `word` occurs in `text` with no letter, digit or `_` right before or after it.
    static func containsWord(_ text: String, _ word: String) -> Bool {
        let scalars = Array(text.unicodeScalars), target = Array(word.unicodeScalars)
        func isNameScalar(_ index: Int) -> Bool {
            guard scalars.indices.contains(index) else { return false }
            let scalar = scalars[index]
            return scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "_"
        }
        guard !target.isEmpty, target.count <= scalars.count else { return false }
        for start in 0...(scalars.count - target.count) where scalars[start] == target[0] {
            if Array(scalars[start..<(start + target.count)]) == target, !isNameScalar(start - 1), !isNameScalar(start + target.count) {
                return true
            }
        }
        return false
    }
}
