import Foundation
import Testing

/// The built `lifetrace` binary run as a child process: how it ended and the most memory it used.
///
/// Memory is the child's peak resident set (`ru_maxrss` from `wait4(2)`, KiB on Linux), so a test can bound what
/// a command needs on a hostile input without trusting the command to measure itself.
struct ChildRun {
    /// The exit status, or `nil` when a signal ended the child.
    var exitStatus: Int32?
    /// The signal that ended the child (SIGILL for a Swift trap, SIGABRT for a failed allocation), or `nil`.
    var signal: Int32?
    /// Peak resident set size in KiB.
    var peakKiB: Int
    var standardOutput: String
    var standardError: String
    /// Both outputs, for a message a command may print on either (`verify` reports problems on standard output).
    var output: String { standardOutput + standardError }

    var peakMiB: Double { Double(peakKiB) / 1024 }

    /// Runs `lifetrace ARGUMENTS…` in `directory`, standard input from /dev/null (or `input`), both outputs
    /// captured through files in `directory` (removed afterwards).
    static func lifetrace(_ arguments: [String], in directory: String, input: String = "/dev/null") throws -> ChildRun {
        let executable = try #require(FileSizeLimitTests.lifetrace(), "build the lifetrace product first (swift build --build-tests)")
        let errorPath = (directory as NSString).appendingPathComponent(".child-stderr-\(UUID().uuidString)")
        let outputPath = (directory as NSString).appendingPathComponent(".child-stdout-\(UUID().uuidString)")
        defer {
            unlink(errorPath)
            unlink(outputPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // The shell changes directory and execs the binary in its own process, so `wait4` reports the binary's peak.
        let argv = (["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", directory, executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ)
        try #require(spawned == 0, "posix_spawn failed: \(spawned)")
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            try #require(errno == EINTR, "wait4 failed: \(errno)")
        }
        let error = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let signalled = status & 0x7F
        if signalled == 0 {
            return ChildRun(exitStatus: (status >> 8) & 0xFF, signal: nil, peakKiB: usage.ru_maxrss, standardOutput: output, standardError: error)
        }
        return ChildRun(exitStatus: nil, signal: signalled, peakKiB: usage.ru_maxrss, standardOutput: output, standardError: error)
    }
}
