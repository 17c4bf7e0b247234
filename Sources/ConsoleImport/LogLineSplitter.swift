#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a log's bytes, given in chunks of any size, into numbered lines, so a log is read without ever being
/// held whole.
///
/// Lines end at `\n`, `\r\n` or a lone `\r` (also when a chunk ends between `\r` and `\n`); a last line
/// without a newline is reported by `finish(_:)`; a final empty line (the file ends with a newline) is not a
/// line. A UTF-8 byte order mark (`EF BB BF`) starting line 1 is not part of the line (an editor's, not the
/// log's: it would hide line 1's timestamp). This is the splitting `ConsoleLogParser.parse(text:)` does on a decoded string.
///
/// A line longer than `maximumLineBytes` is cut: only its first `maximumLineBytes` bytes are kept (and read by
/// the importer), `LogLine.length` tells the whole length, and the rest is skipped without being stored, so a
/// 10 MB line costs no more memory than a short one.
public struct LogLineSplitter: Sendable {
    /// 64 KiB: far more than any lifecycle line, and what a console line longer than that is cut to.
    public static let defaultMaximumLineBytes = 64 * 1024

    public let maximumLineBytes: Int
    /// Number of lines reported so far (the last line's number).
    public private(set) var lineCount = 0
    /// Bytes of the unfinished line carried over from earlier chunks (at most `maximumLineBytes`).
    private var partial: [UInt8] = []
    /// Whole length of the unfinished line so far.
    private var partialLength = 0
    /// The previous chunk ended with `\r`: a `\n` starting the next one belongs to it.
    private var afterCarriageReturn = false

    public init(maximumLineBytes: Int = LogLineSplitter.defaultMaximumLineBytes) {
        self.maximumLineBytes = max(1, maximumLineBytes)
    }

    /// Calls `body` with every line that ends in `chunk` (with what earlier chunks left unfinished).
    public mutating func split(_ chunk: [UInt8], _ body: (LogLine) throws -> Void) rethrows {
        var start = 0
        var index = 0
        let count = chunk.count
        if afterCarriageReturn {
            afterCarriageReturn = false
            if count > 0, chunk[0] == 0x0A {
                start = 1
                index = 1
            }
        }
        while index < count {
            index = Self.lineEnd(in: chunk, from: index)
            guard index < count else { break }
            try emit(chunk, start, index, body)
            if chunk[index] == 0x0D {
                if index + 1 < count {
                    if chunk[index + 1] == 0x0A { index += 1 }
                } else {
                    afterCarriageReturn = true
                }
            }
            index += 1
            start = index
        }
        if start < count {
            let room = maximumLineBytes - partial.count
            if room > 0 { partial.append(contentsOf: chunk[start..<min(count, start + room)]) }
            partialLength += count - start
        }
    }

    /// The index of the first `\n` or `\r` in `chunk[start...]`, or `chunk.count` when there is none: the scan
    /// over every byte of the log, done by `memchr` (vectorized in the C library), for `\n` and then for a `\r`
    /// before it, a window of `lineEndWindow` bytes at a time: searching the whole rest of the chunk for a `\n` at
    /// every line would make a log whose lines end in `\r` alone cost the chunk's length per line.
    private static func lineEnd(in chunk: [UInt8], from start: Int) -> Int {
        chunk.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return bytes.count }
            var window = start
            while window < bytes.count {
                let windowEnd = min(window + lineEndWindow, bytes.count)
                var end = windowEnd
                if let newline = memchr(base + window, 0x0A, end - window) {
                    end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                }
                if let carriageReturn = memchr(base + window, 0x0D, end - window) {
                    end = base.distance(to: carriageReturn.assumingMemoryBound(to: UInt8.self))
                }
                if end < windowEnd { return end }
                window = windowEnd
            }
            return bytes.count
        }
    }

    /// Bytes `lineEnd(in:from:)` searches at a time: several lines of a usual log.
    private static let lineEndWindow = 512

    /// Reports the last line when the input did not end with a newline.
    public mutating func finish(_ body: (LogLine) throws -> Void) rethrows {
        afterCarriageReturn = false
        guard partialLength > 0 else { return }
        lineCount += 1
        let line = LogLine(number: lineCount, bytes: partial[...], length: partialLength)
        partial.removeAll()
        partialLength = 0
        try body(Self.withoutByteOrderMark(line))
    }

    /// `line` without a leading UTF-8 byte order mark when it is line 1.
    private static func withoutByteOrderMark(_ line: LogLine) -> LogLine {
        guard line.number == 1, line.bytes.starts(with: [0xEF, 0xBB, 0xBF]) else { return line }
        return LogLine(number: 1, bytes: line.bytes.dropFirst(3), length: line.length - 3)
    }

    private mutating func emit(_ chunk: [UInt8], _ start: Int, _ end: Int, _ body: (LogLine) throws -> Void) rethrows {
        lineCount += 1
        if partialLength == 0 {
            try body(Self.withoutByteOrderMark(LogLine(number: lineCount, bytes: chunk[start..<min(end, start + maximumLineBytes)], length: end - start)))
            return
        }
        let room = maximumLineBytes - partial.count
        if room > 0 { partial.append(contentsOf: chunk[start..<min(end, start + room)]) }
        let line = LogLine(number: lineCount, bytes: partial[...], length: partialLength + end - start)
        partial.removeAll(keepingCapacity: partial.capacity <= 4096)
        partialLength = 0
        try body(Self.withoutByteOrderMark(line))
    }
}

/// One line of a log as `LogLineSplitter` reports it.
public struct LogLine: Sendable, Hashable {
    /// 1-based line number (blank lines count).
    public var number: Int
    /// The line's bytes without its line ending; the first `LogLineSplitter.maximumLineBytes` when it is longer.
    public var bytes: ArraySlice<UInt8>
    /// The line's whole length in bytes, without its line ending.
    public var length: Int

    public init(number: Int, bytes: ArraySlice<UInt8>, length: Int) {
        self.number = number
        self.bytes = bytes
        self.length = length
    }

    /// Whether the line was longer than the bytes kept.
    public var isCut: Bool { length > bytes.count }

    /// The line as text, and whether its bytes were valid UTF-8. Invalid sequences become U+FFFD (as
    /// `String(decoding:as:)` makes them); a line cut inside a character ends with U+FFFD but counts as valid.
    public func decoded() -> (text: String, isValidUTF8: Bool) {
        // Most lines are ASCII: one pass over the bytes tells, and decoding them cannot fail.
        let isASCII = bytes.withUnsafeBufferPointer { buffer in
            var high: UInt8 = 0
            for byte in buffer { high |= byte }
            return high < 0x80
        }
        if isASCII { return (String(decoding: bytes, as: UTF8.self), true) }
        if let text = String(validating: bytes, as: UTF8.self) { return (text, true) }
        let text = String(decoding: bytes, as: UTF8.self)
        guard isCut else { return (text, false) }
        // Only the cut may have split a character: valid if everything before the last (incomplete) sequence is.
        var end = bytes.endIndex
        var back = 0
        while end > bytes.startIndex, back < 3, bytes[end - 1] & 0xC0 == 0x80 {
            end -= 1
            back += 1
        }
        if end > bytes.startIndex, bytes[end - 1] >= 0xC0 { end -= 1 }
        return (text, String(validating: bytes[bytes.startIndex..<end], as: UTF8.self) != nil)
    }
}
