import Foundation
import Testing
import TraceModel

@testable import LifetraceCLI

/// Colour (`--color auto|always|never`, `NO_COLOR`, `TERM`) and progress lines: only for a person at a terminal,
/// never in a pipe, a file or a CI log.
@Suite("colour and progress on a terminal")
struct TerminalOutputTests {
    /// The committed swipe-back scenario, simulated: one error-level finding at least.
    final class Sample {
        let scratch: CLIScratch
        let trace: String

        init() throws {
            scratch = try CLIScratch("terminal")
            trace = scratch.path("swipe.lifetrace")
            var root = URL(fileURLWithPath: #filePath)
            for _ in 0..<3 { root.deleteLastPathComponent() }
            let scenario = root.appendingPathComponent("traces/scenarios/cancelled-swipe-back-save.scenario").path
            try #require(runCLI(["simulate", scenario, "-o", trace]).code == .success)
        }
    }

    static let escape = "\u{1B}["

    func run(
        _ arguments: [String], environment: [String: String] = [:], outputTerminal: Bool = false, errorTerminal: Bool = false,
        progressDelay: UInt64? = nil
    ) -> (code: ExitCode, out: String, err: String) {
        let (output, captured) = CommandOutput.capturing(
            environment: environment, isStandardOutputTerminal: outputTerminal, isStandardErrorTerminal: errorTerminal)
        if let progressDelay { output.progressDelay = progressDelay }
        let code = Lifetrace.run(arguments: arguments, output: output)
        return (code, captured.standardOutput, captured.standardError)
    }

    @Test("audit --color always colours the severity and the rule id; the words are those of the plain report")
    func auditAlways() throws {
        let sample = try Sample()
        let plain = run(["audit", sample.trace])
        let coloured = run(["audit", sample.trace, "--color", "always"])
        #expect(coloured.code == plain.code)
        #expect(coloured.out.contains("\u{1B}[1;31merror\u{1B}[0m: critical save of 'draft'"), "\(coloured.out.prefix(300))")
        #expect(coloured.out.contains("(\u{1B}[35mcritical_save_placement\u{1B}[0m)"))
        #expect(coloured.out.contains(": \u{1B}[1;36mnote\u{1B}[0m: nothing to check"))
        let stripped = coloured.out.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(stripped == plain.out)
        #expect(!plain.out.contains(Self.escape))
    }

    @Test("--color auto colours only a terminal, and not with NO_COLOR set (non-empty) or TERM=dumb")
    func auto() throws {
        let sample = try Sample()
        for command in [["audit", sample.trace], ["verify", sample.trace]] {
            #expect(run(command, outputTerminal: true).out.contains(Self.escape), "\(command)")
            #expect(run(command + ["--color", "auto"], environment: ["TERM": "xterm-256color"], outputTerminal: true).out.contains(Self.escape))
            #expect(run(command, environment: ["NO_COLOR": ""], outputTerminal: true).out.contains(Self.escape), "an empty NO_COLOR is unset")
            #expect(!run(command).out.contains(Self.escape), "a pipe: no colour")
            #expect(!run(command, environment: ["NO_COLOR": "1"], outputTerminal: true).out.contains(Self.escape))
            #expect(!run(command, environment: ["NO_COLOR": "yes"], outputTerminal: true).out.contains(Self.escape))
            #expect(!run(command, environment: ["TERM": "dumb"], outputTerminal: true).out.contains(Self.escape))
            #expect(!run(command + ["--color", "never"], outputTerminal: true).out.contains(Self.escape))
            #expect(run(command + ["--color", "always"], environment: ["NO_COLOR": "1"]).out.contains(Self.escape), "always wins")
        }
    }

    @Test("no colour in a report file, nor in the machine formats, whatever --color says")
    func machineFormats() throws {
        let sample = try Sample()
        let file = sample.scratch.path("report.txt")
        _ = run(["audit", sample.trace, "--color", "always", "-o", file])
        #expect(try !String(contentsOfFile: file, encoding: .utf8).contains(Self.escape))
        for format in ["json", "ndjson", "sarif", "junit", "github", "markdown"] {
            #expect(!run(["audit", sample.trace, "--format", format, "--color", "always"]).out.contains(Self.escape), "\(format)")
        }
        #expect(!run(["verify", sample.trace, "--format", "json"], outputTerminal: true).out.contains(Self.escape))
    }

