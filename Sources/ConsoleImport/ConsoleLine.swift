#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One console line read for what it says on its own: its time and process prefix, the lifecycle name and
/// controller it names, and the mark rules it matches; what needs earlier lines (times relative to the first
/// one, serials, the process's runs) is the session's (`ConsoleLogSession.read(_:)`).
///
/// Reading a line depends on nothing but the line and the parser's mark rules, so lines can be read ahead of
/// the session, on another thread: `lifetrace import` reads one chunk's lines while the session takes the
/// previous chunk's.
public struct ConsoleLine: Sendable {
    /// 1-based line number.
    public let number: Int
    let text: String
    /// Only spaces (or nothing): the session ignores the line.
    let isBlank: Bool
    let prefix: LinePrefix
    let recognized: RecognizedLine?
    /// The parser's mark rules whose substring the line contains, in the parser's order.
    let markRules: [MarkRule]
    /// The line's scalars, kept only when a mark rule matched (the mark's controller is found in them).
    let scalars: [Unicode.Scalar]

    /// Reads line `number` of a log parsed by `parser`.
    public init(_ text: String, number: Int, parser: ConsoleLogParser) {
        let rules = parser.markRules
        self = LineScalars.with(text) { chars, isASCII in
            ConsoleLine(text, number: number, chars: chars, isASCII: isASCII, markRules: rules)
        }
    }

    private init(_ text: String, number: Int, chars: LineChars, isASCII: Bool, markRules rules: [MarkRule]) {
        self.number = number
        self.text = text
        isBlank = !chars.contains(where: { !$0.isSpace })
        guard !isBlank else {
            prefix = LinePrefix(messageStart: 0)
            recognized = nil
            markRules = []
            scalars = []
            return
        }
        prefix = LinePrefixReader.read(chars)
        recognized = LineRecognizer.recognize(chars, from: prefix.messageStart)
        markRules = rules.filter { Self.contains(text, $0.substring, isASCII: isASCII) }
        scalars = markRules.isEmpty ? [] : Array(chars)
    }

    /// Whether `text` contains `substring` as `String.contains` decides (by characters). For an ASCII line every
    /// character is one byte, so a byte search gives the same answer much faster; other lines use the String.
    static func contains(_ text: String, _ substring: String, isASCII: Bool) -> Bool {
        guard isASCII, !substring.isEmpty else { return text.contains(substring) }
        let found = text.utf8.withContiguousStorageIfAvailable { bytes in
            substring.utf8.withContiguousStorageIfAvailable { needle in firstMatch(of: needle, in: bytes) }
        }
        return (found ?? nil) ?? text.contains(substring)
    }

    /// Whether `needle` (not empty) occurs in `bytes`: `memchr` finds each place its first byte is, `memcmp`
    /// compares the rest there.
    private static func firstMatch(of needle: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= needle.count, let base = bytes.baseAddress, let needleBase = needle.baseAddress else { return false }
        let starts = bytes.count - needle.count + 1
        var position = 0
        while position < starts, let hit = memchr(base + position, Int32(needle[0]), starts - position) {
            if memcmp(hit, needleBase, needle.count) == 0 { return true }
            position = base.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
        }
        return false
    }
}
