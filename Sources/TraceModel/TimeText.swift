/// Reading and writing durations as people type and read them.
///
/// Durations are `UInt64` nanoseconds. Text forms: `1.5s`, `1500ms`, `1500us`, `1500000000ns`, `2m`, `1h`, and a
/// bare number, read as seconds.
public enum TimeText {
    /// Parses a duration such as `1.5s`, `1500ms`, `250us`, `1500000000ns`, `2m`, `1h` or `12.48` (seconds).
    ///
    /// The conversion is exact, in integers (no `Double` on the way: a time of a week or more keeps its last
    /// nanosecond): the decimal number times the unit, rounded to the nearest nanosecond (a half away from zero)
    /// only when it has more fractional digits than a nanosecond (`1.5ns` is 2 ns).
    ///
    /// - Returns: Nanoseconds, or `nil` when the text is not a non-negative decimal duration or is too large for
    ///   `UInt64` nanoseconds (`isOutOfRange(_:)` tells the two apart).
    public static func parseDuration(_ text: String) -> UInt64? {
        if case .value(let nanoseconds) = read(text) { return nanoseconds }
        return nil
    }

    /// Whether `text` is a well-formed non-negative duration that is too long for `UInt64` nanoseconds (more
    /// than 18 446 744 073.709 551 615 s, about 584 years): the reason `parseDuration(_:)` returned `nil` for it,
    /// so an error can say "too large" rather than "not a duration".
    public static func isOutOfRange(_ text: String) -> Bool {
        if case .tooLarge = read(text) { return true }
        return false
    }

    /// What `read(_:)` made of a duration's text.
    enum Reading: Equatable {
        case value(UInt64)
        case tooLarge
        case invalid
    }

    /// Units as (suffix, multiplier, power of ten): the nanoseconds of one unit are `multiplier × 10^power`.
    private static let units: [(suffix: String, multiplier: UInt8, power: Int)] = [
        ("ns", 1, 0), ("us", 1, 3), ("µs", 1, 3), ("ms", 1, 6), ("s", 1, 9), ("m", 6, 10), ("h", 36, 11),
    ]

    /// The unit suffixes `parseDuration(_:)` reads, for messages: `ns, us, µs, ms, s, m, h`.
    public static let unitList = units.map(\.suffix).joined(separator: ", ")

    /// Reads `text` (a decimal number and an optional unit, seconds without one) exactly into nanoseconds.
    static func read(_ text: String) -> Reading {
        let trimmed = text.trimmingSpaces()
        var number = Substring(trimmed)
        var multiplier: UInt8 = 1
        var power = 9
        if let unit = units.first(where: { trimmed.hasSuffix($0.suffix) }) {
            number = number.dropLast(unit.suffix.count)
            multiplier = unit.multiplier
            power = unit.power
        }
        guard let decimal = DecimalText(number) else { return .invalid }
        return decimal.nanoseconds(multiplier: multiplier, power: power)
    }

    /// A non-negative decimal number as written: its significant digits and the power of ten they are scaled by.
    private struct DecimalText {
        /// Digit values (0…9), most significant first, without leading zeros (empty for zero).
        var digits: [UInt8]
        /// The value is `digits × 10^exponent`; saturated far beyond any duration (so `1e99999999999999999999`
        /// reads as too large, not as invalid).
        var exponent: Int

        /// `nil` unless `text` is an optional `+`, digits with an optional fraction (`12`, `12.48`, `.5`, `5.`) and
        /// an optional exponent (`1e3`, `2E-3`); hexadecimal, `inf` and `nan` are not decimal numbers.
        init?(_ text: Substring) {
            var bytes = text.utf8[...]
            if bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            var digits: [UInt8] = []
            var count = 0
            var fraction = 0
            var seenPoint = false
            while let byte = bytes.first {
                if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                    count += 1
                    if seenPoint { fraction += 1 }
                    // Leading zeros are not kept (in the fraction, `fraction` still counts them).
                    if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte - UInt8(ascii: "0")) }
                } else if byte == UInt8(ascii: "."), !seenPoint {
                    seenPoint = true
                } else {
                    break
                }
                bytes = bytes.dropFirst()
            }
            guard count > 0 else { return nil }
            var exponent = 0
            if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
                bytes = bytes.dropFirst()
                var negative = false
                if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") {
                    negative = bytes.first == UInt8(ascii: "-")
                    bytes = bytes.dropFirst()
                }
                var exponentDigits = 0
                while let byte = bytes.first, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                    exponent = Swift.min(exponent * 10 + Int(byte - UInt8(ascii: "0")), 1_000_000_000)
                    exponentDigits += 1
                    bytes = bytes.dropFirst()
                }
                guard exponentDigits > 0 else { return nil }
                if negative { exponent = -exponent }
            }
            guard bytes.isEmpty else { return nil }
            self.digits = digits
            // Each fractional digit divides by ten (leading zeros of the fraction included: they were not kept).
            self.exponent = exponent - fraction
        }

        /// `self × multiplier × 10^power` rounded to the nearest integer (a half up), if it fits in `UInt64`.
        func nanoseconds(multiplier: UInt8, power: Int) -> Reading {
            guard !digits.isEmpty else { return .value(0) }
            // digits × multiplier, as decimal digits (the carry can exceed 9: `h` multiplies by 36).
            var scaled = digits
            var carry = 0
            for index in scaled.indices.reversed() {
                let product = Int(scaled[index]) * Int(multiplier) + carry
                scaled[index] = UInt8(product % 10)
                carry = product / 10
            }
            while carry > 0 {
                scaled.insert(UInt8(carry % 10), at: 0)
                carry /= 10
            }
            let shift = exponent + power
            // The integer part: all digits shifted left by `shift` (zeros appended), or the leading ones when
            // `shift` is negative; the first dropped digit rounds.
            let integerCount = scaled.count + shift
            guard integerCount <= 20 else { return .tooLarge }  // UInt64.max has 20 digits
            var value: UInt64 = 0
            for position in 0..<Swift.max(integerCount, 0) {
                let digit = position < scaled.count ? scaled[position] : 0
                let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
                if overflow1 || overflow2 { return .tooLarge }
                value = sum
            }
            let firstDropped = integerCount >= 0 && integerCount < scaled.count ? scaled[integerCount] : 0
            if firstDropped >= 5 {
                let (rounded, overflow) = value.addingReportingOverflow(1)
                if overflow { return .tooLarge }
                value = rounded
            }
            return .value(value)
        }
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

extension String {
    func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
