import LifetraceCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output, buffered (commands can print millions of lines); standard error, unbuffered.
///
/// A failed write to standard output is remembered, not ignored: when the reader of a pipe goes away (EPIPE, as
/// with `lifetrace events T | head`; SIGPIPE is ignored so the process is not killed mid-write), output stops and
/// commands that stream results stop reading (`CommandOutput.isStandardOutputClosed`); any other failure (a full
/// disk, an I/O error) is reported at exit and makes the status 2, so a truncated result is never exit 0.
final class StandardStreams: @unchecked Sendable {
    private var buffer: [UInt8] = []
    /// The errno of the first failed write to standard output, if any.
    private(set) var outputErrno: Int32?

    /// Whether writing to standard output failed: nothing more is written there.
    var isOutputClosed: Bool { outputErrno != nil }

    /// Whether standard output failed for another reason than its reader going away.
    var outputFailure: String? {
        guard let outputErrno, outputErrno != EPIPE else { return nil }
        return String(cString: strerror(outputErrno))
    }

    func writeOut(_ text: String) {
        guard outputErrno == nil else { return }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func writeError(_ text: String) {
        flush()
        _ = Self.writeAll(Array(text.utf8), to: 2)
    }

    func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard outputErrno == nil, !buffer.isEmpty else { return }
        outputErrno = Self.writeAll(buffer, to: 1)
    }

    /// Writes every byte, retrying after EINTR and short writes.
    ///
    /// - Returns: `nil`, or the errno of the write that failed.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            offset += written
        }
        return nil
    }
}

signal(SIGPIPE, SIG_IGN)
// A write past the file size limit (`ulimit -f`) fails with EFBIG instead of killing the process: the command
// then says which file, exits 2 and removes its temporary output, as for a full disk.
signal(SIGXFSZ, SIG_IGN)
let streams = StandardStreams()
let output = CommandOutput(
    standardOutput: streams.writeOut, standardError: streams.writeError, isStandardOutputClosed: { streams.isOutputClosed },
    isStandardOutputTerminal: isatty(STDOUT_FILENO) == 1, isStandardErrorTerminal: isatty(STDERR_FILENO) == 1
)
let arguments = Array(CommandLine.arguments.dropFirst())
var code = Lifetrace.run(arguments: arguments, output: output)
streams.flush()
if let failure = streams.outputFailure {
    streams.writeError("\(Lifetrace.messagePrefix(arguments: arguments)): error: cannot write standard output: \(failure); the output is incomplete\n")
    code = ExitCode(max(code.rawValue, ExitCode.usageOrInput.rawValue))
}
exit(code.rawValue)
