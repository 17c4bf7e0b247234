import ArgumentParsing
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Path checks shared by commands that write files, so an output never replaces one of their inputs.
enum FilePaths {
    /// Whether `first` and `second` name one file: the same path after resolving symbolic links, or (both
    /// existing) the same device and inode, so hard links count too.
    static func isSameFile(_ first: String, _ second: String) -> Bool {
        let resolved = { (path: String) in URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }
        if resolved(first) == resolved(second) { return true }
        let manager = FileManager.default
        guard let one = try? manager.attributesOfItem(atPath: first), let other = try? manager.attributesOfItem(atPath: second),
              let inodeOne = one[.systemFileNumber] as? NSNumber, let inodeOther = other[.systemFileNumber] as? NSNumber,
              let deviceOne = one[.systemNumber] as? NSNumber, let deviceOther = other[.systemNumber] as? NSNumber
        else { return false }
        return inodeOne == inodeOther && deviceOne == deviceOther
    }

    /// Why a file cannot be written at `path` because of its directory (missing, or not a directory), or `nil`.
    static func unwritableDirectory(of path: String) -> String? {
        let directory = FilePaths.directory(of: path)
        guard !directory.isEmpty else { return nil }
        if !FileManager.default.fileExists(atPath: directory) { return "directory \(directory) does not exist" }
        if !isDirectory(directory) { return "\(directory) is not a directory" }
        return nil
    }

    /// What `path` is when it leads (through symbolic links) to something other than a regular file or a
    /// directory — `"a named pipe (FIFO)"`, `"a character device"`, `"a block device"`, `"a socket"` — or `nil`
    /// (a regular file, a directory, or nothing there: the caller's own checks say why).
    ///
    /// Inputs are checked with it before they are opened: opening a FIFO blocks until a writer comes (`lifetrace
    /// audit DIR` hung on a `*.lifetrace` FIFO), and a pipe (`<(…)`, `/dev/stdin` fed by `|`) can be read only once
    /// from the start, while a trace is read with random access and every input is opened more than once (its
    /// format is sniffed first).
    static func specialInputKind(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFIFO: return "a named pipe (FIFO)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return nil
        }
    }

    /// The message for an input that `specialInputKind(_:)` names: `is a named pipe (FIFO), not a regular file; …`.
    static func specialInputMessage(_ kind: String) -> String {
        "is \(kind), not a regular file; lifetrace reads its inputs from files (save the output first, e.g. COMMAND > FILE, and pass FILE)"
    }

    /// An input refused by `specialInputKind(_:)`, printed as `PATH: is … not a regular file; …`.
    struct SpecialInput: Error, CustomStringConvertible {
        var path: String
        var kind: String
        var description: String { "\(path): \(FilePaths.specialInputMessage(kind))" }
    }

    /// Why the file at `path` cannot be read, as the other inputs say it: `is a directory`, or the system's reason
    /// (`No such file or directory (errno 2)`).
    static func unreadableReason(_ path: String) -> String {
        if isDirectory(path) { return "is a directory" }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor < 0 else {
            close(descriptor)
            return "cannot be read"
        }
        let code = errno
        return "\(String(cString: strerror(code))) (errno \(code))"
    }

    /// Whether `path` exists and is a directory.
    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

/// Where an output path leads once symbolic links are followed.
///
/// Outputs are written under a temporary name and renamed into place, so a failed run never leaves a partial
/// file. That is only right for a regular file (or a path where nothing exists yet), and only at the link's
/// target: renaming over `-o /dev/null` would replace the device node with a regular file (as root, for every
/// program on the machine), and renaming over a symbolic link would replace the link and leave its target stale.
enum OutputTarget: Equatable {
    /// A regular file, or nothing yet, at this path (symbolic links resolved): write a temporary file in its
    /// directory and rename it onto this path.
    case file(String)
    /// A character or block device, FIFO or socket (`/dev/null`, `/dev/stdout`, a named pipe): written in place,
    /// never renamed over.
    case special(String, kind: String)

