#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits bytes into lines, from memory or from a file read in chunks (so a large file is never held whole).
///
/// Not `Sendable`: owned by one `JSONLReader`.
final class JSONLLineSource {
    private var buffer: [UInt8]
    private var position = 0
    private var descriptor: Int32
    private let chunkSize: Int
    /// No line was returned yet: the first one loses a UTF-8 byte order mark (`EF BB BF`, as some editors
    /// write), which `TraceInput` already skips when it recognises JSON Lines by content.
    private var atFirstLine = true

    /// Lines from `bytes`.
    init(bytes: [UInt8]) {
        buffer = bytes
        descriptor = -1
        chunkSize = 0
    }

    /// Lines from the file at `path`.
    ///
    /// - Throws: `JSONLError` `.unreadable` naming the path and the system's reason.
    /// - Parameter chunkSize: Bytes per `read` (tests use tiny chunks to cross line boundaries).
    init(path: String, chunkSize: Int = 1 << 20) throws(JSONLError) {
        buffer = []
        self.chunkSize = max(1, chunkSize)
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            throw JSONLError(.unreadable, "cannot open: \(String(cString: strerror(errno)))", file: path, line: 0)
        }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            descriptor = -1
            throw JSONLError(.unreadable, "is a directory", file: path, line: 0)
        }
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// The range of the next line in the buffer (without its `\n`), or `nil` at the end of the input. The range
    /// is valid until the next call; read its bytes with `withBytes(_:_:)`.
    ///
    /// - Throws: `JSONLError` `.unreadable` when reading the file fails (`file` and `line` left empty for the
    ///   caller to fill in).
    func nextLine() throws(JSONLError) -> Range<Int>? {
        guard let line = try nextRawLine() else { return nil }
        guard atFirstLine else { return line }
        atFirstLine = false
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        guard line.count >= 3, buffer[line.lowerBound..<line.lowerBound + 3].elementsEqual(bom) else { return line }
        return line.lowerBound + 3..<line.upperBound
    }

    private func nextRawLine() throws(JSONLError) -> Range<Int>? {
        while true {
            if let newline = firstNewline(from: position) {
                let start = position
                position = newline + 1
                return start..<newline
            }
            if descriptor >= 0, try readChunk() { continue }
            guard position < buffer.count else { return nil }
            let start = position
            position = buffer.count
            return start..<buffer.count
        }
    }

    /// Calls `body` with the bytes of `range` (a range returned by `nextLine()`).
    func withBytes<Result>(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        buffer.withUnsafeBufferPointer { all in body(UnsafeBufferPointer(rebasing: all[range])) }
    }

    private func firstNewline(from start: Int) -> Int? {
        buffer.withUnsafeBufferPointer { all -> Int? in
            guard start < all.count, let base = all.baseAddress else { return nil }
            guard let found = memchr(base + start, 0x0A, all.count - start) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Reads one more chunk, dropping consumed bytes first. Returns `false` at end of file.
    private func readChunk() throws(JSONLError) -> Bool {
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunkSize))
        var received = -1
        while true {
            received = buffer.withUnsafeMutableBytes { raw in
                read(descriptor, raw.baseAddress! + oldCount, chunkSize)
            }
            if received < 0, errno == EINTR { continue }
            break
        }
        if received < 0 {
            let reason = String(cString: strerror(errno))
            buffer.removeLast(chunkSize)
            throw JSONLError(.unreadable, "read failed: \(reason)", file: "", line: 0)
        }
        buffer.removeLast(chunkSize - received)
        if received == 0 {
            close(descriptor)
            descriptor = -1
            return false
        }
        return true
    }
}
