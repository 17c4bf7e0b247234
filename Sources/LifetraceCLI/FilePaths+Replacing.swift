import Foundation
import TraceLog
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FilePaths {
    /// Why a trace must not be renamed onto `destination` (a path with its symbolic links resolved), or `nil`:
    /// `simulate -o` replaces a trace, never a file of another kind (a scenario, a log, a note the
    /// `-o` was mistyped onto, the file a symbolic link leads to). Only a missing file, an empty one or a
    /// Lifetrace trace (its first 8 bytes) may be replaced.
    static func foreignFileProblem(at destination: String, shownAs shown: String) -> String? {
        var info = stat()
        guard stat(destination, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0 else { return nil }
        let descriptor = open(destination, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: TraceHeader.magic.count)
        let count = read(descriptor, &head, head.count)
        if count == head.count, head == TraceHeader.magic { return nil }
        let through = destination == shown ? "" : " (\(destination))"
        return "-o '\(shown)'\(through) exists and is not a Lifetrace trace; it is left as it was (remove it first, or choose another -o)"
    }
}

extension FilePaths {
    /// Whether a writer (a `Recorder`, a `TraceWriter`) has the trace at `path` open: it holds the writers'
    /// exclusive `flock(2)` until it closes (docs/RECORDING.md), so a shared lock cannot be taken now.
    static func isHeldByWriter(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var result: Int32
        repeat {
            result = flock(descriptor, LOCK_SH | LOCK_NB)
        } while result < 0 && errno == EINTR
        return result < 0 && (errno == EWOULDBLOCK || errno == EAGAIN)
    }
}
