/// Reading and writing durations as people type and read them.
///
/// Durations are `UInt64` nanoseconds. Text forms: `1.5s`, `1500ms`, `1500us`, `1500000000ns`, `2m`, and a
/// bare number, read as seconds.
public enum TimeText {
    /// Parses a duration such as `1.5s`, `1500ms`, `250us`, `1500000000ns`, `2m` or `12.48` (seconds).
    ///
    /// - Returns: Nanoseconds, or `nil` when the text is not a non-negative duration.
    public static func parseDuration(_ text: String) -> UInt64? {
        let trimmed = text.trimmingSpaces()
        let units: [(suffix: String, nanoseconds: Double)] = [
            ("ns", 1), ("us", 1_000), ("µs", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000), ("m", 60_000_000_000),
        ]
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            let number = String(trimmed.dropLast(unit.suffix.count))
            if unit.suffix == "ns", let whole = UInt64(number) { return whole }
            return nanoseconds(number, times: unit.nanoseconds)
        }
        return nanoseconds(trimmed, times: 1_000_000_000)
    }

    /// Whether `text` is a well-formed non-negative duration that is too long for `UInt64` nanoseconds (more
    /// than 18 446 744 073.7 s, about 584 years): the reason `parseDuration(_:)` returned `nil` for it, so an
    /// error can say "too large" rather than "not a duration".
    public static func isOutOfRange(_ text: String) -> Bool {
        guard parseDuration(text) == nil else { return false }
        let trimmed = text.trimmingSpaces()
        let units: [(suffix: String, nanoseconds: Double)] = [
            ("ns", 1), ("us", 1_000), ("µs", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000), ("m", 60_000_000_000),
        ]
        var number = trimmed
        var scale = 1_000_000_000.0
        if let unit = units.first(where: { trimmed.hasSuffix($0.suffix) }) {
            number = String(trimmed.dropLast(unit.suffix.count))
            scale = unit.nanoseconds
        }
        guard isDecimal(number), let value = Double(number), value >= 0, !value.isNaN else { return false }
        return value * scale >= Double(UInt64.max)
    }

    /// `number × scale` rounded to whole nanoseconds, or `nil` when `number` is not a non-negative finite
    /// number or the product does not fit in `UInt64` (so a typed `1e20` is rejected instead of trapping).
    private static func nanoseconds(_ number: String, times scale: Double) -> UInt64? {
        guard isDecimal(number), let value = Double(number), value.isFinite, value >= 0 else { return nil }
        let result = (value * scale).rounded()
        guard result < Double(UInt64.max) else { return nil }
        return UInt64(result)
    }

    /// Formats nanoseconds as seconds rounded to the nearest millisecond: `12.480 s` (5_903_988_000 ns reads
    /// `5.904 s`).
    public static func seconds(_ nanoseconds: UInt64) -> String {
        let millis = nanoseconds / 1_000_000 + (nanoseconds % 1_000_000 >= 500_000 ? 1 : 0)
        let fraction = millis % 1000
        let pad = fraction < 10 ? "00" : fraction < 100 ? "0" : ""
        return "\(millis / 1000).\(pad)\(fraction) s"
    }

    /// Formats a duration with a unit that suits its size: `850 ns`, `12.4 µs`, `3.2 ms`, `1.250 s`.
    public static func duration(_ nanoseconds: UInt64) -> String {
        switch nanoseconds {
        case ..<1_000: return "\(nanoseconds) ns"
        case ..<1_000_000: return "\(oneDecimal(Double(nanoseconds) / 1_000)) µs"
        case ..<1_000_000_000: return "\(oneDecimal(Double(nanoseconds) / 1_000_000)) ms"
        default: return seconds(nanoseconds)
        }
    }

    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}

extension TimeText {
    /// Whether `text` is a decimal number as people write one: an optional `+`, digits with an optional fraction
    /// (`12`, `12.48`, `.5`, `5.`), and an optional exponent (`1e3`). `Double(_:)` also reads hexadecimal
    /// (`0x10` is 16), `inf` and `nan`, which are not durations.
    static func isDecimal(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        func digits(_ bytes: inout Substring.UTF8View.SubSequence) -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        var mantissa = digits(&bytes)
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissa += digits(&bytes)
        }
        guard mantissa > 0 else { return false }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits(&bytes) > 0 else { return false }
        }
        return bytes.isEmpty
    }
}

extension String {
    func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
