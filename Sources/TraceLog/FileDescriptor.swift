#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A thin wrapper over a POSIX file descriptor whose calls throw `TraceError` `.io` with `strerror`.
///
/// Not Sendable by itself; `pread` on a descriptor that is never written is safe from several threads, which
/// `TraceReader` relies on.
struct FileDescriptor {
    let rawValue: Int32
    let path: String

    enum Mode {
        case readOnly
        case createTruncate
        case readWrite
    }

    static func open(_ path: String, _ mode: Mode) throws -> FileDescriptor {
        let flags: Int32
        switch mode {
        case .readOnly: flags = O_RDONLY | O_CLOEXEC
        // Not O_TRUNC: a writer locks the file first (`lockForWriting()`) and truncates it only then, so a
        // trace another writer is filling is never emptied by the open itself.
        case .createTruncate: flags = O_RDWR | O_CREAT | O_CLOEXEC
        case .readWrite: flags = O_RDWR | O_CLOEXEC
        }
        var fd: Int32
        repeat {
            fd = Glibc.open(path, flags, 0o644)
        } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw ioError("cannot open", path: path) }
        return FileDescriptor(rawValue: fd, path: path)
    }

    static func ioError(_ what: String, path: String, offset: UInt64? = nil) -> TraceError {
        let code = errno
        return TraceError(.io, "\(what): \(String(cString: strerror(code))) (errno \(code))", file: path, offset: offset)
    }

    func size() throws -> UInt64 {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else { throw Self.ioError("cannot stat", path: path) }
        return UInt64(info.st_size)
    }

    /// What tells whether a file changed: its device, inode, size and modification time (`fstat`).
    struct State: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64
    }

    /// The file's `State` now.
    func state() throws -> State {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else { throw Self.ioError("cannot stat", path: path) }
        return State(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size), modifiedSeconds: Int64(info.st_mtim.tv_sec),
            modifiedNanoseconds: Int64(info.st_mtim.tv_nsec))
    }

    /// Reads exactly `count` bytes at `offset`, or fewer when the file ends first.
    func read(count: Int, at offset: UInt64) throws -> [UInt8] {
        guard count > 0 else { return [] }
        // Uninitialised (no zero fill): only the bytes read are kept.
        return try [UInt8](unsafeUninitializedCapacity: count) { raw, initialized in
            var done = 0
            defer { initialized = done }
            while done < count {
                let result = pread(rawValue, raw.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if result < 0 {
                    if errno == EINTR { continue }
                    throw Self.ioError("cannot read", path: path, offset: offset + UInt64(done))
                }
                if result == 0 { break }
                done += result
            }
        }
    }

    /// Writes all of `bytes` at the end of the file with one `write(2)` (looping only if the kernel accepts
    /// part of it, which regular files do only when the disk fills or a signal interrupts).
    func writeAll(_ bytes: [UInt8]) throws {
        var done = 0
        try bytes.withUnsafeBytes { raw in
            while done < raw.count {
                let result = Glibc.write(rawValue, raw.baseAddress! + done, raw.count - done)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw Self.ioError("cannot write \(raw.count - done) bytes", path: path)
                }
                done += result
            }
        }
    }

    func seekToEnd() throws -> UInt64 {
        let result = lseek(rawValue, 0, SEEK_END)
        guard result >= 0 else { throw Self.ioError("cannot seek", path: path) }
        return UInt64(result)
    }

    func truncate(to length: UInt64) throws {
        var result: Int32
        repeat {
            result = ftruncate(rawValue, off_t(length))
        } while result < 0 && errno == EINTR
        guard result == 0 else { throw Self.ioError("cannot truncate to \(length) bytes", path: path) }
    }

    func sync() throws {
        var result: Int32
        repeat {
            result = fsync(rawValue)
        } while result < 0 && errno == EINTR
        guard result == 0 else { throw Self.ioError("cannot fsync", path: path) }
    }

    /// fsyncs the directory holding `path`, so that a newly created file's directory entry survives a crash.
    /// Errors are ignored: some file systems refuse to fsync directories, and the file's own data is synced
    /// separately.
    static func syncDirectory(of path: String) {
        let directory: String
        if let slash = path.lastIndex(of: "/") {
            directory = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            directory = "."
        }
        let fd = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        _ = Glibc.close(fd)
    }

    /// Takes an exclusive advisory lock (`flock(2)`, `LOCK_EX | LOCK_NB`) on the open file, held until the
    /// descriptor is closed: every `TraceWriter` takes it, so two writers (two processes recording into one
    /// trace, a recorder and `lifetrace verify --repair`, two writers in one process) never write at the same
    /// time, each at its own idea of the end of the file.
    ///
    /// A file system without `flock` (some network file systems answer `ENOLCK`, `EINVAL` or `EOPNOTSUPP`) is
    /// written without the lock, as before.
    ///
    /// A lock that is busy is tried again for up to `lockPatience` before giving up: a lock is held by an open
    /// file description, and a child process that another thread of this process is starting holds a copy of
    /// every descriptor between its `fork` (or `posix_spawn`'s `clone`) and its `exec`, where `O_CLOEXEC` closes
    /// them (POSIX `fork()`: "the child process shall have its own copy of the parent's file descriptors"). So a
    /// writer closed and at once reopened on the same trace can find its own old lock still held for that
    /// moment. A real second writer holds it for its whole life, and is refused after the wait.
    ///
    /// - Throws: `TraceError` `.io` when another descriptor holds the lock after `lockPatience`.
    func lockForWriting() throws {
        var waited: UInt64 = 0
        while true {
            var result: Int32
            repeat {
                result = flock(rawValue, LOCK_EX | LOCK_NB)
            } while result < 0 && errno == EINTR
            guard result < 0 else { return }
            let code = errno
            guard code == EWOULDBLOCK || code == EAGAIN else { return }
            guard waited < Self.lockPatience else { break }
            usleep(5_000)
            waited += 5_000_000
        }
        throw TraceError(
            .io,
            "another writer has this trace open (a recorder in another process, or another TraceWriter); it is locked (flock) until that writer closes it, and writing alongside it would overwrite its frames",
            file: path
        )
    }

    /// How long `lockForWriting()` waits for a busy lock, in nanoseconds (0.5 s; slept in 5 ms steps).
    static let lockPatience: UInt64 = 500_000_000

    func close() {
        _ = Glibc.close(rawValue)
    }
}
