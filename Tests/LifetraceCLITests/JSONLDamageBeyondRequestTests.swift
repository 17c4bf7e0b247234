import Foundation
import Testing

@testable import LifetraceCLI

/// A JSON Lines input damaged after the events a `state --at T` or `events --to T` needs: the output is complete,
/// and a warning names FILE:LINE of the bad line, exit 1, as a `.lifetrace` damaged after T warns when it is
/// opened. Before, the JSON Lines input gave exit 0 and said nothing.
@Suite("JSON Lines damage after the requested events: a warning naming FILE:LINE, exit 1")
struct JSONLDamageBeyondRequestTests {
    /// The swipe-back sample as a trace and as its export (header line, 107 events), and the export damaged at
    /// `line` (1-based): cut in the middle of that line (`truncate`), or that line replaced by garbage with the rest
    /// kept, with CRLF line ends.
    final class Inputs {
        let scratch: CLIScratch
        let trace: String
        let jsonl: String
        let lines: [String]

        init() throws {
            scratch = try CLIScratch("jsonl-beyond")
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let scenario = root.appendingPathComponent("traces/scenarios/cancelled-swipe-back-save.scenario").path
            trace = scratch.path("swipe.lifetrace")
            jsonl = scratch.path("swipe.jsonl")
            try #require(runCLI(["simulate", scenario, "-o", trace]).code == .success)
            try #require(runCLI(["export", trace, "-o", jsonl]).code == .success)
            lines = try String(contentsOfFile: jsonl, encoding: .utf8).split(separator: "\n").map(String.init)
        }

        func damaged(at line: Int, truncate: Bool) throws -> String {
            let path = scratch.path("damaged-\(line)-\(truncate).jsonl")
            var text: String
            if truncate {
                text = lines[..<(line - 1)].map { $0 + "\n" }.joined() + String(lines[line - 1].prefix(lines[line - 1].count / 2))
            } else {
                var copy = lines
                copy[line - 1] = "{\"t_ns\": not json"
                text = copy.map { $0 + "\r\n" }.joined()
            }
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            return path
        }
    }

    @Test("state --at T before the damage: the same state as the intact file, a warning naming FILE:LINE, exit 1",
          arguments: [(85, true), (60, false), (108, true)])
    func stateBeforeDamage(line: Int, truncate: Bool) throws {
        let inputs = try Inputs()
        let path = try inputs.damaged(at: line, truncate: truncate)
        let intact = runCLI(["state", inputs.jsonl, "--at", "1s"])
        #expect(intact.code == .success)
        #expect(intact.err.isEmpty)
        let result = runCLI(["state", path, "--at", "1s"])
        #expect(result.code == .problemFound)
        #expect(result.out == intact.out)
        let warnings = result.err.split(separator: "\n")
        #expect(warnings.count == 1)
        #expect(warnings.first?.hasPrefix("lifetrace state: warning: \(path):\(line): ") == true, "\(result.err)")
        #expect(result.err.contains("the output is complete"), "\(result.err)")
        #expect(result.err.contains("event \(line - 2) onwards cannot be read"), "\(result.err)")

        // T after the damage: the state needs the bad line, an error as before (exit 2).
        let after = runCLI(["state", path])
        #expect(after.code == .usageOrInput)
        #expect(after.err.hasPrefix("lifetrace state: error: \(path):\(line): "), "\(after.err)")
    }

    @Test("events --to T before the damage: the same listing, a warning naming FILE:LINE, exit 1; an intact file stays exit 0")
    func eventsBeforeDamage() throws {
        let inputs = try Inputs()
        let path = try inputs.damaged(at: 85, truncate: true)
        for format in ["text", "jsonl"] {
            let intact = runCLI(["events", inputs.jsonl, "--to", "1s", "--format", format])
            #expect(intact.code == .success)
            #expect(intact.err.isEmpty)
            let result = runCLI(["events", path, "--to", "1s", "--format", format])
            #expect(result.code == .problemFound)
            #expect(result.out == intact.out)
            #expect(result.err.hasPrefix("lifetrace events: warning: \(path):85: "), "\(result.err)")
            #expect(result.err.split(separator: "\n").count == 1)
        }
        // Nothing listed and damage: both said, still exit 1.
        let none = runCLI(["events", path, "--to", "1s", "--kind", "deinit"])
        #expect(none.code == .problemFound)
        #expect(none.err.contains("\(path):85: ") && none.err.contains("no event matched --kind deinit --to 1s") == false)
        #expect(none.err.contains("no event matched --to 1s --kind deinit"), "\(none.err)")
    }

    @Test("the same for a .lifetrace cut short after T: a warning naming the offset when opened, the state printed, exit 1")
    func traceCutShort() throws {
        let inputs = try Inputs()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: inputs.trace))
        let cut = inputs.scratch.path("cut.lifetrace")
        try bytes.prefix(bytes.count - 40).write(to: URL(fileURLWithPath: cut))
        let result = runCLI(["state", cut, "--at", "1s"])
        #expect(result.code == .problemFound)
        #expect(result.err.hasPrefix("lifetrace state: warning: \(cut)"), "\(result.err)")
        #expect(result.out.hasPrefix("state at 1.000 s"))
    }
}
