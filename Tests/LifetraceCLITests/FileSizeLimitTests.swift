import Foundation
import Testing

@testable import LifetraceCLI

/// A write past the process's file size limit (`ulimit -f`, RLIMIT_FSIZE, as CI runners and sandboxes set it)
/// raises SIGXFSZ, whose default action kills the process: `lifetrace simulate -o` died with status 153 and
/// left its `TRACE.simulating` temporary file behind, with no message. `lifetrace` now ignores SIGXFSZ, as it
/// does SIGPIPE, so the write fails with EFBIG: a one-line error naming the file and "File too large", exit 2,
/// and the temporary file removed.
@Suite("a file size limit is an error, not a kill")
struct FileSizeLimitTests {
    static func lifetrace() -> String? {
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

    /// Runs `lifetrace ARGUMENTS…` under `ulimit -f 16` (8 or 16 KiB, as the shell counts blocks).
    static func runLimited(_ arguments: [String], in directory: String) throws -> (reason: Process.TerminationReason, status: Int32, err: String) {
        let executable = try #require(lifetrace(), "build the lifetrace product first (swift build --build-tests)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The test runner may ignore SIGXFSZ itself, and an ignored signal stays ignored through exec (and a shell
        // cannot reset it): GNU env's --default-signal gives the child the default action back.
        process.arguments = ["-c", "ulimit -f 16 && exec env --default-signal=XFSZ \"$0\" \"$@\"", executable] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationReason, process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("simulate -o past the limit: exit 2 naming the file, no temporary file left")
    func simulate() throws {
        let scratch = try CLIScratch("fsize")
        let result = try Self.runLimited(["simulate", "--generate", "50000", "-o", "big.lifetrace"], in: scratch.url.path)
        #expect(result.reason == .exit)
        #expect(result.status == 2)
        #expect(result.err.contains("big.lifetrace"))
        #expect(result.err.contains("File too large"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }

    @Test("export -o past the limit: exit 2 naming the file, no partial file left")
    func export() throws {
        let scratch = try CLIScratch("fsize-export")
        let trace = scratch.path("session.lifetrace")
        try #require(runCLI(["simulate", "--generate", "3000", "-o", trace]).code == .success)
        let result = try Self.runLimited(["export", trace, "-o", "session.jsonl"], in: scratch.url.path)
        #expect(result.reason == .exit)
        #expect(result.status == 2)
        #expect(result.err.contains("session.jsonl"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["session.lifetrace"])
    }
}
