/// A time read from the start of a console line, before it is placed on the trace's monotonic clock.
enum LineTime: Sendable, Hashable {
    /// A calendar date and time: nanoseconds since 1970-01-01 00:00 UTC. When the line had no UTC offset
    /// (`NSLog` without `%z`, Xcode's console), the local time is read as if it were UTC.
    case wall(nanoseconds: Int64, hasOffset: Bool)
    /// A time of day with no date (`12:40:01.102`): nanoseconds since midnight.
    case timeOfDay(nanoseconds: Int64)
    /// A number of seconds printed by the app (`⏱ 3.120 | …`), already on some monotonic clock.
    case seconds(nanoseconds: Int64)

    /// Nanoseconds on the line's own clock, used to compare consecutive lines.
    var value: Int64 {
        switch self {
        case .wall(let value, _), .timeOfDay(let value), .seconds(let value): value
        }
    }
}

/// The prefix a line starts with: its time (if any), and where its message begins.
struct LinePrefix {
    var time: LineTime?
    /// Index in the line's characters where the message starts (after time, process and list numbering).
    var messageStart: Int
}

/// Reads the time and the logging prefix at the start of a line.
///
/// Recognised: `2025-03-14 09:12:00.000114+0100` (NSLog/os_log, also with `T`, `Z`, `+01:00`, a comma
/// before the fraction, or inside `[…]`); `12:40:01.102` (time of day, optionally in brackets); a leading
/// number of seconds with a fraction, optionally after a symbol such as `⏱` (`⏱ 3.120 | …`, `[  3.120]`);
/// a list number (`1 `, `1. `, `1) `), which is not a time; bullets (`- `, `* `, `• `); and after the time a
/// process token `Notes[2231:90112]` or the columns of `log show` (`0x15d4b Default 0x0 2231 0 Notes:`).
enum LinePrefixReader {
    static func read(_ chars: [Character]) -> LinePrefix {
        var cursor = Cursor(chars: chars)
        cursor.skipSpaces()
        var time: LineTime?
        let start = cursor.index
        if let wall = readDateTime(&cursor) {
            time = wall
        } else {
            cursor.index = start
            if let clock = readTimeOfDay(&cursor) {
                time = clock
            } else {
                cursor.index = start
                if let seconds = readSeconds(&cursor) {
                    time = seconds
                } else {
                    cursor.index = start
                    skipListNumber(&cursor)
                }
            }
        }
        cursor.skipSpaces()
        skipSeparators(&cursor)
        skipProcess(&cursor)
        cursor.skipSpaces()
        skipBullet(&cursor)
        cursor.skipSpaces()
        return LinePrefix(time: time, messageStart: cursor.index)
    }

    // MARK: - Dates

    private static func readDateTime(_ cursor: inout Cursor) -> LineTime? {
        let bracketed = cursor.take("[")
        guard let year = cursor.readDigits(exactly: 4), cursor.take("-"),
              let month = cursor.readDigits(exactly: 2), cursor.take("-"),
              let day = cursor.readDigits(exactly: 2),
              cursor.take(" ") || cursor.take("T"),
              let clock = readClock(&cursor)
        else { return nil }
        var offsetSeconds: Int64 = 0
        var hasOffset = false
        if cursor.take("Z") {
            hasOffset = true
        } else if let sign = cursor.peek, sign == "+" || sign == "-" {
            let save = cursor.index
            cursor.index += 1
            var hours: Int64?
            var minutes: Int64?
            if let both = cursor.readDigits(exactly: 4) {
                (hours, minutes) = (both / 100, both % 100)
            } else if let hour = cursor.readDigits(exactly: 2) {
                hours = hour
                minutes = cursor.take(":") ? cursor.readDigits(exactly: 2) : 0
            }
            if let hours, let minutes {
                offsetSeconds = (hours * 3600 + minutes * 60) * (sign == "+" ? 1 : -1)
                hasOffset = true
            } else {
                cursor.index = save
            }
        }
        if bracketed { _ = cursor.take("]") }
        guard cursor.atEnd || cursor.peek?.isWhitespace == true || cursor.peek == "]" || cursor.peek == "|" else {
            return nil
        }
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        // Int64 nanoseconds since 1970 reach only 1677...2262: a date outside is not read as a time.
        guard let seconds = Int64.checked(days, times: 86_400, plus: -offsetSeconds),
              let nanoseconds = Int64.checked(seconds, times: 1_000_000_000, plus: clock)
        else { return nil }
        return .wall(nanoseconds: nanoseconds, hasOffset: hasOffset)
    }

    private static func readTimeOfDay(_ cursor: inout Cursor) -> LineTime? {
        let bracketed = cursor.take("[")
        guard let clock = readClock(&cursor) else { return nil }
        if bracketed { _ = cursor.take("]") }
        guard cursor.atEnd || cursor.peek?.isWhitespace == true || cursor.peek == "|" else { return nil }
        return .timeOfDay(nanoseconds: clock)
    }

    /// `HH:MM:SS(.fraction)?` → nanoseconds since midnight.
    private static func readClock(_ cursor: inout Cursor) -> Int64? {
        guard let hours = cursor.readDigits(min: 1, max: 2), cursor.take(":"),
              let minutes = cursor.readDigits(exactly: 2), cursor.take(":"),
              let seconds = cursor.readDigits(exactly: 2),
              hours < 24, minutes < 60, seconds < 61
        else { return nil }
        var nanos: Int64 = 0
        if cursor.take(".") || cursor.take(",") {
            guard let fraction = readFraction(&cursor) else { return nil }
            nanos = fraction
        }
        return ((hours * 60 + minutes) * 60 + seconds) * 1_000_000_000 + nanos
    }