    /// Follows `path`'s symbolic links (up to 40, as the kernel does) and classifies what is there.
    init(path: String) {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0 else { break }
            let type = info.st_mode & S_IFMT
            if type == S_IFLNK {
                var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let length = readlink(current, &buffer, buffer.count - 1)
                guard length > 0 else { break }
                let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
                let directory = FilePaths.directory(of: current)
                current = target.hasPrefix("/") || directory.isEmpty ? target : (directory as NSString).appendingPathComponent(target)
                continue
            }
            switch type {
            case S_IFCHR: self = .special(current, kind: "a character device"); return
            case S_IFBLK: self = .special(current, kind: "a block device"); return
            case S_IFIFO: self = .special(current, kind: "a named pipe"); return
            case S_IFSOCK: self = .special(current, kind: "a socket"); return
            default: self = .file(current); return
            }
        }
        self = .file(current)
    }
}

extension FilePaths {
    /// The directory part of `path`, as `NSString.deletingLastPathComponent` gives it (`a/b` → `a`, `/x` → `/`,
    /// `x` → ``, trailing slashes ignored), without calling it: swift-corelibs-foundation traps on a path of one
    /// character (`-o x` crashed every command that writes a file).
    static func directory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        var directory = trimmed[..<slash]
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        return directory.isEmpty ? "/" : String(directory)
    }

    /// The last component of `path` (`a/b` → `b`, `x` → `x`, trailing slashes ignored); see `directory(of:)`.
    static func lastComponent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// The path to rename a finished trace onto for `-o path`: `path` with its symbolic links resolved.
    ///
    /// - Throws: `ValidationError` when `path` leads to a device, FIFO or socket: a trace is a seekable file
    ///   written under a temporary name and renamed into place, which would replace the special file.
    static func traceDestination(_ path: String) throws -> String {
        switch OutputTarget(path: path) {
        case .file(let resolved):
            return resolved
        case .special(let resolved, let kind):
            let shown = resolved == path ? "" : " (\(resolved))"
            throw ValidationError("-o '\(path)'\(shown) is \(kind), not a file; a trace is written to a regular file")
        }
    }
}

extension FilePaths {
    /// The temporary file that `-o path` is written under before it is renamed onto `path`: in the same directory
    /// (rename(2) does not cross file systems), named `path.WHAT-PID-RANDOM`, unique to this process and call. Two
    /// runs writing the same `-o` at once then never lock, remove or rename each other's file: each one writes its
    /// own, and the last rename wins. (Before, both used `path.WHAT`: one removed the file the other was writing,
    /// and every run could fail, leaving no trace at all.)
    static func temporarySibling(of path: String, _ what: String) -> String {
        "\(path).\(what)-\(getpid())-\(String(UInt32.random(in: .min ... .max), radix: 16))"
    }

    /// Why `rename(from, to)` failed, for an error message: `strerror` and the errno.
    static func renameFailure(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }
}

/// What `FilePaths.replaceTrace(at:with:)` did.
enum TraceReplacement: Equatable {
    case replaced
    /// `rename(2)` failed with this errno.
    case renameFailed(Int32)
    /// A writer (a `Recorder`, a `TraceWriter`) has the trace at the destination open: nothing was renamed.
    case busy
}

extension FilePaths {
    /// Renames the finished trace `temporary` onto `destination`, unless a writer has the trace now at
    /// `destination` open. A writer holds the writers' exclusive `flock(2)` until it closes (`TraceWriter`);
    /// renaming over its file would leave it writing into a file that no longer has a name, and every event it
    /// records from then on would be lost without a word. A shared lock is held across the rename, so two
    /// commands replacing the same trace at once do not refuse each other, and a writer opening it meanwhile
    /// waits.
    static func replaceTrace(at destination: String, with temporary: String) -> TraceReplacement {
        let descriptor = open(destination, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        defer { if descriptor >= 0 { close(descriptor) } }
        if descriptor >= 0 {
            var result: Int32
            repeat {
                result = flock(descriptor, LOCK_SH | LOCK_NB)
            } while result < 0 && errno == EINTR
            if result < 0, errno == EWOULDBLOCK || errno == EAGAIN { return .busy }
        }
        guard rename(temporary, destination) == 0 else { return .renameFailed(errno) }
        return .replaced
    }

    /// The error for `TraceReplacement.busy`.
    static func busyDestinationMessage(_ destination: String) -> String {
        "\(destination): another writer has this trace open (a recorder in another process, or another TraceWriter); replacing it would lose every event that writer records from now on. Stop that writer first, or choose another -o"
    }
}
