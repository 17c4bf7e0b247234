import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The first signal (SIGINT, SIGTERM, SIGHUP) caught by the handler `ImportCommand.StandardInputSpool.readAll`
/// installs while it reads, or 0.
private let endingSignalReceived = Atomic<Int32>(0)

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
    /// bytes already in the pipe are still read. SIGTERM (`kill PID`, `kill %1` on the pipeline's job) and SIGHUP
    /// (the terminal closed) end the input the same way, unless they were ignored when `lifetrace` started
    /// (`nohup`): before, they killed the import and what was read was lost. The file is locked (`flock`) until it
    /// is removed or kept, so that `FilePaths.cleanUpStaleTemporaries` (`spooling`) takes it only once its
    /// process is gone; a killed run's copy (SIGKILL, the OOM killer) is then kept as `TRACE.stdin.log`, never
    /// removed, because it is the only copy of that input.
    final class StandardInputSpool {
        /// The file the input is copied into.
        let path: String
        /// The trace it is copied beside, for messages (the copy's temporary name means nothing to the user).
        let destination: String
        /// Bytes read from standard input and written to `path`.
        private(set) var byteCount: UInt64 = 0
        /// The signal that ended the input (SIGINT for Ctrl-C, SIGTERM, SIGHUP), or `nil` when the stream ended.
        private(set) var endingSignal: Int32?
        /// Whether a signal (Ctrl-C, SIGTERM, SIGHUP) ended the input.
        var wasInterrupted: Bool { endingSignal != nil }
        /// Whether reading stopped before the end of the input because its first bytes were refused (`readAll`).
        private(set) var stoppedEarly = false
        private var descriptor: Int32

        /// Creates the spool file beside `destination` (exclusively, mode 0600).
        ///
        /// - Throws: `ImportInputError` when the file cannot be created, with the system's reason.
        init(besides destination: String) throws(ImportInputError) {
            self.destination = destination
            path = FilePaths.temporarySibling(of: destination, "spooling")
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw ImportInputError(
                    message: "\(standardInputName): cannot create a file beside \(destination.displayEscaped) to hold a copy of standard input: \(FilePaths.renameFailure(errno))")
            }
            _ = flock(descriptor, LOCK_EX | LOCK_NB)
        }

        deinit { closeDescriptor() }

        private func closeDescriptor() {
            if descriptor >= 0 { _ = close(descriptor) }
            descriptor = -1
        }

        /// Copies `input` into the spool file until its end, until a signal ends it (SIGINT for Ctrl-C, SIGTERM,
        /// SIGHUP), or until `refuses` refuses its first bytes. The file stays open, and locked, until `remove()` or
        /// `keep(besides:)`.
        ///
        /// - Parameters:
        ///   - input: The descriptor to read (standard input).
        ///   - headBytes: How many bytes `refuses` is asked about, once (or fewer, when the input ends first: then
        ///     it is not asked, and the import refuses the input as it refuses a file).
        ///   - refuses: Whether the spool file's first bytes already show that the input cannot be imported (binary
        ///     data, a trace, gzip): reading then stops (`stoppedEarly`), so an endless stream of such bytes
        ///     (`< /dev/zero`) does not fill the disk.
        ///   - progress: Called at least four times a second while reading, with the bytes read so far.
        /// - Throws: `ImportInputError` when reading `input` or writing the file fails (a full disk), naming the
        ///   byte offset reached; the file then holds what was read before.
        func readAll(
            from input: Int32 = STDIN_FILENO, headBytes: UInt64 = 64 * 1024, refuses: () -> Bool = { false },
            progress: (UInt64) -> Void = { _ in }
        ) throws(ImportInputError) {
            endingSignalReceived.store(0, ordering: .relaxed)
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { signal in
                _ = endingSignalReceived.compareExchange(expected: 0, desired: signal, ordering: .relaxed)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0  // no SA_RESTART: a blocked poll(2) returns EINTR at once
            // SIGINT always, as documented (Ctrl-C ends the input); SIGTERM and SIGHUP unless ignored on purpose
            // (`nohup` ignores SIGHUP).
            var caught: [(signal: Int32, previous: sigaction)] = []
            for signal in [SIGINT, SIGTERM, SIGHUP] {
                var current = sigaction()
                sigaction(signal, nil, &current)
                if signal != SIGINT, unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self) == 1 { continue }  // SIG_IGN
                var previous = sigaction()
                sigaction(signal, &action, &previous)
                caught.append((signal, previous))
            }
            // A parent may start us with SIGINT blocked (Foundation's `Process` passes its thread's mask on): the
            // signal would then wait unseen, and Ctrl-C would not end the input.
            var ending = sigset_t()
            sigemptyset(&ending)
            for entry in caught { sigaddset(&ending, entry.signal) }
            var previousMask = sigset_t()
            pthread_sigmask(SIG_UNBLOCK, &ending, &previousMask)
            defer {
                pthread_sigmask(SIG_SETMASK, &previousMask, nil)
                for var entry in caught { sigaction(entry.signal, &entry.previous, nil) }
            }
            var headChecked = false
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            // After Ctrl-C, only what is already in the pipe is read (at most this many bytes: a writer that goes on
            // writing does not hold the import up).
            var drainLeft = 1 << 20
            while true {
                takeEndingSignal()
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
                if count == 0 {
                    // Ctrl-C on a terminal stops the whole pipeline: the stream's end may be read before the signal
                    // was seen above, and the note must still say what ended the input.
                    takeEndingSignal()
                    return
                }
                try write(buffer, count)
                if !headChecked, byteCount >= headBytes {
                    headChecked = true
                    if refuses() {
                        stoppedEarly = true
                        return
                    }
                }
                if wasInterrupted {
                    drainLeft -= count
                    if drainLeft <= 0 { return }
                }
            }
        }

        /// Records the signal the handler caught, if any and if none was recorded yet.
        private func takeEndingSignal() {
            guard endingSignal == nil else { return }
            let signal = endingSignalReceived.load(ordering: .relaxed)
            if signal != 0 { endingSignal = signal }
        }

        private func write(_ buffer: [UInt8], _ count: Int) throws(ImportInputError) {
            var written = 0
            while written < count {
                let result = buffer.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, count - written) }
                if result < 0 {
                    if errno == EINTR { continue }
                    throw failure("cannot copy standard input to a file beside \(destination.displayEscaped)", errno)
                }
                written += result
                byteCount += UInt64(result)
            }
        }

        private func failure(_ what: String, _ code: Int32) -> ImportInputError {
            ImportInputError(message: "\(standardInputName): \(what) at byte \(byteCount): \(FilePaths.renameFailure(code))")
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
            return StandardInputSpool.keep(path, besides: destination)
        }

        /// Moves the file at `path` to `TRACE.stdin.log` beside `destination` (`TRACE.stdin-2.log`… up to
        /// `-100` when taken; link(2), so an existing file is never replaced). Returns the new name, or `nil` when
        /// no name could be taken (the file stays at `path`).
        static func keep(_ path: String, besides destination: String) -> String? {
            for attempt in 1...100 {
                let name = "\(destination).stdin\(attempt == 1 ? "" : "-\(attempt)").log"
                if link(path, name) == 0 {
                    unlink(path)
                    return name
                }
                if errno != EEXIST { return nil }
            }
            return nil
        }
    }

    /// The progress line while standard input is read (`ProgressLine`: on a terminal only): how much was read,
    /// and that Ctrl-C ends the input.
    final class SpoolProgress {
        private let line: ProgressLine

        init(line: ProgressLine) { self.line = line }

        /// A reporter when standard error is a terminal, else `nil`.
        static func forTerminal(output: CommandOutput) -> SpoolProgress? {
            ProgressLine(output: output).map(SpoolProgress.init)
        }

        func update(bytes: UInt64) {
            line.update("lifetrace import: reading standard input: \(ImportProgress.megabytes(bytes)); Ctrl-C ends the input")
        }

        func clear() {
            line.finish()
        }
    }
}
