import Foundation
import Testing
import TraceLog

/// A log repeating one anomaly: `viewDidLoad` of one controller, line after line. Every repeat is a diagnostic;
/// the state keeps the first 100 in full and counts the rest, so checkpoints and memory stay the size of the live
/// state, and `view_did_load_once` reports the load once with the count of repeats. (Checkpoints carried every
/// diagnostic and the rule reported every repeat: 10^6 lines became a 62.8 MB trace imported at 271 MB and audited
/// at 1.78 GB.)
@Suite("diagnostics bounded by live state: a log repeating viewDidLoad")
struct DiagnosticsBoundTests {
    static let lines = 200_000

    @Test("import, verify, state, timeline and audit on 200,000 repeated viewDidLoad lines: small checkpoints, peak RSS under 128 MiB")
    func repeatedViewDidLoad() throws {
        let scratch = try CLIScratch("diagnostics")
        var log = ""
        log.reserveCapacity(Self.lines * 32)
        for index in 0..<Self.lines { log += "\(index) EditorViewController viewDidLoad\n" }
        try log.write(toFile: scratch.path("repeat.log"), atomically: false, encoding: .utf8)

        let imported = try ChildRun.lifetrace(["import", "repeat.log", "-o", "repeat.lifetrace"], in: scratch.url.path)
        #expect(imported.exitStatus == 0, "\(imported.standardError)")
        #expect(imported.peakMiB < 128, "import: peak RSS \(imported.peakMiB) MiB")

        let reader = try TraceReader(path: scratch.path("repeat.lifetrace"))
        let checkpoints = reader.allFrames.filter { $0.kind == .checkpoint }
        #expect(!checkpoints.isEmpty)
        let largest = checkpoints.map(\.rawLength).max() ?? 0
        #expect(largest < 64 * 1024, "largest checkpoint \(largest) bytes")

        for command in [["verify", "repeat.lifetrace"], ["state", "repeat.lifetrace"], ["timeline", "repeat.lifetrace"], ["audit", "repeat.lifetrace"]] {
            let run = try ChildRun.lifetrace(command, in: scratch.url.path)
            #expect(run.signal == nil, "\(command[0]): signal \(run.signal ?? 0)")
            #expect(run.peakMiB < 128, "\(command[0]): peak RSS \(run.peakMiB) MiB")
            if command[0] == "audit" {
                #expect(run.standardOutput.contains("It ran \(Self.lines) times in all for this load of the view"), "\(run.standardOutput.prefix(600))")
                #expect(run.standardOutput.contains(": 0 errors, 1 warning, 0 notes"), "\(run.standardOutput.suffix(300))")
            }
        }
        let state = runCLI(["state", scratch.path("repeat.lifetrace")])
        #expect(state.out.contains("more, only counted (the first 100 are kept): duplicate_view_did_load \(Self.lines - 101)"), "\(state.out.suffix(600))")
        let json = runCLI(["state", scratch.path("repeat.lifetrace"), "--format", "json"])
        #expect(json.out.contains("\"diagnostics_omitted\":{\"duplicate_view_did_load\":\(Self.lines - 101)}"), "\(json.out.suffix(300))")
    }
}
