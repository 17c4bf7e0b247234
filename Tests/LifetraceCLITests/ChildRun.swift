import Foundation
import Testing

/// The built `lifetrace` binary run as a child process: how it ended and the most memory it used.
///
/// Memory is the command's peak resident set as GNU time reports it (`%M`, KiB, from `wait4(2)` in `time`).
/// `wait4` here would not do: Linux carries a process's peak across `execve` from the memory it had before, and
/// a child spawned from this test process (`vfork`) starts with the test's own peak. `time` forks the command
/// from its own small process, so the figure is the command's. (GNU time is installed by tools/install-deps.)
struct ChildRun {
    /// The exit status, or `nil` when a signal ended the command.
    var exitStatus: Int32?
    /// The signal that ended the command (SIGILL for a Swift trap, SIGABRT for a failed allocation), or `nil`.
    var signal: Int32?
    /// Peak resident set size in KiB.
    var peakKiB: Int
    var standardOutput: String
    var standardError: String
    /// Both outputs, for a message a command may print on either (`verify` reports problems on standard output).
    var output: String { standardOutput + standardError }

    var peakMiB: Double { Double(peakKiB) / 1024 }

    /// Runs `lifetrace ARGUMENTS…` in `directory` under GNU time, standard input from /dev/null (or `input`),
    /// both outputs captured through files in `directory` (removed afterwards).
    static func lifetrace(_ arguments: [String], in directory: String, input: String = "/dev/null") throws -> ChildRun {
        let executable = try #require(FileSizeLimitTests.lifetrace(), "build the lifetrace product first (swift build --build-tests)")
        let time = "/usr/bin/time"
        try #require(FileManager.default.isExecutableFile(atPath: time), "GNU time is missing: run tools/install-deps")
        let id = UUID().uuidString
        let errorPath = (directory as NSString).appendingPathComponent(".child-stderr-\(id)")
        let outputPath = (directory as NSString).appendingPathComponent(".child-stdout-\(id)")
        let timePath = (directory as NSString).appendingPathComponent(".child-time-\(id)")
        defer {
            for path in [errorPath, outputPath, timePath] { unlink(path) }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: time)
        process.arguments = ["-f", "%M", "-o", timePath, executable] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardInput = FileHandle(forReadingAtPath: input)
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
        process.waitUntilExit()
        let report = (try? String(contentsOfFile: timePath, encoding: .utf8)) ?? ""
        let lines = report.split(separator: "\n")
        let peak = try #require(lines.last.flatMap { Int($0) }, "no peak RSS from time: \(report)")
        // "Command terminated by signal N" when a signal ended it (time then exits 128 + N).
        let signal = lines.first { $0.hasPrefix("Command terminated by signal ") }.flatMap { Int32($0.split(separator: " ").last ?? "") }
        return ChildRun(
            exitStatus: signal == nil ? process.terminationStatus : nil, signal: signal, peakKiB: peak,
            standardOutput: (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "")
    }
}
