import Foundation
import Testing

@testable import LifetraceCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Inputs that are not regular files: a named pipe (FIFO), `<(…)` process substitution (`/dev/fd/63`), a pipe on
/// standard input (`/dev/stdin`), a character device (`/dev/null`).
///
/// Before, a FIFO named `*.lifetrace` made `lifetrace audit DIR` (and `info FIFO`) block forever in `open(2)`; a
/// pipe read as a trace was "empty file (0 bytes)"; a pipe read as JSON Lines lost the bytes the format sniffing
/// had read and failed "not JSON" at a made-up place; `import <(…)` said "empty file". Every input is now
/// checked before it is opened: a special file is refused with what it is, exit 2, and is never opened.
@Suite("inputs that are not regular files are refused before they are opened")
struct SpecialFileInputTests {
    final class Pipes {
        let scratch: CLIScratch
        let fifo: String
        let trace: String

        init() throws {
            scratch = try CLIScratch("special-inputs")
            fifo = scratch.path("pipe.lifetrace")
            try #require(mkfifo(fifo, 0o600) == 0)
            trace = scratch.path("swipe.lifetrace")
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let scenario = root.appendingPathComponent("traces/scenarios/cancelled-swipe-back-save.scenario").path
            try #require(runCLI(["simulate", scenario, "-o", trace]).code == .success)
        }
    }

    static let traceCommands: [[String]] = [
        ["info"], ["verify"], ["events"], ["export"], ["state", "--at", "1s"], ["timeline"], ["audit"], ["import"],
    ]

    @Test("every command refuses a FIFO as its input, naming it and what it is, without blocking", arguments: traceCommands)
    func fifoRefused(command: [String]) throws {
        let pipes = try Pipes()
        let arguments = [command[0], pipes.fifo] + command.dropFirst() + (command[0] == "import" ? ["-o", pipes.scratch.path("out.lifetrace")] : [])
        let result = runCLI(arguments)
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains(pipes.fifo))
        #expect(result.err.contains("named pipe (FIFO), not a regular file"))
        #expect(!FileManager.default.fileExists(atPath: pipes.scratch.path("out.lifetrace")))
    }

    @Test("audit DIR reports a FIFO among its traces and audits the others")
    func auditDirectoryWithFIFO() throws {
        let pipes = try Pipes()
        let result = runCLI(["audit", pipes.scratch.url.path])
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains("pipe.lifetrace: is a named pipe (FIFO), not a regular file"))
        #expect(result.out.contains("audited 1 trace (107 events)"))
    }

    @Test("a character device is refused as a trace, not read as an empty file")
    func characterDevice() throws {
        let result = runCLI(["info", "/dev/null"])
        #expect(result.code == .usageOrInput)
        #expect(result.err.contains("/dev/null: is a character device, not a regular file"))
    }

    @Test("a scenario and a --config that are FIFOs are refused the same way")
    func scenarioAndConfig() throws {
        let pipes = try Pipes()
        let simulated = runCLI(["simulate", pipes.fifo, "-o", pipes.scratch.path("out.lifetrace")])
        #expect(simulated.code == .usageOrInput)
        #expect(simulated.err.contains("\(pipes.fifo): is a named pipe (FIFO), not a regular file"))
        let audited = runCLI(["audit", pipes.trace, "--config", pipes.fifo])
        #expect(audited.code == .usageOrInput)
        #expect(audited.err.contains("\(pipes.fifo): is a named pipe (FIFO), not a regular file"))
    }

    @Test("a symbolic link to a regular file is still read")
    func linkToRegularFile() throws {
        let pipes = try Pipes()
        let link = pipes.scratch.path("link.lifetrace")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: pipes.trace)
        #expect(runCLI(["info", link]).code == .success)
    }
}
