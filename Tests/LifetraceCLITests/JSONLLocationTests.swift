import Audit
import Foundation
import Testing

@testable import LifetraceCLI

/// `audit --format sarif|github` on a JSON Lines input points each finding at the line that holds its event in that
/// file, also when blank lines (LF or CRLF) sit between events; before, such a file got no line at all (SARIF
/// `startLine` 1, GitHub no `line=`).
@Suite("audit: findings point at a JSON Lines input's own lines")
struct JSONLLocationTests {
    /// The cancelled swipe-back sample, exported, then rewritten with `separator` between lines and, after every
    /// `every` lines, `blank` extra blank lines; returns the rewritten file and its lines (split on LF).
    func input(_ scratch: CLIScratch, separator: String, blank: Int, every: Int) throws -> (path: String, lines: [String]) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let scenario = root.appendingPathComponent("traces/scenarios/cancelled-swipe-back-save.scenario").path
        let trace = scratch.path("swipe.lifetrace")
        let export = scratch.path("export.jsonl")
        try #require(runCLI(["simulate", scenario, "-o", trace]).code == .success)
        try #require(runCLI(["export", trace, "-o", export]).code == .success)
        let original = try String(contentsOfFile: export, encoding: .utf8).split(separator: "\n").map(String.init)
        var text = String(repeating: separator, count: blank)  // blank lines before the header too
        for (index, line) in original.enumerated() {
            text += line + separator
            if index % every == every - 1 { text += String(repeating: separator, count: blank) }
        }
        let path = scratch.path("spaced.jsonl")
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        // Split on LF bytes: in a Swift String, CR LF is one Character, which `split(separator: "\n")` keeps whole.
        return (path, text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) })
    }

    @Test("SARIF and GitHub locations name the finding's own line, with blank lines, with CRLF, and both",
          arguments: [("\n", 1, 10), ("\r\n", 0, 1), ("\r\n", 2, 7), ("\n", 3, 1)])
    func spacedInput(separator: String, blank: Int, every: Int) throws {
        let scratch = try CLIScratch("jsonl-lines")
        let (path, lines) = try input(scratch, separator: separator, blank: blank, every: every)

        let report = scratch.path("report.sarif")
        let result = runCLI(["audit", path, "--format", "sarif", "-o", report])
        #expect(result.code == .problemFound, "\(result.err)")
        let sarif = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let results = try #require(((sarif["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        try #require(results.count == 2)
        for finding in results {
            let properties = try #require(finding["properties"] as? [String: Any])
            let tNs = try #require(properties["t_ns"] as? Int)
            let physical = try #require((finding["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
            // A file outside the repository: a file:// URI.
            #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "file://" + path)
            let line = try #require((physical["region"] as? [String: Any])?["startLine"] as? Int)
            try #require(line >= 1 && line <= lines.count)
            #expect(lines[line - 1].contains("\"t_ns\":\(tNs),"), "line \(line): \(lines[line - 1])")
            // Related events too.
            for related in finding["relatedLocations"] as? [[String: Any]] ?? [] {
                let region = (related["physicalLocation"] as? [String: Any])?["region"] as? [String: Any]
                let relatedLine = try #require(region?["startLine"] as? Int)
                try #require(relatedLine >= 1 && relatedLine <= lines.count)
                #expect(lines[relatedLine - 1].hasPrefix("{\"t_ns\":"), "related line \(relatedLine) holds an event")
            }
        }

        let github = runCLI(["audit", path, "--format", "github"])
        let annotations = github.out.split(separator: "\n").filter { $0.hasPrefix("::error") }
        #expect(annotations.count == 2)
        for annotation in annotations {
            let line = try #require(annotation.firstRange(of: ",line=").map { Int(annotation[$0.upperBound...].prefix { $0.isNumber }) } ?? nil)
            #expect(lines[line - 1].contains("\"kind\":\"mark\"") || lines[line - 1].contains("\"kind\":\"app\""), "line \(line)")
        }
    }

    @Test("text, JUnit and JSON reports on a JSON Lines input name the line of each finding's event (a .lifetrace keeps 'event N')",
          arguments: [("\n", 1, 10), ("\r\n", 2, 7), ("\n", 0, 1)])
    func textReportLines(separator: String, blank: Int, every: Int) throws {
        let scratch = try CLIScratch("jsonl-text-lines")
        let (path, lines) = try input(scratch, separator: separator, blank: blank, every: every)
        let json = runCLI(["audit", path, "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]])
        try #require(findings.count == 2)
        var expectedLines: [Int] = []
        for finding in findings {
            let line = try #require(finding["line"] as? Int, "\(finding)")
            try #require(line >= 1 && line <= lines.count)
            #expect(lines[line - 1].contains("\"t_ns\":\(try #require(finding["t_ns"] as? Int)),"), "line \(line): \(lines[line - 1])")
            for related in finding["related"] as? [[String: Any]] ?? [] {
                let relatedLine = try #require(related["line"] as? Int)
                #expect(lines[relatedLine - 1].contains("\"t_ns\":\(try #require(related["t_ns"] as? Int)),"))
            }
            expectedLines.append(line)
        }

        let text = runCLI(["audit", path])
        #expect(text.code == .problemFound)
        let headlines = text.out.split(separator: "\n").filter { $0.hasPrefix(path + ":") && !$0.contains(": note: nothing to check for ") }
        #expect(headlines.map { String($0.dropFirst(path.count + 1).prefix { $0.isNumber }) } == expectedLines.map(String.init), "\(text.out)")
        #expect(!text.out.contains(":event "))
        let related = text.out.split(separator: "\n").filter { $0.hasPrefix("    related: ") }
        #expect(!related.isEmpty && related.allSatisfy { $0.hasPrefix("    related: line ") }, "\(related)")

        let junit = runCLI(["audit", path, "--format", "junit"])
        for line in expectedLines {
            #expect(junit.out.contains("\(path):\(line): error: "), "\(junit.out)")
        }

        // The same trace as a .lifetrace keeps the event ordinal (the `#N` of `lifetrace events`), and JSON `line` null.
        let trace = scratch.path("swipe.lifetrace")
        let traceText = runCLI(["audit", trace])
        #expect(traceText.out.contains("\(trace):event 77: error: "), "\(traceText.out)")
        #expect(traceText.out.contains("    related: event 76 at "))
        let traceJSON = try #require(try JSONSerialization.jsonObject(with: Data(runCLI(["audit", trace, "--format", "json"]).out.utf8)) as? [String: Any])
        #expect((traceJSON["findings"] as? [[String: Any]])?.allSatisfy { $0["line"] is NSNull } == true)
    }

    @Test("the line map stores one run per stretch of consecutive lines and answers any ordinal")
    func lineMap() {
        var map = JSONLLineMap()
        #expect(map.line(of: 0) == nil)
        // Header on line 1, events 0–4 on lines 2–6, a blank line, events 5–9 on lines 8–12, two blank lines, event 10.
        for ordinal in UInt64(0)...4 { map.record(ordinal: ordinal, line: ordinal + 2) }
        for ordinal in UInt64(5)...9 { map.record(ordinal: ordinal, line: ordinal + 3) }
        map.record(ordinal: 10, line: 15)
        #expect(map.runCount == 3)
        #expect((0...10).map { map.line(of: UInt64($0)) } == [2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 15])
        #expect(map.line(of: 11) == 16)  // past the last recorded event: its run continues
    }
}
