import Foundation
import Testing

@testable import LifetraceCLI

/// What a newcomer meets first: help on every command, errors that say what is wrong, documented exit codes.
@Suite("command line basics")
struct CommandLineBasicsTests {
    @Test("every listed command answers --help, -h and 'help NAME' with its usage and exit 0")
    func help() {
        for command in Lifetrace.commands {
            let name = command.spec.name
            for arguments in [[name, "--help"], [name, "-h"], ["help", name]] {
                let result = runCLI(arguments)
                #expect(result.code == .success, "\(arguments)")
                #expect(result.out.contains("USAGE: lifetrace \(name) "), "\(arguments): \(result.out.prefix(200))")
                #expect(result.err.isEmpty)
            }
        }
        let overview = runCLI(["--help"])
        #expect(overview.out.contains("Exit codes (every command): 0 success; 1 problem found"))
        #expect(overview.out.contains("--version | -V"))
        #expect(overview.out.contains("JSON Lines export"))
    }

    @Test("a missing or extra argument names it, then the usage line; exit 2", arguments: ["state", "timeline", "info", "verify", "export", "events"])
    func arguments(command: String) {
        let missing = runCLI([command])
        #expect(missing.code == .usageOrInput)
        #expect(missing.err == "lifetrace \(command): error: missing argument TRACE\nusage: lifetrace \(command) \(Lifetrace.command(named: command)!.spec.usage)\n", "\(missing.err)")
        let extra = runCLI([command, "a.lifetrace", "b.lifetrace"])
        #expect(extra.code == .usageOrInput)
        #expect(extra.err.hasPrefix("lifetrace \(command): error: unexpected argument 'b.lifetrace' (\(command) takes at most 1 positional argument)\n"), "\(extra.err)")
    }

    @Test("a directory given as TRACE, and -o into a missing directory, are refused with what is wrong; exit 2")
    func paths() throws {
        let scratch = try CLIScratch("basics")
        for command in ["state", "timeline", "info", "verify", "export", "events"] {
            let result = runCLI([command, scratch.url.path])
            #expect(result.code == .usageOrInput)
            #expect(result.err.contains("is a directory, not a trace file"), "\(command): \(result.err)")
        }
        let trace = scratch.path("g.lifetrace")
        try #require(runCLI(["simulate", "--generate", "50", "--seed", "1", "-o", trace]).code == .success)
        let export = runCLI(["export", trace, "-o", scratch.path("missing/x.jsonl")])
        #expect(export.code == .usageOrInput)
        #expect(export.err.contains("directory \(scratch.path("missing")) does not exist"), "\(export.err)")
        let audit = runCLI(["audit", trace, "-o", scratch.path("missing/report.txt")])
        #expect(audit.code == .usageOrInput)
        #expect(audit.err.contains("does not exist"), "\(audit.err)")
    }

    @Test("import reads an export renamed .txt as JSON Lines (by content), and a console log as text")
    func importByContent() throws {
        let scratch = try CLIScratch("import-content")
        let trace = scratch.path("g.lifetrace")
        try #require(runCLI(["simulate", "--generate", "200", "--seed", "2", "-o", trace]).code == .success)
        let renamed = scratch.path("export.txt")
        try #require(runCLI(["export", trace, "-o", renamed]).code == .success)
        let back = scratch.path("back.lifetrace")
        let result = runCLI(["import", renamed, "-o", back])
        #expect(result.code == .success, "\(result.err)")
        #expect(runCLI(["export", back]).out.split(separator: "\n").dropFirst() == runCLI(["export", trace]).out.split(separator: "\n").dropFirst())
        #expect(ImportCommand.startsLikeExport(renamed))
        let log = scratch.path("console.log")
        try "{\"level\":\"info\",\"msg\":\"viewDidLoad\"}\n".write(toFile: log, atomically: false, encoding: .utf8)
        #expect(!ImportCommand.startsLikeExport(log))
    }
}
