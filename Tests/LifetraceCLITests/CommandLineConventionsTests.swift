import Foundation
import Testing
import TraceLog

@testable import LifetraceCLI

/// What users expect of a command-line tool with subcommands (git, swift, docker): a missing or mistyped command
/// is a usage error on standard error with exit 2, names in machine output match the documented schema, and
/// output stops (and says so) when nobody can read it.
@Suite("command line conventions")
struct CommandLineConventionsTests {
    @Test("no arguments: 'missing command' and the usage on standard error, nothing on standard output, exit 2")
    func noArguments() {
        let result = runCLI([])
        #expect(result.code == .usageOrInput)
        #expect(result.out.isEmpty)
        #expect(result.err.hasPrefix("lifetrace: error: missing command\nOVERVIEW: "))
        #expect(result.err.contains("USAGE: lifetrace <command> [options]"))
        #expect(result.err.contains("Without a command, or with a mistyped one, lifetrace prints this on standard error and exits 2"))
        // --help still prints the same overview on standard output with exit 0.
        let help = runCLI(["--help"])
        #expect(help.code == .success)
        #expect(help.err.isEmpty)
        #expect(result.err.hasSuffix(help.out))
    }

    @Test("a mistyped command, an unknown top-level option and help for an unknown command: exit 2, with a suggestion when one is close")
    func mistyped() {
        let typo = runCLI(["audt", "x.lifetrace"])
        #expect(typo.code == .usageOrInput)
        #expect(typo.out.isEmpty)
        #expect(typo.err.hasPrefix("lifetrace: error: unknown command 'audt' (did you mean 'audit'?)\nOVERVIEW: "))
        #expect(typo.err.hasSuffix(Lifetrace.overview), "the usage follows the error")

        let far = runCLI(["frobnicate"])
        #expect(far.err == "lifetrace: error: unknown command 'frobnicate'\n" + Lifetrace.overview)

        let option = runCLI(["-x"])
        #expect(option.code == .usageOrInput)
        #expect(option.err == "lifetrace: error: unknown option '-x'\n" + Lifetrace.overview)

        let help = runCLI(["help", "evnts"])
        #expect(help.code == .usageOrInput)
        #expect(help.out.isEmpty)
        #expect(help.err == "lifetrace: error: no help for unknown command 'evnts' (did you mean 'events'?); see 'lifetrace --help'\n")
    }

    @Test("a mistyped rule id gets a suggestion; exit 2")
    func mistypedRule() {
        let result = runCLI(["rules", "critical_save_placment"])
        #expect(result.code == .usageOrInput)
        #expect(result.err.hasPrefix("lifetrace rules: error: unknown rule 'critical_save_placment' (did you mean 'critical_save_placement'?); rules: "), "\(result.err)")
    }

    @Test("every usage line writes placeholders in capitals (TRACE, LOG, FILE), as the help texts and README do")
    func placeholders() {
        for command in Lifetrace.commands + Lifetrace.hiddenCommands {
            #expect(!command.spec.usage.contains("<"), "\(command.spec.name): \(command.spec.usage)")
        }
        let missing = runCLI(["import"])
        #expect(missing.err.hasPrefix("lifetrace import: error: missing argument LOG\nusage: lifetrace import LOG [-o TRACE] "), "\(missing.err)")
    }

    @Test("info --format json names kinds as the JSON Lines schema and 'events --kind' do")
    func kindNames() throws {
        let scratch = try CLIScratch("kind-names")
        let trace = scratch.path("g.lifetrace")
        try #require(runCLI(["simulate", "--generate", "300", "--seed", "4", "-o", trace]).code == .success)
        let result = runCLI(["info", trace, "--format", "json"])
        #expect(result.code == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let kinds = try #require(object["events_by_kind"] as? [String: Int])
        #expect(Set(kinds.keys) == Set(JSONLSchema.Kind.allCases.map(\.rawValue)))
        for kind in kinds.keys {
            #expect(runCLI(["events", trace, "--kind", kind, "--to", "0s"]).code != .usageOrInput, "\(kind)")  // accepted (exit 1 when nothing at 0 s)
        }
    }

    @Test("audit refuses a .lifetrace.json with a trailing comma: FILE:LINE:COLUMN, exit 2, nothing audited")
    func strictConfiguration() throws {
        let scratch = try CLIScratch("strict-config")
        let trace = scratch.path("g.lifetrace")
        try #require(runCLI(["simulate", "--generate", "100", "--seed", "8", "-o", trace]).code == .success)
        let config = scratch.path("lifetrace.json")
        try "{\n  \"rules\": {\"leaked_controller\": {\"grace\": \"5s\",}}\n}\n".write(toFile: config, atomically: false, encoding: .utf8)
        let result = runCLI(["audit", trace, "--config", config])
        #expect(result.code == .usageOrInput)
        #expect(result.out.isEmpty)
        #expect(result.err == "lifetrace audit: error: \(config):2:49: not valid JSON (RFC 8259): expected a member name in quotes\n")
    }

