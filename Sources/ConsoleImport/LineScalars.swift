/// A console line as the recognizers read it: its Unicode scalars, one element per scalar, in a buffer that is
/// valid only while the line is read (`LineScalars.with(_:_:)`).
///
/// Scalars rather than `Character`s: a `[Character]` costs grapheme breaking and one small string per character,
/// and classifying each through Unicode properties; scalars cost one widening step per byte of an ASCII line,
/// compare with scalar literals (`chars[i] == "["`), and ASCII scalars are classified from their value; only
/// non-ASCII scalars ask the Unicode properties, which answer as `Character` does for a character of one scalar.
/// A character of several scalars (`e` + U+0301) is several elements: the extending scalars count as part of a
/// name (`isIdentifierCharacter`).
typealias LineChars = UnsafeBufferPointer<Unicode.Scalar>

enum LineScalars {
    /// Calls `body` with the scalars of `text` and whether every one of them is ASCII. The scalars are in
    /// temporary storage (on the stack for a line of usual length), valid only inside `body`.
    @inline(__always)
    static func with<Result>(_ text: String, _ body: (LineChars, _ isASCII: Bool) -> Result) -> Result {
        // Two tight loops the compiler vectorizes: is every byte ASCII, then widen each byte to a scalar.
        let utf8 = text.utf8
        let isASCII = utf8.withContiguousStorageIfAvailable { bytes in
            var high: UInt8 = 0
            for byte in bytes { high |= byte }
            return high < 0x80
        } ?? false
        guard isASCII else {
            return Array(text.unicodeScalars).withUnsafeBufferPointer { body($0, $0.allSatisfy(\.isASCII)) }
        }
        return withUnsafeTemporaryAllocation(of: Unicode.Scalar.self, capacity: utf8.count) { buffer in
            _ = utf8.withContiguousStorageIfAvailable { bytes in
                for index in 0..<bytes.count { buffer[index] = Unicode.Scalar(bytes[index]) }
            }
            return body(LineChars(buffer), true)
        }
    }
}

extension UnsafeBufferPointer where Element == Unicode.Scalar {
    /// The text of the scalars in `range`, encoded straight into the string's UTF-8 storage (appending to a
    /// `String.UnicodeScalarView` went through generic code and cost more than all the scanning).
    func text(_ range: Range<Int>) -> String {
        LineScalars.text(self, range)
    }
}

extension Slice where Base == UnsafeBufferPointer<Unicode.Scalar> {
    /// The slice as text.
    var text: String {
        LineScalars.text(base, startIndex..<endIndex)
    }
}

extension LineScalars {
    static func text(_ scalars: UnsafeBufferPointer<Unicode.Scalar>, _ range: Range<Int>) -> String {
        var length = 0
        for index in range {
            let value = scalars[index].value
            length += value < 0x80 ? 1 : value < 0x800 ? 2 : value < 0x10000 ? 3 : 4
        }
        guard length > 0 else { return "" }
        return String(unsafeUninitializedCapacity: length) { buffer in
            var position = 0
            for index in range {
                let scalar = scalars[index]
                if scalar.value < 0x80 {
                    buffer[position] = UInt8(truncatingIfNeeded: scalar.value)
                    position += 1
                } else {
                    for byte in UTF8.encode(scalar)! {
                        buffer[position] = byte
                        position += 1
                    }
                }
            }
            return position
        }
    }
}

extension Unicode.Scalar {
    /// `Character.isWhitespace` for a one-scalar character: ASCII space, tab and line breaks from the value,
    /// others from the Unicode property.
    @inline(__always)
    var isSpace: Bool {
        if value < 0x80 { return value == 0x20 || (value >= 0x09 && value <= 0x0D) }
        return properties.isWhitespace
    }

    /// `Character.isLetter` for a one-scalar character.
    @inline(__always)
    var isLetter: Bool {
        if value < 0x80 { return (value | 0x20) >= 0x61 && (value | 0x20) <= 0x7A }
        return properties.isAlphabetic
    }

    /// `Character.isNumber` for a one-scalar character.
    @inline(__always)
    var isNumber: Bool {
        if value < 0x80 { return value >= 0x30 && value <= 0x39 }
        return properties.numericType != nil
    }

    /// `Character.isUppercase` for a one-scalar character.
    @inline(__always)
    var isUppercaseLetter: Bool {
        if value < 0x80 { return value >= 0x41 && value <= 0x5A }
        return properties.isUppercase
    }

    /// A scalar that extends the character before it (a combining mark, a variation selector).
    var isCharacterExtension: Bool {
        value >= 0x300 && properties.isGraphemeExtend
    }

    /// A letter or `_`: what can start a name.
    @inline(__always)
    var isIdentifierStart: Bool {
        if value < 0x80 { return (value | 0x20) >= 0x61 && (value | 0x20) <= 0x7A || value == 0x5F }
        return properties.isAlphabetic
    }

    /// A letter, a digit, `_`, a scalar extending the character before it, an invisible format character
    /// (general category Cf: a soft hyphen, a zero-width joiner, a bidirectional override) or an emoji: what
    /// continues a name. Swift and Objective-C identifiers may hold letters of any script, combining marks and
    /// emoji, and a name copied from elsewhere may carry a format character; a name is kept whole with them
    /// (`Überblick\u{AD}ViewController`, `🚀LaunchViewController`), never cut to its ASCII tail. Such characters
    /// are escaped only where a name is displayed (`String.displayEscaped`).
    @inline(__always)
    var isIdentifierCharacter: Bool {
        if value < 0x80 {
            return (value | 0x20) >= 0x61 && (value | 0x20) <= 0x7A || (value >= 0x30 && value <= 0x39) || value == 0x5F
        }
        return isNonASCIIIdentifierCharacter
    }

    /// `isIdentifierCharacter` for a scalar that is not ASCII (kept out of line: the ASCII test is inlined).
    @inline(never)
    private var isNonASCIIIdentifierCharacter: Bool {
        let properties = self.properties
        return properties.isAlphabetic || properties.numericType != nil || isCharacterExtension
            || properties.generalCategory == .format || (properties.isEmoji && value >= 0x2000)
    }

    /// A Han ideograph, kana or Hangul syllable: scripts written without spaces between words, so prose in them
    /// runs straight into an ASCII method name (`会执行didReceiveMemoryWarning`, `loadView会在页面`).
    var isCJK: Bool {
        switch value {
        case 0x1100...0x11FF, 0x3040...0x30FF, 0x3130...0x318F, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xAC00...0xD7AF, 0xF900...0xFAFF, 0x20000...0x2FFFF: true
        default: false
        }
    }

    /// 0–9 for the ASCII digits `0`…`9`, else `nil`.
    var asciiDigit: Int? {
        value >= 0x30 && value <= 0x39 ? Int(value - 0x30) : nil
    }

    /// `0`–`9`, `a`–`f`, `A`–`F`.
    var isASCIIHexDigit: Bool {
        (value >= 0x30 && value <= 0x39) || ((value | 0x20) >= 0x61 && (value | 0x20) <= 0x66)
    }

    /// The ASCII letter in lowercase; other scalars unchanged.
    var asciiLowercased: UInt32 {
        value >= 0x41 && value <= 0x5A ? value + 0x20 : value
    }
}
