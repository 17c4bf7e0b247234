import Foundation
import TraceModel
@testable import ConsoleImport

/// Reads the real cases from `Tests/Fixtures/cases` (found from this file's path).
enum Fixtures {
    static let casesDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/cases")

    static func text(_ name: String) throws -> String {
        try String(contentsOf: casesDirectory.appendingPathComponent(name), encoding: .utf8)
    }

    static func parse(_ name: String, marks: [String] = []) throws -> ConsoleImportResult {
        let rules = try marks.map { spec throws(ConsoleImportError) in try MarkRule(parsing: spec) }
        return try ConsoleLogParser(markRules: rules, sourceFile: name).parse(text: text(name))
    }
}

extension ConsoleImportResult {
    /// `seconds summary` per event, seconds with millisecond precision (rounded).
    var lines: [String] {
        events.map { "\(Self.millis($0.timestamp)) \($0.summary)" }
    }

    static func millis(_ nanoseconds: UInt64) -> String {
        let millis = (nanoseconds + 500_000) / 1_000_000
        let fraction = String(millis % 1000)
        return "\(millis / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
