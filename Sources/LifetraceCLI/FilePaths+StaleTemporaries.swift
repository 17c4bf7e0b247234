import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FilePaths {
    /// A temporary file that a run of a command writing `-o` left next to its destination when it was killed
    /// (SIGKILL, a crash, a power cut: no chance to remove it).
    struct StaleTemporary: Equatable {
        var path: String
        /// The process that wrote it, from its name; it no longer runs.
        var pid: Int32
        /// Where it was kept, when the caller keeps such files instead of removing them (`keepingAs`).
        var keptAs: String? = nil
    }

    /// Removes the temporary files of `destination` that killed runs of a command left behind, and returns them.
    ///
    /// A file is removed only when all of these hold, which together show it is a temporary of this command for
    /// this destination and that nobody writes it any more:
    /// - its name is `BASENAME.WHAT-PID-HEX` in the destination's directory (`temporarySibling(of:_:)`: PID in
    ///   decimal, HEX lowercase, neither with a leading zero, as a run writes them), or, for
    ///   `what == "partial"` (`export -o`, `audit -o`), `.BASENAME.partial-PID`, the name they used before;
    /// - no process with that PID runs (`kill(PID, 0)` fails with `ESRCH`; a PID reused since, or one of another
    ///   user, is taken as alive and the file is kept);
    /// - it is a regular file on which an exclusive `flock(2)` can be taken at once: every writer holds one while
    ///   it writes (`TraceWriter` for import and simulate, `OutputFile` for export and audit), so this also keeps
    ///   the file of a live run in another PID namespace (a container sharing the directory) or on another host
    ///   of a network file system. A file system that refuses `flock` keeps the file.
    ///
    /// The file is removed while the lock is held. Errors (an unreadable directory, a file removed meanwhile) only
    /// mean nothing is removed.
    ///
    /// - Parameter keepingAs: For a temporary that holds what cannot be read again (`import -`'s copy of standard
    ///   input): called with the file's path while its lock is held, instead of removing it; returns the name it
    ///   moved the file to (`StaleTemporary.keptAs`), or `nil` to leave the file where it is (not listed).
    static func removeStaleTemporaries(
        of destination: String, _ what: String, keepingAs keep: ((String) -> String?)? = nil
    ) -> [StaleTemporary] {
        // Paths as the destination was given: `out.lifetrace.importing-…` for `-o out.lifetrace`.
        let directory = FilePaths.directory(of: destination)
        let base = FilePaths.lastComponent(of: destination)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory) else { return [] }
        var removed: [StaleTemporary] = []
        for name in names {
            guard let pid = temporaryPID(name, base: base, what) else { continue }
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            let path = (directory as NSString).appendingPathComponent(name)
            if let keep {
                if let kept = claimIfUnlocked(path, keep) { removed.append(StaleTemporary(path: path, pid: pid, keptAs: kept)) }
            } else if claimIfUnlocked(path, { unlink($0) == 0 ? $0 : nil }) != nil {
                removed.append(StaleTemporary(path: path, pid: pid))
            }
        }
        return removed.sorted { $0.path < $1.path }
    }

    /// The PID in `name` when it is a temporary name of `base` for `what` (see `removeStaleTemporaries`).
    static func temporaryPID(_ name: String, base: String, _ what: String) -> Int32? {
        // Only names a run writes: the PID as `getpid()` prints in decimal, the random part as
        // `String(UInt32, radix: 16)` prints (lowercase ASCII), neither with a leading zero.
        func pid(_ text: Substring) -> Int32? {
            guard !text.isEmpty, text.count <= 10, text.first != "0", text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  let value = Int32(text), value > 0 else {
                return nil
            }
            return value
        }
        func isRandomPart(_ text: Substring) -> Bool {
            !text.isEmpty && text.count <= 8 && (text == "0" || text.first != "0")
                && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        }
        let prefix = "\(base).\(what)-"
        if name.hasPrefix(prefix) {
            let parts = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, isRandomPart(parts[1]) else { return nil }
            return pid(parts[0])
        }
        let legacy = ".\(base).partial-"
        if what == "partial", name.hasPrefix(legacy) { return pid(name.dropFirst(legacy.count)) }
        return nil
    }

    /// Runs `claim` (remove or move the file) on the regular file at `path` if it belongs to this user, nobody holds
    /// a `flock(2)` on it, and the name still leads to that file (same device and inode) once the lock is taken;
    /// returns what `claim` returned, `nil` when the file was left alone.
    private static func claimIfUnlocked(_ path: String, _ claim: (String) -> String?) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        // Only a regular file of this user: another user's temporary in a shared directory is not ours to judge.
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid() else { return nil }
        var result: Int32
        repeat {
            result = flock(descriptor, LOCK_EX | LOCK_NB)
        } while result < 0 && errno == EINTR
        guard result == 0 else { return nil }
        // The name must still lead to the file just checked and locked: a file swapped in since is left alone.
        var current = stat()
        guard lstat(path, &current) == 0, current.st_dev == info.st_dev, current.st_ino == info.st_ino else { return nil }
        return claim(path)
    }

    /// Removes the stale temporaries of `destination` (`removeStaleTemporaries`) and says so on standard error,
    /// one note per file: `lifetrace import: note: removed out.lifetrace.importing-4242-9f3a1c2e, a temporary
    /// file left by an earlier run (process 4242, which no longer runs)`.
    ///
    /// - Parameter keepingAs: Keeps such files instead (see `removeStaleTemporaries`); the note then names where:
    ///   `lifetrace import: note: kept out.lifetrace.stdin.log, what an earlier run (process 4242, which no longer
    ///   runs) had read from standard input before it was killed`.
    static func cleanUpStaleTemporaries(
        of destination: String, _ what: String, command: String, output: CommandOutput, keepingAs keep: ((String) -> String?)? = nil
    ) {
        for stale in removeStaleTemporaries(of: destination, what, keepingAs: keep) {
            if let kept = stale.keptAs {
                output.errorLine("lifetrace \(command): note: kept \(kept.displayEscaped), what an earlier run (process \(stale.pid), which no longer runs) had read from standard input before it was killed")
            } else {
                output.errorLine("lifetrace \(command): note: removed \(stale.path), a temporary file left by an earlier run (process \(stale.pid), which no longer runs)")
            }
        }
    }
}
