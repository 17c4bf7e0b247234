import Foundation
import Testing
import TraceLog

@testable import LifetraceCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `-o` and standard output lead: outputs are written under a temporary name and renamed into place, which
/// must never replace a device, a named pipe or a symbolic link (found by hand: `lifetrace export T -o /dev/null`,
/// run as root, turned /dev/null into a regular file for the whole machine), and a write that fails names its cause.
@Suite("Output destinations")
struct OutputDestinationTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let trace = repositoryRoot.appendingPathComponent("traces/push.lifetrace").path
    static let scenario = repositoryRoot.appendingPathComponent("traces/scenarios/push.scenario").path
    static let log = repositoryRoot.appendingPathComponent("Tests/Fixtures/cases/01-cancelled-pop-save.log").path

    final class Scratch {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-output-\(UUID().uuidString)").path
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        func file(_ name: String) -> String { "\(path)/\(name)" }
        var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }
    }

    static func run(_ arguments: [String]) -> (code: ExitCode, out: String, err: String) {
        let (output, captured) = CommandOutput.capturing()
        let code = Lifetrace.run(arguments: arguments, output: output)
        return (code, captured.standardOutput, captured.standardError)
    }

    static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    /// A named pipe at `path` with a non-blocking reader already open (so a writer's open does not block);
    /// returns the reader's descriptor. The outputs written through it stay under the pipe's 64 KiB buffer.
    static func pipe(at path: String) throws -> Int32 {
        try #require(mkfifo(path, 0o600) == 0)
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        return reader
    }

    static func drain(_ reader: Int32) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(reader, &chunk, chunk.count)
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        close(reader)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("export -o and audit -o into a named pipe write through it and leave it a pipe")
    func namedPipe() throws {
        let scratch = try Scratch()
        let fifo = scratch.file("out.fifo")
        let reader = try Self.pipe(at: fifo)
        let export = Self.run(["export", Self.trace, "-o", fifo])
        #expect(export.code == .success, "\(export.err)")
        #expect(Self.fileType(fifo) == S_IFIFO, "the pipe was replaced")
        let exported = Self.drain(reader)
        #expect(exported.hasPrefix("{\"lifetrace\":"))
        #expect(exported.split(separator: "\n").count > 10)

        let reader2 = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader2 >= 0)
        let audit = Self.run(["audit", Self.trace, "--format", "json", "-o", fifo])
        #expect(audit.code == .success, "\(audit.err)")
        #expect(Self.fileType(fifo) == S_IFIFO, "the pipe was replaced")
        #expect(Self.drain(reader2).contains("\"traces\""))
        #expect(scratch.names == ["out.fifo"], "no temporary file left next to it")
    }

    @Test("import -o and simulate -o refuse a named pipe with exit 2 and leave it alone")
    func traceIntoPipeRefused() throws {
        let scratch = try Scratch()
        let fifo = scratch.file("out.fifo")
        let reader = try Self.pipe(at: fifo)
        defer { close(reader) }
        for arguments in [["import", Self.log, "-o", fifo], ["simulate", Self.scenario, "-o", fifo]] {
            let result = Self.run(arguments)
            #expect(result.code == .usageOrInput, "\(arguments[0])")
            #expect(result.err.contains("is a named pipe, not a file"), "\(result.err)")
            #expect(Self.fileType(fifo) == S_IFIFO, "\(arguments[0]) replaced the pipe")
        }
        #expect(scratch.names == ["out.fifo"])
    }

    @Test("-o through a symbolic link writes the link's target and keeps the link", arguments: ["export", "audit", "import", "simulate"])
    func symbolicLink(command: String) throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.file("real"), withIntermediateDirectories: true)
        let target = scratch.file("real/out")
        let link = scratch.file("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real/out")
        let arguments: [String] = switch command {
        case "export": ["export", Self.trace, "-o", link]
        case "audit": ["audit", Self.trace, "--format", "json", "-o", link]
        case "import": ["import", Self.log, "-o", link]
        default: ["simulate", Self.scenario, "-o", link]
        }
        let result = Self.run(arguments)
        #expect(result.code == .success, "\(result.err)")
        #expect(Self.fileType(link) == S_IFLNK, "the link was replaced by a regular file")
        #expect(Self.fileType(target) == S_IFREG, "the target was not written")
        let written = try Data(contentsOf: URL(fileURLWithPath: target))
        #expect(written.count > 100)
        if command == "import" || command == "simulate" {
            #expect(try TraceReader(path: target).eventCount > 0)
        }
        #expect(scratch.names == ["link", "real"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("real")) == ["out"])
    }

    @Test("a device that refuses the bytes (a full disk) is an error naming the cause, exit 2, and stays a device")
    func fullDevice() throws {
        let scratch = try Scratch()
        let full = scratch.file("full")
        // A private copy of /dev/full (major 1, minor 7), so a regression replaces nothing outside the scratch
        // directory; creating device nodes needs root, so without it there is nothing to check here.
        // Linux's device number for major 1, minor 7 (glibc's makedev is a macro Swift cannot call).
        #if os(Linux)
        let created = mknod(full, S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0
        #else
        let created = false
        #endif
        guard created else { return }
        for arguments in [["export", Self.trace, "-o", full], ["audit", Self.trace, "-o", full]] {
            let result = Self.run(arguments)
            #expect(result.code == .usageOrInput, "\(arguments[0]): \(result.out) \(result.err)")
            #expect(result.err.contains("cannot write \(full): No space left on device (errno 28)"), "\(result.err)")
            #expect(Self.fileType(full) == S_IFCHR, "\(arguments[0]) replaced the device")
        }
        #expect(scratch.names == ["full"])
    }
}
