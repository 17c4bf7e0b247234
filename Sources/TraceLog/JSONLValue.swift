/// A parsed JSON value, as the JSONL reader sees one line.
///
/// Unlike Foundation's `JSONSerialization`, this keeps what the JSONL schema needs to be lossless:
/// object members in their order (duplicates kept), numbers as their source text (so `3` stays an integer
/// and `3.0` a double, and 64-bit integers keep every digit), and `null` distinct from an absent member.
enum JSONLValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// A number exactly as written, e.g. `-12`, `3.0`, `1e+20`.
    case number(String)
    case string(String)
    case array([JSONLValue])
    case object([(key: String, value: JSONLValue)])

    static func == (lhs: JSONLValue, rhs: JSONLValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The first member called `key` of an object, or `nil` (also for non-objects).
    subscript(key: String) -> JSONLValue? {
        guard case .object(let members) = self else { return nil }
        for member in members where member.key == key { return member.value }
        return nil
    }

    /// A short name of the value's JSON type for error messages: `string`, `number`, ….
    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Whether a number's text is written as an integer (no fraction, no exponent).
    static func isIntegerText(_ text: String) -> Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }
}

/// Why a line is not JSON, with the byte column (1-based) where parsing stopped.
struct JSONLSyntaxError: Error, Sendable, Equatable {
    var message: String
    var column: Int
}

