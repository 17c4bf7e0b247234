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

    private static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
