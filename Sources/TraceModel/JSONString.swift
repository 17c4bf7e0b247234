/// JSON string literals (RFC 8259 §7) for the places that write JSON by hand: `info --format json`, the
/// state's JSON, the audit reporters.
///
/// Quotes, backslashes and control characters below U+0020 are escaped; everything else is written as it is
/// (JSON text is UTF-8).
public enum JSONString {
    /// Appends `text` as a JSON string literal, quotes included, to `out`.
    public static func append(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// `text` as a JSON string literal, quotes included.
    public static func quoted(_ text: String) -> String {
        var out = ""
        append(text, to: &out)
        return out
    }
}
