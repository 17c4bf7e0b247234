import Foundation
import Testing

@testable import LifetraceCLI

#if canImport(Glibc)
import Glibc
#endif

/// `lifetrace import - -o TRACE` reads the log from standard input, so a live console stream can be piped in
/// (`xcrun simctl spawn booted log stream … | lifetrace import - -o TRACE`). Before, only files could be imported
/// and a pipe was refused. These tests run the `lifetrace` executable with a pipe on its standard input.
@Suite("import reads a log piped into standard input")
struct ImportStandardInputTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/cases")
    static let log = fixtures.appendingPathComponent("01-cancelled-pop-save.log").path

    /// A `lifetrace` process with a pipe on standard input, and its outputs.
    final class Run {
        let process = Process()
        let input = Pipe()
        private let out = Pipe()
        private let err = Pipe()

        init(_ arguments: [String], in directory: String) throws {
            let executable = try #require(FileSizeLimitTests.lifetrace(), "build the lifetrace product first (swift build --build-tests)")
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: directory)
            process.standardInput = input
            process.standardOutput = out
            process.standardError = err
            try process.run()
        }

        func write(_ bytes: Data) { input.fileHandleForWriting.write(bytes) }

        /// Waits (up to 10 s) until the copy of standard input beside `trace` in `directory` holds `count` bytes,
        /// as a stream would have delivered them. Whether it did.
        func waitUntilCopied(_ count: Int, besides trace: String, in directory: String) -> Bool {
            for _ in 0..<200 {
                let spool = ImportStandardInputTests.names(in: directory).first { $0.hasPrefix("\(trace).spooling-") }
                let path = spool.map { URL(fileURLWithPath: directory).appendingPathComponent($0).path }
                if let path, let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber,
                   size.intValue == count
                {
                    return true
                }
                usleep(50_000)
            }
            return false
        }

        /// Waits (up to 30 s) for the process to end; kills it if it has not, so that a process ignoring a signal
        /// fails the test instead of hanging it. Whether it ended by itself.
        func waitForExit() -> Bool {
            var waited = 0
            while process.isRunning, waited < 600 {
                usleep(50_000)
                waited += 1
            }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            return waited < 600
        }

        func closeInput() { try? input.fileHandleForWriting.close() }

        /// Waits for the process to end; its status and outputs.
        func finish() -> (status: Int32, out: String, err: String) {
            let outData = out.fileHandleForReading.readDataToEndOfFile()
            let errData = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            closeInput()
            return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
        }
    }

    /// Runs `lifetrace ARGUMENTS` with `bytes` on standard input, closed after them.
    static func pipe(_ bytes: Data, _ arguments: [String], in directory: String) throws -> (status: Int32, out: String, err: String) {
        let run = try Run(arguments, in: directory)
        run.write(bytes)
        run.closeInput()
        return run.finish()
    }

    static func names(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    @Test("a console log piped in gives the events the file gives, and no temporary file is left")
    func pipedLog() throws {
        let scratch = try CLIScratch("stdin-log")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.log))
        let result = try Self.pipe(bytes, ["import", "-", "-o", "piped.lifetrace"], in: scratch.url.path)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.hasPrefix("imported 16 events from <stdin> into piped.lifetrace"))
        #expect(runCLI(["import", Self.log, "-o", scratch.path("file.lifetrace")]).code == .success)
        let piped = runCLI(["events", scratch.path("piped.lifetrace")])
        let fromFile = runCLI(["events", scratch.path("file.lifetrace")])
        #expect(piped.code == .success)
        #expect(piped.out == fromFile.out)
        #expect(Self.names(in: scratch.url.path) == ["file.lifetrace", "piped.lifetrace"])
    }

    @Test("a JSONL export piped in is told by its content")
    func pipedExport() throws {
        let scratch = try CLIScratch("stdin-jsonl")
        #expect(runCLI(["import", Self.log, "-o", scratch.path("file.lifetrace")]).code == .success)
        #expect(runCLI(["export", scratch.path("file.lifetrace"), "-o", scratch.path("file.jsonl")]).code == .success)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: scratch.path("file.jsonl")))
        let result = try Self.pipe(bytes, ["import", "-", "-o", "again.lifetrace"], in: scratch.url.path)
        #expect(result.status == 0, "\(result.err)")
        #expect(runCLI(["events", scratch.path("again.lifetrace")]).out == runCLI(["events", scratch.path("file.lifetrace")]).out)
    }

    @Test("Ctrl-C (SIGINT) ends the input: what was read is imported, exit 0")
    func interrupted() throws {
        let scratch = try CLIScratch("stdin-interrupt")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.log))
        let run = try Run(["import", "-", "-o", "live.lifetrace"], in: scratch.url.path)
        run.write(bytes)
        try #require(run.waitUntilCopied(bytes.count, besides: "live.lifetrace", in: scratch.url.path))
        run.process.interrupt()
        #expect(run.waitForExit(), "SIGINT did not end the import")
        let result = run.finish()
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.contains("Ctrl-C ended the input after \(bytes.count) bytes; importing what was read"))
        #expect(result.out.hasPrefix("imported 16 events from <stdin>"))
        #expect(Self.names(in: scratch.url.path) == ["live.lifetrace"])
    }

    @Test("a failed import keeps what was read, under a name of its own, never over an existing file")
    func failureKeepsInput() throws {
        let scratch = try CLIScratch("stdin-keep")
        let bytes = Data("not a lifecycle line\nviewDidLoad\n".utf8)
        for expected in ["out.lifetrace.stdin.log", "out.lifetrace.stdin-2.log"] {
            let result = try Self.pipe(bytes, ["import", "-", "-o", "out.lifetrace", "--strict"], in: scratch.url.path)
            #expect(result.status == 2)
            #expect(result.err.contains("<stdin>:1: no lifecycle callback or mark"))
            #expect(result.err.contains("is kept in \(expected)"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path(expected))) == bytes)
        }
        #expect(Self.names(in: scratch.url.path) == ["out.lifetrace.stdin-2.log", "out.lifetrace.stdin.log"])
    }

    @Test("a killed run's copy of standard input is kept by the next import as TRACE.stdin.log, never removed")
    func killedRunKeepsInput() throws {
        let scratch = try CLIScratch("stdin-killed")
        let first = try Data(contentsOf: URL(fileURLWithPath: Self.log))
        let run = try Run(["import", "-", "-o", "out.lifetrace"], in: scratch.url.path)
        run.write(first)
        try #require(run.waitUntilCopied(first.count, besides: "out.lifetrace", in: scratch.url.path))
        kill(run.process.processIdentifier, SIGKILL)  // as the OOM killer would: no chance to keep anything
        _ = run.finish()
        let spool = try #require(Self.names(in: scratch.url.path).first { $0.hasPrefix("out.lifetrace.spooling-") })
        let pid = spool.dropFirst("out.lifetrace.spooling-".count).split(separator: "-")[0]

        // The next import into the same trace, with other input: the killed run's input is moved aside, intact.
        let second = first.prefix(first.count / 2)
        let result = try Self.pipe(Data(second), ["import", "-", "-o", "out.lifetrace"], in: scratch.url.path)
        #expect(result.err.contains(
            "note: kept out.lifetrace.stdin.log, what an earlier run (process \(pid), which no longer runs) had read from standard input before it was killed"),
            "\(result.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path("out.lifetrace.stdin.log"))) == first)
        #expect(!Self.names(in: scratch.url.path).contains { $0.contains(".spooling-") })
        // What was kept imports as the file it is.
        let kept = runCLI(["import", scratch.path("out.lifetrace.stdin.log"), "-o", scratch.path("kept.lifetrace")])
        #expect(kept.code == .success, "\(kept.err)")
        #expect(kept.out.hasPrefix("imported 16 events from"))
    }

    @Test("empty standard input is an error, and leaves no file")
    func emptyInput() throws {
        let scratch = try CLIScratch("stdin-empty")
        let result = try Self.pipe(Data(), ["import", "-", "-o", "out.lifetrace"], in: scratch.url.path)
        #expect(result.status == 2)
        #expect(result.err.contains("<stdin>: nothing was read from standard input (0 bytes): nothing to import"))
        #expect(Self.names(in: scratch.url.path).isEmpty)
    }

    @Test("`import -` without -o, or with a bad option, fails before standard input is read")
    func optionsCheckedFirst() {
        let noOutput = runCLI(["import", "-"])
        #expect(noOutput.code == .usageOrInput)
        #expect(noOutput.err.contains("reading the log from standard input (-) needs -o TRACE"))
        let badMark = runCLI(["import", "-", "-o", "x.lifetrace", "--mark", "nothing-after"])
        #expect(badMark.code == .usageOrInput)
        #expect(!badMark.err.contains("standard input"))
    }
}