/// A strict RFC 8259 parser for one JSON text held in memory.
///
/// Nesting depth is limited (`maximumDepth`) so hostile input cannot exhaust the stack.
struct JSONLParser {
    static let maximumDepth = 64

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// When recording (`parseRecordingMembers`): the path of the value being parsed, and the byte offset of the
    /// first member name (its opening quote) or array element at each path, keyed by the path joined with U+001F.
    private var path: [String] = []
    private var memberOffsets: [String: Int]?
    /// When recording: for a member name given again in the same object, the byte offset of its second
    /// occurrence, keyed as `memberOffsets`.
    private var repeatOffsets: [String: Int] = [:]

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// As `parse(_:)`, and also the byte offset where each member name (its opening quote) and each array element
    /// starts, keyed by its path joined with U+001F (array elements as `[i]`): `rules␟leaked_controller␟grace`.
    /// For a repeated name, the first one's offset, and in `repeats` the second one's.
    static func parseRecordingMembers(_ bytes: [UInt8]) throws(JSONLSyntaxError) -> (value: JSONLValue, offsets: [String: Int], repeats: [String: Int]) {
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<(JSONLValue, [String: Int], [String: Int]), JSONLSyntaxError> in
            var parser = JSONLParser(bytes: buffer)
            parser.memberOffsets = [:]
            return Result { () throws(JSONLSyntaxError) in
                parser.skipWhitespace()
                let value = try parser.parseValue()
                parser.skipWhitespace()
                if parser.index < buffer.count {
                    throw parser.error("unexpected text after the JSON value")
                }
                return (value, parser.memberOffsets ?? [:], parser.repeatOffsets)
            }
        }
        return try result.get()
    }

    /// Records where the value at `path + [component]` starts (when recording) and enters it.
    private mutating func enterMember(_ component: @autoclosure () -> String, at offset: Int) {
        guard memberOffsets != nil else { return }
        path.append(component())
        let key = path.joined(separator: "\u{1F}")
        if memberOffsets![key] == nil {
            memberOffsets![key] = offset
        } else if repeatOffsets[key] == nil {
            repeatOffsets[key] = offset
        }
    }

    private mutating func leaveMember() {
        guard memberOffsets != nil else { return }
        path.removeLast()
    }

    /// Parses `bytes` as exactly one JSON value surrounded by optional whitespace.
    ///
    /// - Throws: `JSONLSyntaxError` with the 1-based column of the offending byte.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONLSyntaxError) -> JSONLValue {
        var parser = JSONLParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count {
            throw parser.error("unexpected text after the JSON value")
        }
        return value
    }

    static func parse(_ bytes: [UInt8]) throws(JSONLSyntaxError) -> JSONLValue {
        do {
            return try bytes.withUnsafeBufferPointer { buffer in try parse(buffer) }
        } catch let error as JSONLSyntaxError {
            throw error
        } catch {
            throw JSONLSyntaxError(message: "\(error)", column: 1)
        }
    }

    private func error(_ message: String) -> JSONLSyntaxError {
        JSONLSyntaxError(message: message, column: index + 1)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONLSyntaxError) -> JSONLValue {
        guard let byte = current else { throw error("unexpected end of line") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character '\(Self.printable(byte))'")
        }
    }

    private static func printable(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONLSyntaxError) {
        let start = index
        let text = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for expected in text {
            guard current == expected else {
                index = start
                throw error("invalid literal (expected \(literal))")
            }
            index += 1
        }
    }

    private mutating func enter() throws(JSONLSyntaxError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(JSONLSyntaxError) -> JSONLValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [(key: String, value: JSONLValue)] = []
        // The names seen so far at the top, for the repeat check: a set, so that a line of n members costs n
        // look-ups, not n²/2 comparisons (80,000 members took 112 s with a scan of the members).
        var topNames = Set<String>()
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
            let keyStart = index
            let key = try parseString()
            // A member of a line's object given twice (`"t_ns"`) would leave which value counts to chance (RFC 8259
            // §4): refused at the second one. Only at the top: a mark's `fields` object may repeat a name, as
            // `MarkEvent.fields` may (docs/JSONL.md). (`StrictJSON`, recording, checks every object itself.)
            if memberOffsets == nil, depth == 1, !topNames.insert(key).inserted {
                throw JSONLSyntaxError(message: "member \"\(key)\" appears twice in the same object", column: keyStart + 1)
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after member name") }
            index += 1
            skipWhitespace()
            enterMember(key, at: keyStart)
            let value = try parseValue()
            leaveMember()
            members.append((key, value))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            case nil: throw error("unexpected end of line inside an object")
            default: throw error("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func parseArray() throws(JSONLSyntaxError) -> JSONLValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var elements: [JSONLValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            enterMember("[\(elements.count)]", at: index)
            elements.append(try parseValue())
            leaveMember()
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            case nil: throw error("unexpected end of line inside an array")
            default: throw error("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func parseNumber() throws(JSONLSyntaxError) -> String {
        let start = index
        func digits(_ parser: inout JSONLParser) -> Int {
            var count = 0
            while let byte = parser.current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                parser.index += 1
                count += 1
            }
            return count
        }
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else if digits(&self) == 0 {
            throw error("invalid number")
        }
        if current == UInt8(ascii: ".") {
            index += 1
            if digits(&self) == 0 { throw error("invalid number: digits expected after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            if digits(&self) == 0 { throw error("invalid number: digits expected in exponent") }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    private mutating func parseString() throws(JSONLSyntaxError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while let byte = current {
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return try makeString(slice, at: start)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in a string (must be escaped)") }
            index += 1
        }
        guard current != nil else { throw error("unterminated string") }
        var scratch = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return try scratch.withUnsafeBufferPointer { buffer throws(JSONLSyntaxError) in
                    try makeString(buffer, at: start)
                }
            case UInt8(ascii: "\\"):
                index += 1
                guard let escaped = current else { throw error("unterminated string") }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""): scratch.append(0x22)
                case UInt8(ascii: "\\"): scratch.append(0x5C)
                case UInt8(ascii: "/"): scratch.append(0x2F)
                case UInt8(ascii: "b"): scratch.append(0x08)
                case UInt8(ascii: "f"): scratch.append(0x0C)
                case UInt8(ascii: "n"): scratch.append(0x0A)
                case UInt8(ascii: "r"): scratch.append(0x0D)
                case UInt8(ascii: "t"): scratch.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired UTF-16 surrogate in \\u escape")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired UTF-16 surrogate in \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw error("unpaired UTF-16 surrogate in \\u escape")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                    scratch.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    index -= 1
                    throw error("invalid escape '\\\(Self.printable(escaped))'")
                }
            default:
                if byte < 0x20 { throw error("control character in a string (must be escaped)") }
                scratch.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func parseHex4() throws(JSONLSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw error("unterminated \\u escape") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private func makeString(_ utf8: UnsafeBufferPointer<UInt8>, at start: Int) throws(JSONLSyntaxError) -> String {
        guard let string = String(validating: utf8, as: UTF8.self) else {
            throw JSONLSyntaxError(message: "string is not valid UTF-8", column: start + 1)
        }
        return string
    }
}
