/// A console line as the recognizers read it: its Unicode scalars, one array element per scalar.
///
/// The recognizers used to work on `[Character]`: building that array (grapheme breaking, one small string per
/// character) and classifying each character through Unicode properties was most of the importer's time.
/// Scalars cost one widening step per byte of an ASCII line, compare with scalar literals (`chars[i] == "["`),
/// and ASCII scalars are classified from their value; only non-ASCII scalars ask the Unicode properties, which
/// answer as `Character` did for a character of one scalar. A character of several scalars (`e` + U+0301)
/// is several elements: the extending scalars count as part of a name (`isIdentifierCharacter`).
enum LineScalars {
    /// The scalars of `text`, and whether every one of them is ASCII.
    static func of(_ text: String) -> (scalars: [Unicode.Scalar], isASCII: Bool) {
        var scalars: [Unicode.Scalar] = []
        let ascii = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            scalars.reserveCapacity(bytes.count)
            for byte in bytes {
                guard byte < 0x80 else { return false }
                scalars.append(Unicode.Scalar(byte))
            }
            return true
        }
        if ascii == true { return (scalars, true) }
        scalars = Array(text.unicodeScalars)
        return (scalars, scalars.allSatisfy(\.isASCII))
    }
}

extension Array where Element == Unicode.Scalar {
    /// The text of the scalars in `range`.
    func text(_ range: Range<Int>) -> String {
        var result = String.UnicodeScalarView()
        result.append(contentsOf: self[range])
        return String(result)
    }
}

extension ArraySlice where Element == Unicode.Scalar {
    /// The slice as text.
    var text: String {
        var result = String.UnicodeScalarView()
        result.append(contentsOf: self)
        return String(result)
    }
}

extension Unicode.Scalar {
    /// `Character.isWhitespace` for a one-scalar character: ASCII space, tab and line breaks from the value,
    /// others from the Unicode property.
    var isSpace: Bool {
        if value < 0x80 { return value == 0x20 || (value >= 0x09 && value <= 0x0D) }
        return properties.isWhitespace
    }

    /// `Character.isLetter` for a one-scalar character.
    var isLetter: Bool {
        if value < 0x80 { return (value | 0x20) >= 0x61 && (value | 0x20) <= 0x7A }
        return properties.isAlphabetic
    }

    /// `Character.isNumber` for a one-scalar character.
    var isNumber: Bool {
        if value < 0x80 { return value >= 0x30 && value <= 0x39 }
        return properties.numericType != nil
    }

    /// `Character.isUppercase` for a one-scalar character.
    var isUppercaseLetter: Bool {
        if value < 0x80 { return value >= 0x41 && value <= 0x5A }
        return properties.isUppercase
    }

    /// A scalar that extends the character before it (a combining mark, a variation selector).
    var isCharacterExtension: Bool {
        value >= 0x300 && properties.isGraphemeExtend
    }

    /// A letter or `_`: what can start a name.
    var isIdentifierStart: Bool {
        if value < 0x80 { return (value | 0x20) >= 0x61 && (value | 0x20) <= 0x7A || value == 0x5F }
        return properties.isAlphabetic
    }

    /// A letter, a digit, `_`, or a scalar extending the character before it: what continues a name.
    var isIdentifierCharacter: Bool {
        if value < 0x80 {
            return (value | 0x20) >= 0x61 && (value | 0x20) <= 0x7A || (value >= 0x30 && value <= 0x39) || value == 0x5F
        }
        return properties.isAlphabetic || properties.numericType != nil || isCharacterExtension
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
