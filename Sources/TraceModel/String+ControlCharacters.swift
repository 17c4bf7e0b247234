extension String {
    /// The string with every control character written out, for output a person reads line by line: `\n`,
    /// `\r`, `\t`, and `\u{1B}` (uppercase hex) for the others — the C0 controls, DEL, the C1 controls
    /// (`U+0080`–`U+009F`) and the line and paragraph separators `U+2028`/`U+2029`. Everything else is kept.
    ///
    /// Names in a trace come from outside (a JSON Lines file, a console log, an app's strings); printed raw, a
    /// newline in a controller's type name splits an `events` line or forges a line of the audit report, and an
    /// escape sequence reaches the terminal. A string without such characters is returned as it is, without
    /// copying.
    public var controlCharactersEscaped: String {
        guard mayNeedEscaping, unicodeScalars.contains(where: Self.isEscaped) else { return self }
        var result = ""
        result.reserveCapacity(utf8.count + 8)
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where Self.isEscaped(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u{\(hex.count < 2 ? "0" + hex : hex)}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether a byte of the UTF-8 form may begin an escaped character: a C0 control or DEL, `0xC2` (the lead
    /// byte of the C1 controls) or `0xE2` (of `U+2028`/`U+2029`). Scanned over the contiguous bytes (native and
    /// small strings), about a third of the instructions of `utf8.contains(where:)`, since most names printed
    /// (every controller's `displayName`) have nothing to escape.
    private var mayNeedEscaping: Bool {
        utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xE2 { return true }
            return false
        } ?? utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 })
    }

    fileprivate static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}

extension String {
    /// The string as a person should see it in a line of text output (the text formats, standard error):
    /// `controlCharactersEscaped`, and also every invisible format character (Unicode general category Cf) as
    /// `\u{202E}`: the bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), the
    /// zero-width characters (U+200B–U+200D, U+2060–U+2064, U+FEFF), the soft hyphen U+00AD, the tag characters
    /// (U+E0001, U+E0020–U+E007F) and the others of the category; except a zero-width joiner between two emoji and
    /// the tags of an emoji flag, which are drawn as part of the emoji (`👨‍👩‍👧`, `🏳️‍🌈`, 🏴 + tags).
    ///
    /// Names and mark fields come from outside. Printed raw, a right-to-left override in a controller's type name
    /// makes a CI log show text in another order than the bytes hold ("Trojan Source", CVE-2021-42574), and a
    /// zero-width character makes two different names look alike. Machine outputs (JSON, JSON Lines, SARIF,
    /// JUnit XML) keep such characters exactly; `ControllerRef.displayName` escapes control characters only.
    /// A string without such characters is returned as it is, without copying.
    public var displayEscaped: String { displayEscaped(keepingLineFeeds: false) }

    /// `displayEscaped` for text already made of lines (a state tree, a report): line feeds are kept, everything
    /// else `displayEscaped` writes out is written out. A line feed inside one name must be escaped where the
    /// name is printed (`controlCharactersEscaped` or `displayEscaped`), or it splits the line.
    public var displayEscapedKeepingLineFeeds: String { displayEscaped(keepingLineFeeds: true) }

    private func displayEscaped(keepingLineFeeds: Bool) -> String {
        func escaped(_ scalar: Unicode.Scalar) -> Bool {
            (scalar != "\n" || !keepingLineFeeds) && (Self.isEscaped(scalar) || Self.isFormatCharacter(scalar))
        }
        guard mayNeedDisplayEscaping, unicodeScalars.contains(where: escaped) else { return self }
        var result = ""
        result.reserveCapacity(utf8.count + 16)
        let scalars = Array(unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            guard escaped(scalar), !Self.isPartOfEmoji(scalars, index) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u{\(hex.count < 2 ? "0" + hex : hex)}"
            }
        }
        return result
    }

    /// Whether the UTF-8 form has a byte that may begin a character `displayEscaped` writes out: a C0 control,
    /// DEL, or any non-ASCII byte (format characters are spread over many lead bytes; most names are ASCII).
    /// Every line of `lifetrace events` passes here, so contiguous bytes are tested 8 at a time.
    private var mayNeedDisplayEscaping: Bool {
        utf8.withContiguousStorageIfAvailable(Self.hasControlOrNonASCII)
            ?? utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F })
    }

    /// Whether `bytes` holds a byte below 0x20 or from 0x7F up, 8 bytes at a time: with every byte of a word
    /// below 0x80 (high bits clear), adding 0x60 to each byte leaves the high bit clear exactly for the bytes
    /// below 0x20, and adding 1 sets it exactly for 0x7F; neither addition carries into the next byte.
    static func hasControlOrNonASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
            if word & high != 0 || ~(word &+ 0x60 &* ones) & high != 0 || (word &+ ones) & high != 0 { return true }
            index += 8
        }
        while index < bytes.count {
            if base[index] < 0x20 || base[index] >= 0x7F { return true }
            index += 1
        }
        return false
    }

    /// Whether the format character at `index` belongs to an emoji sequence and is drawn as part of it, so it is
    /// kept: a zero-width joiner (U+200D) between two emoji (`👨‍👩‍👧`, `🏳️‍🌈`; Unicode TR #51, emoji ZWJ
    /// sequences; the emoji before it may carry a variation selector or a skin tone), or a tag character
    /// (U+E0020–U+E007F) of an emoji tag sequence after U+1F3F4 (the flags of England, Scotland, Wales).
    private static func isPartOfEmoji(_ scalars: [Unicode.Scalar], _ index: Int) -> Bool {
        func isEmoji(_ scalar: Unicode.Scalar) -> Bool { scalar.value > 0x7F && scalar.properties.isEmoji }
        let value = scalars[index].value
        if value == 0x200D {
            var before = index - 1
            while before >= 0, scalars[before].value == 0xFE0F || (0x1F3FB...0x1F3FF).contains(scalars[before].value) {
                before -= 1
            }
            return before >= 0 && isEmoji(scalars[before]) && index + 1 < scalars.count && isEmoji(scalars[index + 1])
        }
        guard (0xE0020...0xE007F).contains(value) else { return false }
        var before = index - 1
        while before >= 0, (0xE0020...0xE007E).contains(scalars[before].value) { before -= 1 }
        return before >= 0 && scalars[before].value == 0x1F3F4
    }

    /// Unicode general category Cf (format); the first is U+00AD.
    private static func isFormatCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0xAD && scalar.properties.generalCategory == .format
    }
}
