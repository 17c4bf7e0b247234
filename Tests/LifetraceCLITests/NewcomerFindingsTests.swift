import Foundation
import Testing
@testable import LifetraceCLI

/// Faults found by using the CLI as a newcomer and as an attacker: each must end in one clear error line and
/// exit code 2, never a trap, and never destroy an existing trace.
@Suite("newcomer findings")
struct NewcomerFindingsTests {
    /// A scratch directory holding a copy of a recorded sample trace; removed at deinit.
    final class Scratch {
        let url: URL
        let trace: String
        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-newcomer-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let sample = root.appendingPathComponent("traces/cancelled-swipe-back-save.lifetrace")
            trace = url.appendingPathComponent("app.lifetrace").path
            try FileManager.default.copyItem(at: sample, to: URL(fileURLWithPath: trace))
        }
        deinit { try? FileManager.default.removeItem(at: url) }
        func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    }

    func run(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        let (output, captured) = CommandOutput.capturing()
        let code = Lifetrace.run(arguments: arguments, output: output)
        return (code, captured.standardOutput, captured.standardError)
    }

    @Test("times too large for nanoseconds are usage errors, not traps",
          arguments: [["state", "--at", "1e20"], ["state", "--at", "1e300"], ["events", "--from", "1e19"],
                      ["events", "--to", "18446744073.709551616"]])
    func hugeTimes(options: [String]) throws {
        let scratch = try Scratch()
        let result = run([options[0], scratch.trace] + options.dropFirst())
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains(options[2]))
    }

    @Test("a grace too large for nanoseconds in .lifetrace.json is a configuration error, not a trap")
    func hugeGraceInConfiguration() throws {
        let scratch = try Scratch()
        let config = scratch.path("config.json")
        try Data(#"{"rules": {"leaked_controller": {"grace": 99999999999}}}"#.utf8).write(to: URL(fileURLWithPath: config))
        let result = run(["audit", scratch.trace, "--config", config])
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains("rules.leaked_controller.grace"))
    }

    @Test("'import app.lifetrace' refuses a trace as input and leaves it untouched")
    func importOfATraceKeepsIt() throws {
        let scratch = try Scratch()
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.trace))
        let result = run(["import", scratch.trace])
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains(scratch.trace))
        #expect(result.err.contains("export"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.trace)) == before)
    }

    @Test("import refuses to write its output over its own input")
    func importOntoItsInput() throws {
        let scratch = try Scratch()
        let log = scratch.path("console.log")
        let text = "ListViewController viewDidLoad\nListViewController viewWillAppear\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: log))
        let result = run(["import", log, "-o", scratch.url.appendingPathComponent("./console.log").path])
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains("console.log"))
        #expect(try String(contentsOfFile: log, encoding: .utf8) == text)
    }

    @Test("verify --repair says it drops bytes only when it does")
    func repairSaysOnlyWhatItCuts() throws {
        let scratch = try Scratch()
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch.trace)))
        let frameMagic = Array("LTFR".utf8)
        let frame = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == frameMagic })
        bytes[frame + 64 + 10] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: scratch.trace))
        let result = run(["verify", "--repair", scratch.trace])
        let after = try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch.trace)))
        #expect(result.code == .problemFound)
        if after == bytes {
            #expect(!result.out.contains("repair: dropping"), "\(result.out)")
        } else {
            #expect(result.out.contains("repair: dropping \(bytes.count - after.count) bytes"), "\(result.out)")
        }
    }

    @Test("state and timeline of a torn trace warn on standard error and exit 1, like events and export",
          arguments: [["state"], ["state", "--at", "1s"], ["timeline"]])
    func tornTraceIsNotSilent(command: [String]) throws {
        let scratch = try Scratch()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: scratch.trace))
        let torn = scratch.path("torn.lifetrace")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: torn))
        let result = run([command[0], torn] + command.dropFirst())
        #expect(result.code == .problemFound)
        #expect(result.err.contains("lifetrace \(command[0]): warning: \(torn)"), "\(result.err)")
        #expect(!result.out.isEmpty)
    }

    @Test("import never echoes a log's control characters (terminal escapes, binary bytes) to the terminal",
          arguments: [[], ["--strict"]])
    func importEchoesNoControlCharacters(options: [String]) throws {
        let scratch = try Scratch()
        let log = scratch.path("hostile.log")
        var bytes = Array("\u{1B}]0;pwned\u{07}\u{1B}[2J not a callback\n".utf8)
        bytes += [0x00, 0x01, 0xFF, 0xFE, 0x9B, 0x0A]
        try Data(bytes).write(to: URL(fileURLWithPath: log))
        let result = run(["import", log, "-o", scratch.path("hostile.lifetrace")] + options)
        let echoed = result.out + result.err
        #expect(echoed.contains("hostile.log"))
        #expect(!echoed.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" })
    }

    @Test("audit -o refuses to write its report over a trace it audits",
          arguments: [["-o", "app.lifetrace"], ["--format", "sarif", "-o", "app.lifetrace"]])
    func auditReportOverItsInput(options: [String]) throws {
        let scratch = try Scratch()
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.trace))
        let arguments = options.map { $0.hasPrefix("app.") ? scratch.path($0) : $0 }
        let result = run(["audit", scratch.trace] + arguments)
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains("would overwrite"), "\(result.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.trace)) == before)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("app.lifetrace.jsonl")))
    }

    @Test("audit -o a directory is one clear usage error")
    func auditReportIntoADirectory() throws {
        let scratch = try Scratch()
        let result = run(["audit", scratch.trace, "-o", scratch.url.path])
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains("is a directory"), "\(result.err)")
    }

    @Test("audit DIR audits every *.lifetrace under DIR, as audit with no TRACE does for traces/")
    func auditADirectory() throws {
        let scratch = try Scratch()
        let nested = scratch.url.appendingPathComponent("nested")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: scratch.trace, toPath: nested.appendingPathComponent("b.lifetrace").path)
        let result = run(["audit", scratch.url.path])
        #expect(result.code == .problemFound, "\(result.err)")
        #expect(result.err.contains("audited 2 traces") || result.out.contains("audited 2 traces"), "\(result.out)")
        let empty = scratch.url.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = run(["audit", empty.path])
        #expect(none.code == .usageOrInput)
        #expect(none.err.contains("no *.lifetrace file under"))
    }

    @Test("events --controller with a name no event has says so instead of printing nothing")
    func eventsForAnUnknownController() throws {
        let scratch = try Scratch()
        let result = run(["events", scratch.trace, "--controller", "NoSuchViewController"])
        #expect(result.out.isEmpty)
        #expect(result.err.contains("no event matched --controller 'NoSuchViewController'"), "\(result.err)")
        #expect(result.err.contains("use a display name"))
        let known = run(["events", scratch.trace, "--controller", "NoteEditorViewController"])
        #expect(!known.out.isEmpty)
        #expect(!known.err.contains("no event matched"))
        // A right name that the other options leave nothing of: the warning names those options, not spelling.
        let narrowed = run(["events", scratch.trace, "--controller", "NoteEditorViewController", "--from", "3600s"])
        #expect(narrowed.out.isEmpty)
        #expect(narrowed.err.contains("no event matched --controller 'NoteEditorViewController' within --from"), "\(narrowed.err)")
        #expect(!narrowed.err.contains("use a display name"))
    }

    @Test("simulate -o with a scenario that fails leaves an existing trace untouched and puts the partial one beside it")
    func simulateSyntaxErrorKeepsTrace() throws {
        let scratch = try Scratch()
        let before = try Data(contentsOf: URL(fileURLWithPath: scratch.trace))
        let scenario = scratch.path("bad.scenario")
        try Data("at 1s launch\nat 0.5s background\n".utf8).write(to: URL(fileURLWithPath: scenario))
        let result = run(["simulate", scenario, "-o", scratch.trace])
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains("bad.scenario:2"), "\(result.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.trace)) == before)
        #expect(FileManager.default.fileExists(atPath: scratch.trace + ".partial.lifetrace"))
        let name = URL(fileURLWithPath: scratch.trace).lastPathComponent
        let directory = URL(fileURLWithPath: scratch.trace).deletingLastPathComponent().path
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(name + ".simulating") } == [])
        let fresh = scratch.path("fresh.lifetrace")
        #expect(run(["simulate", scenario, "-o", fresh]).code == .usageOrInput)
        #expect(FileManager.default.fileExists(atPath: fresh))
    }

    @Test("importing a file with no callback line warns that it found nothing")
    func importOfNothingWarns() throws {
        let scratch = try Scratch()
        let log = scratch.path("build.log")
        try Data("Compiling Foo.swift\nLinking app\n".utf8).write(to: URL(fileURLWithPath: log))
        let result = run(["import", log, "-o", scratch.path("build.lifetrace")])
        #expect(result.code == .success)
        #expect(result.out.contains("0 controllers\n"), "\(result.out)")
        #expect(result.err.contains("no line is a lifecycle callback or a mark"), "\(result.err)")
    }

    @Test("verify of a closed trace damaged inside a frame does not claim the footer is missing")
    func verifyDoesNotDenyAPresentFooter() throws {
        let scratch = try Scratch()
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch.trace)))
        let frameMagic = Array("LTFR".utf8)
        let frame = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == frameMagic })
        bytes[frame + 64 + 10] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: scratch.trace))
        let result = run(["verify", scratch.trace])
        #expect(result.code == .problemFound)
        #expect(!result.out.contains("no valid footer"), "\(result.out)")
        #expect(result.out.contains("footer present"), "\(result.out)")
    }
}
