import Foundation
import Testing
import TraceLog

@testable import LifetraceCLI

/// A scratch directory under the temporary directory, removed when the value goes away.
final class CLIScratch {
    let url: URL

    init(_ name: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

func runCLI(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
    let (output, captured) = CommandOutput.capturing()
    let code = Lifetrace.run(arguments: arguments, output: output)
    return (code, captured.standardOutput, captured.standardError)
}

/// Every command that reads a trace reads a JSON Lines export of it too, recognised by content.
@Suite("a JSON Lines export is a trace for every command")
struct TraceInputTests {
    /// The committed sample scenario, simulated, and its export under a `.jsonl` and a `.txt` name.
    final class Inputs {
        let scratch: CLIScratch
        let trace: String
        let jsonl: String
        let renamed: String

        init() throws {
            scratch = try CLIScratch("inputs")
            trace = scratch.path("swipe.lifetrace")
            jsonl = scratch.path("swipe.jsonl")
            renamed = scratch.path("swipe-export.txt")
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let scenario = root.appendingPathComponent("traces/scenarios/cancelled-swipe-back-save.scenario").path
            try #require(runCLI(["simulate", scenario, "-o", trace]).code == .success)
            try #require(runCLI(["export", trace, "-o", jsonl]).code == .success)
            try FileManager.default.copyItem(atPath: jsonl, toPath: renamed)
        }
    }

    static let commands: [[String]] = [
        ["state"], ["state", "--at", "6s"], ["state", "--format", "json", "--at", "6.0"], ["timeline", "--spans"],
        ["events", "--from", "5s", "--to", "7s"], ["events", "--visible", "NoteEditorViewController"], ["audit", "--format", "json"],
        ["export"],
    ]

    @Test("state, timeline, events, audit and export print the same for the trace, its .jsonl export and the export renamed .txt",
          arguments: commands)
    func sameOutput(command: [String]) throws {
        let inputs = try Inputs()
        func run(_ path: String) -> (ExitCode, String, String) {
            let arguments = [command[0], path] + command.dropFirst()
            let result = runCLI(arguments)
            return (result.code, result.out.replacingOccurrences(of: path, with: "TRACE"), result.err.replacingOccurrences(of: path, with: "TRACE"))
        }
        let fromTrace = run(inputs.trace)
        let fromJSONL = run(inputs.jsonl)
        let fromText = run(inputs.renamed)
        #expect(fromTrace.0 == fromJSONL.0 && fromTrace.0 == fromText.0)
        #expect(!fromTrace.1.isEmpty)
        if command.first == "audit" {
            // The same findings; a JSON Lines input adds where each event is in it ("line"; null for the trace) and
            // names itself as the file findings point at ("jsonl").
            let trace = try Self.auditDocument(fromTrace.1, keepingLines: false)
            #expect(try Self.auditDocument(fromJSONL.1, keepingLines: false) == trace, "\(fromJSONL.2)")
            #expect(try Self.auditDocument(fromText.1, keepingLines: false) == trace, "\(fromText.2)")
            let lines = try Self.auditDocument(fromJSONL.1, keepingLines: true)["findings"] as? [[String: Any]] ?? []
            #expect(!lines.isEmpty && lines.allSatisfy { $0["line"] is Int })
            return
        }
        #expect(fromTrace.1 == fromJSONL.1, "\(fromJSONL.2)")
        #expect(fromTrace.1 == fromText.1, "\(fromText.2)")
    }

    /// An `audit --format json` report, without the members that say where events are in a JSON Lines input
    /// (`line` of findings and related events, `jsonl` of traces) unless `keepingLines`.
    static func auditDocument(_ text: String, keepingLines: Bool) throws -> NSDictionary {
        var document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        guard !keepingLines else { return document as NSDictionary }
        document["findings"] = (document["findings"] as? [[String: Any]] ?? []).map { finding in
            var finding = finding
            finding["line"] = nil
            finding["related"] = (finding["related"] as? [[String: Any]] ?? []).map { $0.filter { $0.key != "line" } }
            return finding
        }
        document["traces"] = (document["traces"] as? [[String: Any]] ?? []).map { $0.filter { $0.key != "jsonl" } }
        return document as NSDictionary
    }

    @Test("info and verify read a JSON Lines export: counts, header, ok")
    func infoVerify() throws {
        let inputs = try Inputs()
        let info = runCLI(["info", inputs.renamed])
        #expect(info.code == .success, "\(info.err)")
        #expect(info.out.contains("format:") && info.out.contains("JSON Lines export"))
        #expect(info.out.contains("events:       107"), "\(info.out)")
        let json = runCLI(["info", inputs.jsonl, "--format", "json"])
        #expect(json.out.contains("\"input_format\": \"jsonl\"") && json.out.contains("\"events\": 107,"))
        let verify = runCLI(["verify", inputs.jsonl])
        #expect(verify.code == .success)
        #expect(verify.out.hasPrefix("ok: \(inputs.jsonl): 107 events checked"), "\(verify.out)")
        let repair = runCLI(["verify", "--repair", inputs.jsonl])
        #expect(repair.code == .usageOrInput)
    }

    @Test("audit --format sarif points findings at the JSON Lines input's own lines (event N on line N+2 after the header)")
    func sarifLines() throws {
        let inputs = try Inputs()
        let report = inputs.scratch.path("report.sarif")
        let result = runCLI(["audit", inputs.jsonl, "--format", "sarif", "-o", report])
        #expect(result.code == .problemFound)
        let sarif = try String(contentsOfFile: report, encoding: .utf8)
        #expect(sarif.contains("swipe.jsonl"))
        #expect(sarif.contains("\"startLine\" : 79") || sarif.contains("\"startLine\": 79"), "event 77 is on line 79")
        #expect(!FileManager.default.fileExists(atPath: inputs.jsonl + ".jsonl"))
    }

    @Test("a bad line in the middle: every command reads the lines before it, names FILE:LINE, and exits 2",
          arguments: ["state", "timeline", "events", "export", "audit", "info", "verify"])
    func badLine(command: String) throws {
        let inputs = try Inputs()
        var lines = try String(contentsOfFile: inputs.jsonl, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[49] = lines[49].replacingOccurrences(of: #""t_ns":"#, with: #""t_ns":-"#)
        let bad = inputs.scratch.path("bad.ndjson")
        try (lines.joined(separator: "\n") + "\n").write(toFile: bad, atomically: false, encoding: .utf8)
        let result = runCLI([command, bad])
        #expect(result.code == .usageOrInput)
        let all = result.out + result.err
        #expect(all.contains("\(bad):50: "), "\(all.suffix(400))")
        if command != "verify" {
            #expect(result.err.contains("using the 48 readable events before it"), "\(result.err)")
            #expect(!result.out.isEmpty)
        }
        if command == "events" { #expect(result.out.split(separator: "\n").count == 48) }
        if command == "export" { #expect(result.out.split(separator: "\n").count == 49) }
    }

    @Test("a file that is neither a trace nor JSON Lines is refused naming both formats and import")
    func neither() throws {
        let scratch = try CLIScratch("neither")
        let log = scratch.path("console.lifetrace")
        try "viewDidLoad\nviewWillAppear\n".write(toFile: log, atomically: false, encoding: .utf8)
        for command in ["state", "timeline", "events", "export", "audit", "info", "verify"] {
            let result = runCLI([command, log])
            #expect(result.code == .usageOrInput)
            #expect(result.err.contains("\(log): offset 0: not a Lifetrace trace"), "\(command): \(result.err)")
            #expect(result.err.contains("JSON Lines") && result.err.contains("lifetrace import"), "\(command): \(result.err)")
        }
    }
}
