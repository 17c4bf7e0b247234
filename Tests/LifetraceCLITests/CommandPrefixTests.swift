import Foundation
import Testing

@testable import LifetraceCLI

/// Every message of a command starts with the command (`lifetrace events: error: …`); `lifetrace: error:` is only
/// for a command line without a command.
@Suite("every error names its command")
struct CommandPrefixTests {
    @Test("unreadable inputs, bad options, '-' for a trace and a missing file: each error starts with 'lifetrace COMMAND: error:'")
    func prefixed() throws {
        let scratch = try CLIScratch("prefix")
        let missing = scratch.path("missing.lifetrace")
        let notATrace = scratch.path("notes.txt")
        try "hello\n".write(toFile: notATrace, atomically: true, encoding: .utf8)
        let cases: [[String]] = [
            ["info", missing], ["verify", missing], ["events", missing], ["export", missing], ["state", missing],
            ["timeline", missing], ["audit", missing], ["report", missing], ["import", missing],
            ["info", notATrace], ["events", notATrace], ["timeline", notATrace, "--width", "3"],
            ["events", "-"], ["state", "-"], ["timeline", "-"], ["info", "-"], ["verify", "-"], ["export", "-"], ["audit", "-"],
            ["simulate", missing], ["rules", "nope"], ["completions", "csh"], ["events", missing, "--color", "always"],
        ]
        for arguments in cases {
            let result = runCLI(arguments)
            #expect(result.code == .usageOrInput, "\(arguments)")
            let first = result.err.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.hasPrefix("lifetrace \(arguments[0]): error: "), "\(arguments): \(result.err)")
            #expect(!result.err.contains("lifetrace: error"), "\(arguments): \(result.err)")
        }
    }

    @Test("a TRACE given as '-' says that traces are read from files, for every command that reads one",
          arguments: ["info", "verify", "events", "export", "state", "timeline", "audit"])
    func standardInput(command: String) {
        let result = runCLI([command, "-"])
        #expect(result.code == .usageOrInput)
        #expect(result.err.hasPrefix("lifetrace \(command): error: -: a trace is read from a file (random access, and opened more than once), not from standard input; "), "\(result.err)")
        #expect(!result.err.contains("cannot open"))
    }

    @Test("a SCENARIO given as '-' says that scenarios are read from files")
    func scenarioFromStandardInput() {
        let result = runCLI(["simulate", "-"])
        #expect(result.code == .usageOrInput)
        #expect(result.err == "lifetrace simulate: error: -: a scenario is read from a file (its errors name FILE:LINE:COLUMN), not from standard input; save it to a file first\n")
    }

    @Test("a failed write to standard output names the command (the built binary, standard output /dev/full)")
    func writeFailure() throws {
        let executable = try #require(FileSizeLimitTests.lifetrace(), "build the lifetrace product first")
        try #require(FileManager.default.fileExists(atPath: "/dev/full"))
        let scratch = try CLIScratch("prefix-full")
        let trace = scratch.path("g.lifetrace")
        try #require(runCLI(["simulate", "--generate", "2000", "--seed", "3", "-o", trace]).code == .success)
        for arguments in [["events", trace], ["--version"]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 2)
            let prefix = arguments[0] == "events" ? "lifetrace events: error: " : "lifetrace: error: "
            #expect(err == prefix + "cannot write standard output: No space left on device; the output is incomplete\n", "\(err)")
        }
    }
}
