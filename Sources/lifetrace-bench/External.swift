// Running the peers that are programs (sqlite3, python3 with duckdb, gzip) and small file helpers.

import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An error of the harness itself, with a message for the report.
struct BenchError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) { self.description = description }
}

/// A program run to completion.
struct ProcessResult {
    var status: Int32
    /// The child's user + system CPU time (`wait4`'s resource usage), nanoseconds; microsecond resolution.
    var cpuNanoseconds: UInt64
    var standardOutput: String
    var standardError: String
}

enum External {
    /// The absolute path of `name` on `PATH`, or nil when it is not installed.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `executable` with `arguments`, feeding it `input` on standard input (or `inputFile`, or nothing), and
    /// returns its status and output. Standard output is discarded (written to the null device) unless
    /// `capturesOutput`; standard error goes to a temporary file, read back at the end.
    ///
    /// Started with `posix_spawn` and waited for with `wait4` (which also gives its CPU time), so the time around a call is the child's own run
    /// plus a spawn. (Foundation's `Process.waitUntilExit()` on Linux polls its run loop every 50 ms: every
    /// process the benchmark timed through it, `lifetrace` and `sqlite3` alike, took 50–52 ms whether it ran for
    /// 5 ms or 30 ms.)
    static func run(
        _ executable: String, _ arguments: [String], input: String? = nil, inputFile: String? = nil,
        capturesOutput: Bool = true
    ) throws -> ProcessResult {
        let errorPath = NSTemporaryDirectory() + "lifetrace-bench-stderr-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(errorPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // As Foundation's Process does: default signal dispositions and an empty signal mask in the child.
        var signals = sigset_t()
        sigfillset(&signals)
        posix_spawnattr_setsigdefault(&attributes, &signals)
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var parentEnds: [Int32] = []  // closed when done
        var childEnds: [Int32] = []   // closed in the parent once the child is started
        defer { for fd in parentEnds + childEnds { close(fd) } }
        func makePipe() throws -> (read: Int32, write: Int32) {
            var fds: [Int32] = [-1, -1]
            guard pipe(&fds) == 0 else { throw BenchError("pipe: \(String(cString: strerror(errno)))") }
            // Close-on-exec, so that only the duplicate on 0 or 1 reaches the child.
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            return (fds[0], fds[1])
        }
        var inputEnd: Int32?
        if let inputFile {
            posix_spawn_file_actions_addopen(&actions, 0, inputFile, O_RDONLY, 0)
        } else if input != nil {
            let fds = try makePipe()
            childEnds.append(fds.read)
            parentEnds.append(fds.write)
            inputEnd = fds.write
            posix_spawn_file_actions_adddup2(&actions, fds.read, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        var outputEnd: Int32?
        if capturesOutput {
            let fds = try makePipe()
            childEnds.append(fds.write)
            parentEnds.append(fds.read)
            outputEnd = fds.read
            posix_spawn_file_actions_adddup2(&actions, fds.write, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = (argv + [nil]).withUnsafeBufferPointer { argv in
            posix_spawn(&pid, executable, &actions, &attributes, argv.baseAddress!, environ)
        }
        guard spawned == 0 else { throw BenchError("cannot run \(executable): \(String(cString: strerror(spawned)))") }
        for fd in childEnds { close(fd) }
        childEnds = []

        if let input, let inputEnd {
            // Written whole before reading standard output, as before: every script this harness sends is small
            // or makes the child print little (sqlite3 writes query rows to /dev/null).
            let bytes = Array(input.utf8)
            var written = 0
            while written < bytes.count {
                let n = bytes[written...].withUnsafeBytes { write(inputEnd, $0.baseAddress, $0.count) }
                if n < 0 {
                    if errno == EINTR { continue }
                    break  // the child stopped reading; its status says why
                }
                written += n
            }
            close(inputEnd)
            parentEnds.removeAll { $0 == inputEnd }
        }
        var output: [UInt8] = []
        if let outputEnd {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(outputEnd, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                output.append(contentsOf: chunk[0..<n])
            }
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw BenchError("wait4: \(String(cString: strerror(errno)))") }
        }
        func nanoseconds(_ time: timeval) -> UInt64 { UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_usec) * 1000 }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
        let signal = status & 0x7F
        let exitStatus = signal == 0 ? (status >> 8) & 0xFF : 128 + signal
        let errorData = FileManager.default.contents(atPath: errorPath) ?? Data()
        return ProcessResult(
            status: exitStatus,
            cpuNanoseconds: nanoseconds(usage.ru_utime) + nanoseconds(usage.ru_stime),
            standardOutput: String(decoding: output, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }

    /// The size of the file at `path` in bytes (0 when missing).
    static func fileSize(_ path: String) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }
}
