#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's standard output (buffered: commands can print millions of lines) and standard error
/// (unbuffered), for the `lifetrace` executable's `CommandOutput`.
///
/// A write to standard output that fails (a full disk behind `> file`, `> /dev/full`, a closed pipe with
/// SIGPIPE ignored) is remembered in `outputFailure`, and later output is dropped; the executable then reports
/// it and exits 2 instead of claiming success for output that was lost.
public final class StandardStreams: @unchecked Sendable {
    private let outputDescriptor: Int32
    private let errorDescriptor: Int32
    private var buffer: [UInt8] = []

    /// The `errno` of the first failed write to standard output, if one failed.
    public private(set) var outputFailure: Int32?

    /// - Parameters:
    ///   - outputDescriptor: Where results go (1 in the executable).
    ///   - errorDescriptor: Where diagnostics go (2 in the executable).
    public init(outputDescriptor: Int32 = 1, errorDescriptor: Int32 = 2) {
        self.outputDescriptor = outputDescriptor
        self.errorDescriptor = errorDescriptor
    }

    /// Buffers `text` for standard output, writing when 64 KiB are waiting.
    public func writeOut(_ text: String) {
        guard outputFailure == nil else { return }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// Writes what is buffered for standard output, then `text` to standard error.
    public func writeError(_ text: String) {
        flush()
        _ = Self.writeAll(Array(text.utf8), to: errorDescriptor)
    }

    /// Writes what is buffered for standard output.
    public func flush() {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard outputFailure == nil, !buffer.isEmpty else { return }
        if let failure = Self.writeAll(buffer, to: outputDescriptor) { outputFailure = failure }
    }

    /// The line the executable prints on standard error when output was lost, or `nil` (none lost, or the
    /// reader closed the pipe: `lifetrace events T | head` is not an error).
    public var outputFailureMessage: String? {
        guard let failure = outputFailure, failure != EPIPE else { return nil }
        return "lifetrace: error: cannot write standard output: \(String(cString: strerror(failure))) (errno \(failure)); the output is incomplete"
    }

    /// - Returns: `nil` when every byte was written, else the `errno` of the failure.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return written < 0 ? errno : ENOSPC }
            offset += written
        }
        return nil
    }
}