    @Test("verify colours ok green and FAILED red")
    func verifyColours() throws {
        let sample = try Sample()
        let ok = run(["verify", sample.trace, "--color", "always"])
        #expect(ok.code == .success)
        #expect(ok.out.hasPrefix("\u{1B}[1;32mok\u{1B}[0m: \(sample.trace): "), "\(ok.out)")
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: sample.trace))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0x4C, 0x54, 0x46, 0x52, 1, 2, 3]))  // a torn frame after the footer
        try handle.close()
        let failed = run(["verify", sample.trace, "--color", "always"])
        #expect(failed.code == .problemFound)
        #expect(failed.out.contains("\u{1B}[1;31mFAILED\u{1B}[0m: \(sample.trace): 1 problem; "), "\(failed.out)")
    }

    @Test("a --color value other than auto, always or never is a usage error with a suggestion")
    func badColor() throws {
        let sample = try Sample()
        let result = run(["audit", sample.trace, "--color", "allways"])
        #expect(result.code == .usageOrInput)
        #expect(result.err.hasPrefix("lifetrace audit: error: --color must be one of auto, always, never; got 'allways' (did you mean 'always'?)\n"), "\(result.err)")
    }

    @Test("progress on a terminal's standard error: simulate --generate, export and audit of several traces; erased at the end")
    func progressOnTerminal() throws {
        let sample = try Sample()
        let big = sample.scratch.path("big.lifetrace")
        let simulate = run(["simulate", "--generate", "40000", "--seed", "2", "-o", big], errorTerminal: true, progressDelay: 0)
        #expect(simulate.code == .success)
        #expect(simulate.err.hasPrefix("\rlifetrace simulate: 4096 of 40000 events (10%)\u{1B}[K"), "\(simulate.err.debugDescription)")
        #expect(simulate.err.hasSuffix("\r\u{1B}[K"), "erased at the end")
        #expect(!simulate.err.contains("\n"), "only the progress line")

        let exported = sample.scratch.path("big.jsonl")
        let export = run(["export", big, "-o", exported], errorTerminal: true, progressDelay: 0)
        #expect(export.code == .success)
        #expect(export.err.contains("\rlifetrace export: 4096 of "), "\(export.err.debugDescription)")
        #expect(export.err.hasSuffix("\r\u{1B}[K"))

        let audit = run(["audit", sample.trace, big], errorTerminal: true, progressDelay: 0)
        #expect(audit.err.contains("\rlifetrace audit: 1 of 2 traces audited ("), "\(audit.err.debugDescription)")
        #expect(audit.err.hasSuffix("\r\u{1B}[K"))

        // Printing the results to the same terminal: no progress line among them.
        let printed = run(["simulate", "--generate", "20000", "--seed", "2"], outputTerminal: true, errorTerminal: true, progressDelay: 0)
        #expect(printed.err.isEmpty, "\(printed.err.prefix(200).debugDescription)")
    }

    @Test("import shows its progress line through the same type, erased before its summary")
    func importProgress() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let log = root.appendingPathComponent("Tests/Fixtures/cases/09-background-draft-lost.log").path
        let scratch = try CLIScratch("import-progress")
        let result = run(["import", log, "-o", scratch.path("chat.lifetrace")], errorTerminal: true, progressDelay: 0)
        #expect(result.code == .success)
        #expect(result.err.hasPrefix("\rlifetrace import: \(log): 100% of 0.0 MB, "), "\(result.err.debugDescription)")
        #expect(result.err.hasSuffix("\r\u{1B}[K"), "\(result.err.debugDescription)")
        let piped = run(["import", log, "-o", scratch.path("chat2.lifetrace")], progressDelay: 0)
        #expect(piped.err.isEmpty, "\(piped.err.debugDescription)")
    }

    @Test("a message on standard error erases the progress line first, so it starts a line of its own")
    func messageAfterProgress() {
        let (output, captured) = CommandOutput.capturing(isStandardErrorTerminal: true)
        output.progressDelay = 0
        let line = ProgressLine(output: output)
        line?.update("lifetrace audit: 1 of 3 traces audited")
        output.errorLine("lifetrace audit: warning: x")
        line?.finish()
        #expect(captured.standardError == "\rlifetrace audit: 1 of 3 traces audited\u{1B}[K\r\u{1B}[Klifetrace audit: warning: x\n")
    }

    @Test("nothing progress-like on a pipe: the built binary with standard error to a file")
    func noProgressOnPipe() throws {
        let sample = try Sample()
        let directory = sample.scratch.url.path
        let big = sample.scratch.path("pipe.lifetrace")
        let simulate = try ChildRun.lifetrace(["simulate", "--generate", "300000", "--seed", "3", "-o", big], in: directory)
        #expect(simulate.exitStatus == 0)
        #expect(simulate.standardError.isEmpty, "\(simulate.standardError.prefix(200).debugDescription)")
        let export = try ChildRun.lifetrace(["export", big, "-o", sample.scratch.path("pipe.jsonl")], in: directory)
        #expect(export.exitStatus == 0)
        #expect(!export.standardError.contains("\r") && !export.standardError.contains("\u{1B}"))
        let audit = try ChildRun.lifetrace(["audit", big, sample.trace, "--color", "auto"], in: directory)
        #expect(audit.exitStatus == 1)
        #expect(!audit.output.contains("\r") && !audit.output.contains("\u{1B}"), "no progress and no colour on a pipe")
    }

    @Test("on a real terminal (script(1)): --color auto colours, NO_COLOR stops it")
    func realTerminal() throws {
        let script = "/usr/bin/script"
        try #require(FileManager.default.isExecutableFile(atPath: script), "script(1) (util-linux/bsdutils) is missing")
        let executable = try #require(FileSizeLimitTests.lifetrace(), "build the lifetrace product first")
        let sample = try Sample()
        func onTerminal(_ environment: [String: String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: script)
            process.arguments = ["-qec", "'\(executable)' verify '\(sample.trace)'", "/dev/null"]
            var env = ProcessInfo.processInfo.environment
            env["TERM"] = "xterm"
            env.removeValue(forKey: "NO_COLOR")
            env.merge(environment) { $1 }
            process.environment = env
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
            try process.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        let coloured = try onTerminal([:])
        #expect(coloured.contains("\u{1B}[1;32mok\u{1B}[0m: "), "\(coloured.debugDescription)")
        let plain = try onTerminal(["NO_COLOR": "1"])
        #expect(plain.contains("ok: "), "\(plain.debugDescription)")
        #expect(!plain.contains("\u{1B}[1;32m"))
    }
}

/// Coloured text keeps only the colour sequences `TerminalStyle` writes; any other escape sequence (from a name in a
/// trace) is written out.
@Suite("coloured text is escaped but for its colours")
struct StyledTextEscapingTests {
    @Test("write(styled:) keeps the style's sequences and writes out every other control character")
    func escaping() {
        let style = TerminalStyle(isEnabled: true)
        let (output, captured) = CommandOutput.capturing()
        output.isHumanReadable = true
        output.write(styled: style.apply(.error, to: "error") + ": Evil\u{1B}[2Jname \u{1B}[31mred\u{1B}[0m \u{202E}x\n")
        #expect(captured.standardOutput == "\u{1B}[1;31merror\u{1B}[0m: Evil\\u{1B}[2Jname \\u{1B}[31mred\u{1B}[0m \\u{202E}x\n", "\(captured.standardOutput.debugDescription)")
        #expect(TerminalStyle.mappingText(of: "plain", { $0.uppercased() }) == "PLAIN")
        #expect(TerminalStyle.mappingText(of: "a\u{1B}", { $0.displayEscaped }) == "a\\u{1B}", "a lone escape at the end is text")
        #expect(TerminalStyle.plain.apply(.error, to: "error") == "error")
    }
}
