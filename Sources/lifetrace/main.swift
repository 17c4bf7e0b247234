import LifetraceCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output, buffered (commands can print millions of lines); standard error, unbuffered.
final class StandardStreams: @unchecked Sendable {
    private var buffer: [UInt8] = []

    func writeOut(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func writeError(_ text: String) {
        flush()
        Self.writeAll(Array(text.utf8), to: 2)
    }

    func flush() {
        Self.writeAll(buffer, to: 1)
        buffer.removeAll(keepingCapacity: true)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written <= 0 {
                if written < 0, errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}

signal(SIGPIPE, SIG_IGN)
let streams = StandardStreams()
let output = CommandOutput(standardOutput: streams.writeOut, standardError: streams.writeError)
let code = Lifetrace.run(arguments: Array(CommandLine.arguments.dropFirst()), output: output)
streams.flush()
exit(code.rawValue)
