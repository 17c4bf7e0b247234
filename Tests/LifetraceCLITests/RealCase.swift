import Foundation
import Replay
import TraceLog
import TraceModel
@testable import LifetraceCLI

/// One row of Tests/Fixtures/cases/README.md, run end to end: `lifetrace import` with the row's flags into a
/// temporary trace, read back with `TraceReader`, replayed with `ReplayState`.
struct RealCase {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/cases")

    /// The "import with" column of the README, per file.
    static let flags: [String: [String]] = [
        "01-cancelled-pop-save": ["--mark", "saveDraft=save,critical=true,key=draft", "--mark", "textDidChange=edit,key=draft"],
        "03-sheet-presenter-silent": ["--mark", "timer started=timer.start,id=refresh"],
        "09-background-draft-lost": ["--mark", "composerTextChanged=edit,key=draft"],
    ]

    let name: String
    let tracePath: String
    let events: [Event]
    let importOutput: String

    /// Tests/Fixtures/public: logs quoted from public reports (Tests/Fixtures/public/README.md).
    static let publicDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/public")

    /// Imports `<fixtures>/<name>.log` (default `Tests/Fixtures/cases`) with its flags into `directory`.
    init(_ name: String, into directory: URL, fixtures: URL = Self.directory) throws {
        self.name = name
        let log = fixtures.appendingPathComponent("\(name).log").path
        tracePath = directory.appendingPathComponent("\(name).lifetrace").path
        let (output, captured) = CommandOutput.capturing()
        let code = Lifetrace.run(arguments: ["import", log, "-o", tracePath] + (Self.flags[name] ?? []), output: output)
        guard code == .success else {
            throw CaseError(message: "import of \(name) failed (\(code)): \(captured.standardError)")
        }
        importOutput = captured.standardOutput
        let reader = try TraceReader(path: tracePath)
        var events: [Event] = []
        try reader.forEachEvent { _, event in events.append(event) }
        self.events = events
    }

    /// Nanoseconds of the first event: the README's times are seconds from the first line.
    var start: UInt64 { events.first?.timestamp ?? 0 }

    /// The state after every event at or before `seconds` from the first line.
    func state(atSeconds seconds: Double) -> ReplayState {
        let limit = start + UInt64((seconds * 1e9).rounded())
        var state = ReplayState()
        for (ordinal, event) in events.enumerated() where event.timestamp <= limit {
            state.apply(event, ordinal: UInt64(ordinal))
        }
        return state
    }

    /// The state after the last event.
    var finalState: ReplayState {
        var state = ReplayState()
        for (ordinal, event) in events.enumerated() { state.apply(event, ordinal: UInt64(ordinal)) }
        return state
    }

    /// Seconds from the first line, rounded to the millisecond, as the README writes them: `5.904`.
    func seconds(_ timestamp: UInt64) -> String {
        let millis = (timestamp - start + 500_000) / 1_000_000
        let fraction = String(millis % 1000)
        return "\(millis / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-cases-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

struct CaseError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
