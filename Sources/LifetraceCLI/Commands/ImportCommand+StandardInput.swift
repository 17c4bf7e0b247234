import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Set by the SIGINT handler `ImportCommand.StandardInputSpool.readAll` installs while it reads.
private let interruptRequested = Atomic<Bool>(false)

extension ImportCommand {
    /// How standard input (`-`) is named in messages and as the events' source file.
    static let standardInputName = "<stdin>"

    /// Standard input copied into a file beside the trace, `TRACE.spooling-PID-RANDOM` (`FilePaths.temporarySibling`),
    /// so that the import can read it as it reads a file: more than once (the format is told by the first bytes,
    /// the trace id hashes the whole input, a text log may need a second pass; see `importText`).
    ///
    /// This is what makes `xcrun simctl spawn booted log stream … | lifetrace import - -o TRACE` work: the input
    /// ends when the stream closes, or at Ctrl-C. SIGINT is caught only while standard input is read, and ends the
    /// input as the end of the stream would (a terminal sends it to the whole pipeline, so the stream stops too);
    /// bytes already in the pipe are still read. The file is locked (`flock`) while it lives, so that
    /// `FilePaths.cleanUpStaleTemporaries` (`spooling`) removes it only once its process is gone.
    final class StandardInputSpool {
        /// The file the input is copied into.
        let path: String
        /// Bytes read from standard input and written to `path`.
        private(set) var byteCount: UInt64 = 0
        /// Whether Ctrl-C (SIGINT) ended the input.
        private(set) var wasInterrupted = false
        private var descriptor: Int32

        /// Creates the spool file beside `destination` (exclusively, mode 0600).
        ///
        /// - Throws: `ImportInputError` when the file cannot be created, with the system's reason.
        init(besides destination: String) throws(ImportInputError) {
            path = FilePaths.temporarySibling(of: destination, "spooling")
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw ImportInputError(message: "cannot create \(path) to hold standard input: \(FilePaths.renameFailure(errno))")
            }
            _ = flock(descriptor, LOCK_EX | LOCK_NB)
        }

        deinit { closeDescriptor() }

        private func closeDescriptor() {
            if descriptor >= 0 { _ = close(descriptor) }
            descriptor = -1
        }

        /// Copies `input` into the spool file until its end or until SIGINT (Ctrl-C), then closes the file.
        ///
        /// - Parameters:
        ///   - input: The descriptor to read (standard input).
        ///   - progress: Called at least four times a second while reading, with the bytes read so far.
        /// - Throws: `ImportInputError` when reading `input` or writing the file fails (a full disk), naming the
        ///   byte offset reached; the file then holds what was read before.
        func readAll(from input: Int32 = STDIN_FILENO, progress: (UInt64) -> Void = { _ in }) throws(ImportInputError) {
            interruptRequested.store(false, ordering: .relaxed)
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in interruptRequested.store(true, ordering: .relaxed) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0  // no SA_RESTART: a blocked poll(2) returns EINTR at once
            var previous = sigaction()
            sigaction(SIGINT, &action, &previous)
            // A parent may start us with SIGINT blocked (Foundation's `Process` passes its thread's mask on): the
            // signal would then wait unseen, and Ctrl-C would not end the input.
            var interrupt = sigset_t()
            sigemptyset(&interrupt)
            sigaddset(&interrupt, SIGINT)
            var previousMask = sigset_t()
            pthread_sigmask(SIG_UNBLOCK, &interrupt, &previousMask)
            defer {
                pthread_sigmask(SIG_SETMASK, &previousMask, nil)
                sigaction(SIGINT, &previous, nil)
                closeDescriptor()
            }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            // After Ctrl-C, only what is already in the pipe is read (at most this many bytes: a writer that goes on
            // writing does not hold the import up).
            var drainLeft = 1 << 20
            while true {
                if !wasInterrupted, interruptRequested.load(ordering: .relaxed) { wasInterrupted = true }
                var request = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
                let ready = poll(&request, 1, wasInterrupted ? 0 : 250)
                if ready < 0 {
                    if errno == EINTR { continue }
                    throw failure("cannot read standard input", errno)
                }
                progress(byteCount)
                if ready == 0 {
                    if wasInterrupted { return }
                    continue
                }
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    throw failure("cannot read standard input", errno)
                }
                if count == 0 { return }
                try write(buffer, count)
                if wasInterrupted {
                    drainLeft -= count
                    if drainLeft <= 0 { return }
                }
            }
        }

        private func write(_ buffer: [UInt8], _ count: Int) throws(ImportInputError) {
            var written = 0
            while written < count {
                let result = buffer.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, count - written) }
                if result < 0 {
                    if errno == EINTR { continue }
                    throw failure("cannot write \(path)", errno)
                }
                written += result
                byteCount += UInt64(result)
            }
        }

        private func failure(_ what: String, _ code: Int32) -> ImportInputError {
            ImportInputError(message: "\(what) at byte \(byteCount): \(FilePaths.renameFailure(code))")
        }

        /// Removes the spool file.
        func remove() {
            closeDescriptor()
            unlink(path)
        }

        /// Moves the spool file to a name of its own beside `destination` (`TRACE.stdin.log`, or
        /// `TRACE.stdin-2.log`… when taken) when the import failed, so that the input, which cannot be read again,
        /// is not lost. Returns the new name, or `nil` (the file stays at `path`) when no name could be taken.
        func keep(besides destination: String) -> String? {
            closeDescriptor()
            for attempt in 1...100 {
                let name = "\(destination).stdin\(attempt == 1 ? "" : "-\(attempt)").log"
                // link(2) fails when the name exists: an existing file is never replaced.
                if link(path, name) == 0 {
                    unlink(path)
                    return name
                }
                if errno != EEXIST { return nil }
            }
            return nil
        }
    }

    /// A progress line on standard error while standard input is read, when standard error is a terminal: how
    /// much was read, and that Ctrl-C ends the input (after one second, then four times a second).
    final class SpoolProgress {
        private let start = DispatchTime.now().uptimeNanoseconds
        private var nextUpdate: UInt64
        private var shown = false

        init() { nextUpdate = start + 1_000_000_000 }

        /// A reporter when standard error is a terminal, else `nil`.
        static func forTerminal() -> SpoolProgress? {
            isatty(STDERR_FILENO) == 1 ? SpoolProgress() : nil
        }

        func update(bytes: UInt64) {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now >= nextUpdate else { return }
            nextUpdate = now + 250_000_000
            ImportProgress.writeToStandardError(
                "\rlifetrace import: reading standard input: \(ImportProgress.megabytes(bytes)); Ctrl-C ends the input\u{1B}[K")
            shown = true
        }

        func clear() {
            guard shown else { return }
            ImportProgress.writeToStandardError("\r\u{1B}[K")
            shown = false
        }
    }
}