    /// Runs `arguments` with a standard output that reports itself closed once `limit` writes have arrived, as a
    /// pipe does after `head` exits; returns the exit code, the writes received, and the total bytes.
    func runClosing(after limit: Int, _ arguments: [String]) -> (code: ExitCode, writes: Int, bytes: Int) {
        final class Sink: @unchecked Sendable {
            var writes = 0
            var bytes = 0
        }
        let sink = Sink()
        let output = CommandOutput(
            standardOutput: { text in
                sink.writes += 1
                sink.bytes += text.utf8.count
            },
            standardError: { _ in },
            isStandardOutputClosed: { sink.writes >= limit }
        )
        let code = Lifetrace.run(arguments: arguments, output: output)
        return (code, sink.writes, sink.bytes)
    }

    @Test("events, export and simulate --generate stop when standard output's reader has gone away (lifetrace events T | head)")
    func stopsWhenOutputCloses() throws {
        let scratch = try CLIScratch("closed-output")
        let trace = scratch.path("g.lifetrace")
        try #require(runCLI(["simulate", "--generate", "20000", "--seed", "5", "-o", trace]).code == .success)

        let all = runClosing(after: .max, ["events", trace])
        #expect(all.code == .success)
        #expect(all.writes >= 20_000)  // one write per event line
        let head = runClosing(after: 3, ["events", trace])
        #expect(head.code == .success)
        #expect(head.writes == 3)

        // simulate --generate without -o prints as it generates: it stops too.
        let generated = runClosing(after: 5, ["simulate", "--generate", "20000", "--seed", "5"])
        #expect(generated.code == .success)
        let allGenerated = runClosing(after: .max, ["simulate", "--generate", "20000", "--seed", "5"])
        #expect(allGenerated.writes >= 10_000)  // one line per callback (11 214 for this seed)
        // One step of the session (a launch, a push, …) prints up to a few dozen lines before the check.
        #expect(generated.writes < 200, "\(generated.writes) of \(allGenerated.writes) lines")

        let fullExport = runClosing(after: .max, ["export", trace])
        let cutExport = runClosing(after: 1, ["export", trace])
        #expect(cutExport.code == .success)
        #expect(cutExport.writes <= 2)  // the chunk in flight, and the writer's final flush
        #expect(cutExport.bytes < fullExport.bytes / 4, "\(cutExport.bytes) of \(fullExport.bytes)")
    }
}

/// The `lifetrace` executable's own handling of standard output (main.swift), run as a child process.
@Suite("lifetrace executable: standard output failures")
struct StandardOutputFailureTests {
    /// The built `lifetrace` next to the test bundle (`swift build --build-tests` builds it), or in .build/debug.
    static func executable() -> String? {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("lifetrace"))
        }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("lifetrace"))
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        candidates.append(root.appendingPathComponent(".build/debug/lifetrace"))
        return candidates.map(\.path).first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs the executable with `arguments`, standard output going to `standardOutput`; returns the exit status
    /// and standard error.
    func run(_ arguments: [String], standardOutput: FileHandle) throws -> (status: Int32, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.executable()))
        process.arguments = arguments
        process.standardOutput = standardOutput
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        return (process.terminationStatus, String(decoding: err, as: UTF8.self))
    }

    @Test("a full disk (/dev/full) is an error naming the cause, exit 2, never a silent truncated success",
          .enabled(if: FileManager.default.isWritableFile(atPath: "/dev/full")))
    func fullDisk() throws {
        let scratch = try CLIScratch("dev-full")
        let trace = scratch.path("g.lifetrace")
        try #require(runCLI(["simulate", "--generate", "2000", "--seed", "6", "-o", trace]).code == .success)
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        defer { try? full.close() }
        let result = try run(["export", trace], standardOutput: full)
        #expect(result.status == 2)
        #expect(result.err == "lifetrace export: error: cannot write standard output: No space left on device; the output is incomplete\n")
    }

    @Test("a pipe whose reader is gone: no crash by SIGPIPE, no error message, the command's own status (0)")
    func brokenPipe() throws {
        let scratch = try CLIScratch("broken-pipe")
        let trace = scratch.path("g.lifetrace")
        try #require(runCLI(["simulate", "--generate", "20000", "--seed", "7", "-o", trace]).code == .success)
        let pipe = Pipe()
        try pipe.fileHandleForReading.close()
        let result = try run(["events", trace], standardOutput: pipe.fileHandleForWriting)
        try? pipe.fileHandleForWriting.close()
        #expect(result.status == 0)
        #expect(result.err.isEmpty, "\(result.err)")
    }
}