    /// Digits after a decimal point → nanoseconds (extra digits beyond 9 are dropped).
    private static func readFraction(_ cursor: inout Cursor) -> Int64? {
        var value: Int64 = 0
        var count = 0
        while let char = cursor.peek, let digit = char.asciiDigit {
            if count < 9 { value = value * 10 + Int64(digit) }
            count += 1
            cursor.index += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<max(count, 9) { value *= 10 }
        return value
    }

    private static func readSeconds(_ cursor: inout Cursor) -> LineTime? {
        // An optional leading symbol (⏱, ⌚︎, >) or bracket.
        if let first = cursor.peek, !first.isLetter, !first.isNumber, !first.isWhitespace, first != "-" {
            cursor.index += 1
            cursor.skipSpaces()
        }
        guard let whole = cursor.readDigits(min: 1, max: 12), cursor.take("."),
              let fraction = readFraction(&cursor)
        else { return nil }
        _ = cursor.take("s")
        _ = cursor.take("]")
        guard cursor.atEnd || cursor.peek?.isWhitespace == true || cursor.peek == "|" else { return nil }
        guard let nanoseconds = Int64.checked(whole, times: 1_000_000_000, plus: fraction) else { return nil }
        return .seconds(nanoseconds: nanoseconds)
    }

    private static func skipListNumber(_ cursor: inout Cursor) {
        let start = cursor.index
        guard cursor.readDigits(min: 1, max: 9) != nil else { return }
        _ = cursor.take(".") || cursor.take(")")
        guard cursor.peek?.isWhitespace == true else {
            cursor.index = start
            return
        }
    }

    private static func skipSeparators(_ cursor: inout Cursor) {
        while let char = cursor.peek, char == "|" || char == "-" || char == "–" || char == "—",
              cursor.peek(at: 1)?.isWhitespace == true {
            cursor.index += 1
            cursor.skipSpaces()
        }
    }

    /// `Notes[2231:90112]`, or the `log show` columns `0x15d4b  Default  0x0  2231  0  Notes: `.
    private static func skipProcess(_ cursor: inout Cursor) {
        let start = cursor.index
        // Process[pid:thread]
        var end = cursor.index
        while end < cursor.chars.count, !cursor.chars[end].isWhitespace, cursor.chars[end] != "[" { end += 1 }
        if end > start, end < cursor.chars.count, cursor.chars[end] == "[" {
            var probe = Cursor(chars: cursor.chars, index: end + 1)
            if probe.readDigits(min: 1, max: 10) != nil {
                if probe.take(":") { while let char = probe.peek, char.isHexDigit { probe.index += 1 } }
                if probe.take("]"), probe.atEnd || probe.peek?.isWhitespace == true {
                    cursor.index = probe.index
                    cursor.skipSpaces()
                    return
                }
            }
        }
        // log show: thread id in hex first.
        guard cursor.take("0"), cursor.take("x") else {
            cursor.index = start
            return
        }
        while let char = cursor.peek, char.isHexDigit { cursor.index += 1 }
        var probe = cursor
        for _ in 0..<8 {
            probe.skipSpaces()
            let word = probe.readWord()
            if word.isEmpty { break }
            if word.hasSuffix(":") {
                cursor = probe
                cursor.skipSpaces()
                return
            }
        }
        cursor.skipSpaces()
    }

    private static func skipBullet(_ cursor: inout Cursor) {
        if let char = cursor.peek, char == "-" || char == "*" || char == "•",
           cursor.peek(at: 1)?.isWhitespace == true {
            cursor.index += 1
        }
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's days-from-civil algorithm).
    static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// A position in a line's characters.
struct Cursor {
    var chars: [Character]
    var index: Int = 0

    var atEnd: Bool { index >= chars.count }
    var peek: Character? { index < chars.count ? chars[index] : nil }

    func peek(at offset: Int) -> Character? {
        let position = index + offset
        return position < chars.count ? chars[position] : nil
    }

    mutating func take(_ char: Character) -> Bool {
        guard peek == char else { return false }
        index += 1
        return true
    }

    mutating func skipSpaces() {
        while let char = peek, char.isWhitespace { index += 1 }
    }

    /// Reads a run of non-space characters.
    mutating func readWord() -> String {
        let start = index
        while let char = peek, !char.isWhitespace { index += 1 }
        return String(chars[start..<index])
    }

    mutating func readDigits(exactly count: Int) -> Int64? {
        readDigits(min: count, max: count)
    }

    mutating func readDigits(min: Int, max: Int) -> Int64? {
        let start = index
        var value: Int64 = 0
        while index - start < max, let char = peek, let digit = char.asciiDigit {
            value = value * 10 + Int64(digit)
            index += 1
        }
        guard index - start >= min else {
            index = start
            return nil
        }
        if let char = peek, char.asciiDigit != nil {
            index = start
            return nil
        }
        return value
    }
}

extension Int64 {
    /// `value × factor + addend`, or `nil` when any step overflows (times from a log can be anything).
    static func checked(_ value: Int64, times factor: Int64, plus addend: Int64) -> Int64? {
        let product = value.multipliedReportingOverflow(by: factor)
        guard !product.overflow else { return nil }
        let sum = product.partialValue.addingReportingOverflow(addend)
        return sum.overflow ? nil : sum.partialValue
    }
}

extension Character {
    /// 0–9 for the ASCII digits `0`…`9`, else `nil` (what `isASCII` + `wholeNumberValue` answered, without the
    /// Unicode numeric property lookup).
    var asciiDigit: Int? {
        guard let ascii = asciiValue, ascii >= 0x30, ascii <= 0x39 else { return nil }
        return Int(ascii - 0x30)
    }
}
