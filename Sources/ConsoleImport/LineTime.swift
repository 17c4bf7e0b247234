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

/// The process token of an NSLog/os_log line (`Notes[2231:90112]`) or the PID and process columns of
/// `log show`: the process's name and ID.
struct ProcessToken: Sendable, Hashable {
    var name: String
    var pid: Int64

    /// `Notes[2231]`, as `RecorderEvent.runStarted` describes a process.
    var description: String { "\(name)[\(pid)]" }
}

/// A time written at the start of a line in a known shape whose values are impossible (`2024-13-45 10:00:00`,
/// `25:61:00`), or a date 64-bit nanoseconds cannot hold. The line is read as if it had no time.
struct InvalidLineTime: Sendable, Hashable {
    /// The time as written.
    var text: String
    /// Why it is not a time (`month 13`).
    var reason: String
}

/// The prefix a line starts with: its time (if any), and where its message begins.
struct LinePrefix: Sendable {
    var time: LineTime?
    /// A time-shaped prefix that is not a valid time (then `time` is `nil`).
    var invalidTime: InvalidLineTime?
    /// The process named after the time (`Notes[2231:90112]`, or `log show`'s PID column), if any.
    var process: ProcessToken?
    /// Index in the line's scalars where the message starts (after time, process and list numbering).
    var messageStart: Int
}

/// What reading a time at the cursor found.
private enum TimeRead {
    /// Not a time of this shape; the cursor is to be reset.
    case none
    case time(LineTime)
    /// The shape of a time with impossible values; the cursor is after it.
    case invalid(String)
}

/// Reads the time and the logging prefix at the start of a line.
///
/// Recognised: `2025-03-14 09:12:00.000114+0100` (NSLog/os_log, also with `T`, `Z`, `+01:00`, a comma
/// before the fraction, or inside `[…]`); `12:40:01.102` (time of day, optionally in brackets); a leading
/// number of seconds with a fraction, optionally after a symbol such as `⏱` (`⏱ 3.120 | …`, `[  3.120]`);
/// a list number (`1 `, `1. `, `1) `, `1: `), which is not a time; bullets (`- `, `* `, `• `); and after the
/// time a process token `Notes[2231:90112]` or the columns of `log show` (`0x15d4b Default 0x0 2231 0 Notes:`),
/// whose process name and ID are kept.
///
/// A date or time of day whose fields are out of range (month 13, February 30, hour 25, a UTC offset of
/// +25:00, a year outside 1677…2262 that Int64 nanoseconds cannot hold) is not a time: it is reported in
/// `LinePrefix.invalidTime` and skipped like a valid one, so the rest of the line is read as usual.
///
/// Works on the line's Unicode scalars (`LineScalars`): index arithmetic is one step per scalar, and ASCII is
/// decided from the scalar's value without Unicode property lookups.
enum LinePrefixReader {
    static func read(_ chars: LineChars) -> LinePrefix {
        var cursor = Cursor(chars: chars)
        cursor.skipSpaces()
        var time: LineTime?
        var invalid: InvalidLineTime?
        let start = cursor.index
        func note(_ read: TimeRead) -> Bool {
            switch read {
            case .none:
                cursor.index = start
                return false
            case .time(let value):
                time = value
                return true
            case .invalid(let reason):
                invalid = InvalidLineTime(text: cursor.text(start..<cursor.index), reason: reason)
                return true
            }
        }
        // Only a digit or `[` can start a date or a time of day: most lines of a print log skip both.
        let first = cursor.peek
        let datable = first.map { ($0.value >= 0x30 && $0.value <= 0x39) || $0 == "[" } ?? false
        if datable, note(readDateTime(&cursor)) {
        } else if datable, note(readTimeOfDay(&cursor)) {
        } else if let seconds = readSeconds(&cursor) {
            time = seconds
        } else {
            cursor.index = start
            skipListNumber(&cursor)
        }
        cursor.skipSpaces()
        skipSeparators(&cursor)
        let process = skipProcess(&cursor, afterTime: time != nil || invalid != nil)
        cursor.skipSpaces()
        skipBullet(&cursor)
        cursor.skipSpaces()
        return LinePrefix(time: time, invalidTime: invalid, process: process, messageStart: cursor.index)
    }

    // MARK: - Dates

    private static func readDateTime(_ cursor: inout Cursor) -> TimeRead {
        let bracketed = cursor.take("[")
        let year: Int64, month: Int64, day: Int64, clock: Clock
        if let fixed = fixedDateTime(cursor.chars, at: cursor.index) {
            cursor.index += 19
            guard let read = clockFraction(&cursor, hours: fixed.hours, minutes: fixed.minutes, seconds: fixed.seconds)
            else { return .none }
            (year, month, day, clock) = (fixed.year, fixed.month, fixed.day, read)
        } else {
            guard let readYear = cursor.readDigits(exactly: 4), cursor.take("-"),
                  let readMonth = cursor.readDigits(exactly: 2), cursor.take("-"),
                  let readDay = cursor.readDigits(exactly: 2),
                  cursor.take(" ") || cursor.take("T"),
                  let read = readClock(&cursor)
            else { return .none }
            (year, month, day, clock) = (readYear, readMonth, readDay, read)
        }
        var offsetSeconds: Int64 = 0
        var hasOffset = false
        var offsetProblem: String?
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
                // Real offsets run from -12:00 to +14:00.
                if hours > 14 || minutes > 59 { offsetProblem = "UTC offset \(cursor.text(save..<cursor.index))" }
                offsetSeconds = (hours * 3600 + minutes * 60) * (sign == "+" ? 1 : -1)
                hasOffset = true
            } else {
                cursor.index = save
            }
        }
        if bracketed { _ = cursor.take("]") }
        guard cursor.atEnd || cursor.peek?.isSpace == true || cursor.peek == "]" || cursor.peek == "|" else {
            return .none
        }
        let clockValue: Int64
        switch clock {
        case .invalid(let reason): return .invalid(reason)
        case .valid(let value): clockValue = value
        }
        guard (1...12).contains(month) else { return .invalid("month \(month)") }
        let monthDays = daysIn(month: month, year: year)
        guard (1...monthDays).contains(day) else {
            return .invalid(day == 0 ? "day 0" : "day \(day) (\(monthNames[Int(month) - 1]) \(year) has \(monthDays) days)")
        }
        if let offsetProblem { return .invalid(offsetProblem) }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        // Int64 nanoseconds since 1970 reach only 1677...2262: a date outside is not read as a time.
        guard let seconds = Int64.checked(days, times: 86_400, plus: -offsetSeconds),
              let nanoseconds = Int64.checked(seconds, times: 1_000_000_000, plus: clockValue)
        else { return .invalid("outside the dates 64-bit nanoseconds hold (1677-09-21 to 2262-04-11)") }
        return .time(.wall(nanoseconds: nanoseconds, hasOffset: hasOffset))
    }

    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// Days in `month` (1–12) of `year` in the proleptic Gregorian calendar.
    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func readTimeOfDay(_ cursor: inout Cursor) -> TimeRead {
        let bracketed = cursor.take("[")
        guard let clock = readClock(&cursor) else { return .none }
        if bracketed { _ = cursor.take("]") }
        guard cursor.atEnd || cursor.peek?.isSpace == true || cursor.peek == "|" else { return .none }
        switch clock {
        case .invalid(let reason): return .invalid(reason)
        case .valid(let value): return .time(.timeOfDay(nanoseconds: value))
        }
    }

    private enum Clock {
        case valid(Int64)
        case invalid(String)
    }

    /// `YYYY-MM-DD HH:MM:SS` (or with `T`) at `index`, not followed by a digit: the date and time of most NSLog
    /// and os_log lines, read at fixed places. `nil` for any other shape, which the cursor's reads then decide
    /// (they read this shape the same way).
    private static func fixedDateTime(_ chars: LineChars, at index: Int)
        -> (year: Int64, month: Int64, day: Int64, hours: Int64, minutes: Int64, seconds: Int64)? {
        guard index + 19 <= chars.count, chars[index + 4] == "-", chars[index + 7] == "-",
              chars[index + 10] == " " || chars[index + 10] == "T", chars[index + 13] == ":", chars[index + 16] == ":",
              index + 19 == chars.count || chars[index + 19].asciiDigit == nil,
              let year = digits(chars, index, 4), let month = digits(chars, index + 5, 2), let day = digits(chars, index + 8, 2),
              let hours = digits(chars, index + 11, 2), let minutes = digits(chars, index + 14, 2),
              let seconds = digits(chars, index + 17, 2)
        else { return nil }
        return (year, month, day, hours, minutes, seconds)
    }

    /// The value of the `count` scalars from `start` when all are ASCII digits.
    @inline(__always)
    private static func digits(_ chars: LineChars, _ start: Int, _ count: Int) -> Int64? {
        var value: Int64 = 0
        for position in start..<(start + count) {
            guard let digit = chars[position].asciiDigit else { return nil }
            value = value * 10 + Int64(digit)
        }
        return value
    }

    /// `HH:MM:SS(.fraction)?` → nanoseconds since midnight, or why the fields are out of range (a leap
    /// second `:60` is allowed).
    private static func readClock(_ cursor: inout Cursor) -> Clock? {
        guard let hours = cursor.readDigits(min: 1, max: 2), cursor.take(":"),
              let minutes = cursor.readDigits(exactly: 2), cursor.take(":"),
              let seconds = cursor.readDigits(exactly: 2)
        else { return nil }
        return clockFraction(&cursor, hours: hours, minutes: minutes, seconds: seconds)
    }

    /// The clock `hours:minutes:seconds` with the fraction at the cursor, if any (`nil` when a `.` or `,` has no
    /// digits after it).
    private static func clockFraction(_ cursor: inout Cursor, hours: Int64, minutes: Int64, seconds: Int64) -> Clock? {
        var nanos: Int64 = 0
        if cursor.take(".") || cursor.take(",") {
            guard let fraction = readFraction(&cursor) else { return nil }
            nanos = fraction
        }
        if hours > 23 { return .invalid("hour \(hours)") }
        if minutes > 59 { return .invalid("minute \(minutes)") }
        if seconds > 60 { return .invalid("second \(seconds)") }
        return .valid(((hours * 60 + minutes) * 60 + seconds) * 1_000_000_000 + nanos)
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
        // An optional leading symbol (⏱, ⌚︎, >) or bracket, with its variation selector or combining marks.
        if let first = cursor.peek, !first.isLetter, !first.isNumber, !first.isSpace, first != "-" {
            cursor.index += 1
            while let next = cursor.peek, next.isCharacterExtension { cursor.index += 1 }
            cursor.skipSpaces()
        }
        guard let whole = cursor.readDigits(min: 1, max: 12), cursor.take("."),
              let fraction = readFraction(&cursor)
        else { return nil }
        _ = cursor.take("s")
        _ = cursor.take("]")
        guard cursor.atEnd || cursor.peek?.isSpace == true || cursor.peek == "|" else { return nil }
        guard let nanoseconds = Int64.checked(whole, times: 1_000_000_000, plus: fraction) else { return nil }
        return .seconds(nanoseconds: nanoseconds)
    }

    /// `1 `, `1. `, `1) `, `1: ` (a numbered list, as in `1: A_ViewController initWithCoder:`).
    private static func skipListNumber(_ cursor: inout Cursor) {
        let start = cursor.index
        guard cursor.readDigits(min: 1, max: 9) != nil else { return }
        _ = cursor.take(".") || cursor.take(")") || cursor.take(":")
        guard cursor.peek?.isSpace == true else {
            cursor.index = start
            return
        }
    }

    private static func skipSeparators(_ cursor: inout Cursor) {
        while let char = cursor.peek, char == "|" || char == "-" || char == "–" || char == "—",
              cursor.peek(at: 1)?.isSpace == true {
            cursor.index += 1
            cursor.skipSpaces()
        }
    }

    /// The type column `log stream --style compact` and `log show --style compact` write between the time and
    /// the process (`2026-08-11 17:15:22.031 Df Candela[80328:9875ec] …`, `… E  syspolicyd[527:85cf08] …`).
    private static let compactTypes: Set<String> = ["A", "Ac", "Db", "Df", "E", "Er", "F", "Ft", "I", "In"]

    /// `Notes[2231:90112]` (after a time, also behind a compact type column: `Df Notes[2231:90112]`), or the
    /// `log show` columns; see `skipProcessToken`.
    private static func skipProcess(_ cursor: inout Cursor, afterTime: Bool) -> ProcessToken? {
        if afterTime, let first = cursor.peek, first.value >= 0x41, first.value <= 0x5A {
            var probe = cursor
            let start = probe.index
            while let char = probe.peek, char.isLetter, probe.index - start < 3 { probe.index += 1 }
            if probe.peek == " ", compactTypes.contains(probe.text(start..<probe.index)) {
                probe.skipSpaces()
                if let token = skipProcessToken(&probe, afterTime: true) {
                    cursor = probe
                    return token
                }
            }
        }
        return skipProcessToken(&cursor, afterTime: afterTime)
    }

    /// `Notes[2231:90112]`, or the `log show` columns `0x15d4b  Default  0x0  2231  0  Notes: `; the process
    /// name and ID when they are there. After a time, the name may have spaces (`DTSidePanels Demo[81753:c07]`,
    /// an app whose name has a space: up to four words), when the brackets hold both PID and thread. The brackets
    /// alone, `[7397:f803]` (an NSLog prefix quoted without its date and name), are a process without a name
    /// when they hold both PID and thread.
    private static func skipProcessToken(_ cursor: inout Cursor, afterTime: Bool) -> ProcessToken? {
        let start = cursor.index
        // Process[pid:thread]
        var end = cursor.index
        var words = 1
        while end < cursor.chars.count, cursor.chars[end] != "[" {
            if cursor.chars[end].isSpace {
                // Another word of the name only after a time, and only if `[pid:thread]` follows.
                guard afterTime, words < 4, end + 1 < cursor.chars.count, !cursor.chars[end + 1].isSpace else { break }
                words += 1
            }
            end += 1
        }
        if end < cursor.chars.count, cursor.chars[end] == "[" {
            var probe = Cursor(chars: cursor.chars, index: end + 1)
            if let pid = probe.readDigits(min: 1, max: 10) {
                var hasThread = false
                if probe.take(":") {
                    while let char = probe.peek, char.isASCIIHexDigit {
                        probe.index += 1
                        hasThread = true
                    }
                }
                if end > start || hasThread, words == 1 || (hasThread && !containsLifecycleName(cursor.chars, start..<end)),
                   probe.take("]"), probe.atEnd || probe.peek?.isSpace == true {
                    cursor.index = probe.index
                    cursor.skipSpaces()
                    return ProcessToken(name: cursor.text(start..<end), pid: pid)
                }
            }
        }
        // log show: thread id in hex first, then type, activity, PID, TTL and `Process:`.
        guard cursor.take("0"), cursor.take("x") else {
            cursor.index = start
            return nil
        }
        while let char = cursor.peek, char.isASCIIHexDigit { cursor.index += 1 }
        var probe = cursor
        var pid: Int64?
        for _ in 0..<8 {
            probe.skipSpaces()
            let wordStart = probe.index
            if pid == nil, let digits = probe.readDigits(min: 1, max: 10), probe.atEnd || probe.peek?.isSpace == true {
                pid = digits
                continue
            }
            probe.index = wordStart
            probe.skipWord()
            if probe.index == wordStart { break }
            if probe.chars[probe.index - 1] == ":" {
                let name = probe.text(wordStart..<(probe.index - 1))
                cursor = probe
                cursor.skipSpaces()
                return pid.map { ProcessToken(name: name, pid: $0) }
            }
        }
        cursor.skipSpaces()
        return nil
    }

    /// Whether a word of `chars[range]` starts with a lifecycle name (then the words are a message, not a
    /// process name with spaces).
    private static func containsLifecycleName(_ chars: LineChars, _ range: Range<Int>) -> Bool {
        var index = range.lowerBound
        while index < range.upperBound {
            var end = index
            while end < range.upperBound, chars[end].isIdentifierCharacter { end += 1 }
            if end > index, LifecycleVocabulary.name(of: chars, index..<end) != nil { return true }
            index = end + 1
        }
        return false
    }

    private static func skipBullet(_ cursor: inout Cursor) {
        if let char = cursor.peek, char == "-" || char == "*" || char == "•",
           cursor.peek(at: 1)?.isSpace == true {
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

/// A position in a line's Unicode scalars.
struct Cursor {
    var chars: LineChars
    var index: Int = 0

    var atEnd: Bool { index >= chars.count }
    var peek: Unicode.Scalar? { index < chars.count ? chars[index] : nil }

    func peek(at offset: Int) -> Unicode.Scalar? {
        let position = index + offset
        return position < chars.count ? chars[position] : nil
    }

    mutating func take(_ char: Unicode.Scalar) -> Bool {
        guard index < chars.count, chars[index] == char else { return false }
        index += 1
        return true
    }

    mutating func skipSpaces() {
        while index < chars.count, chars[index].isSpace { index += 1 }
    }

    /// Skips a run of non-space scalars.
    mutating func skipWord() {
        while index < chars.count, !chars[index].isSpace { index += 1 }
    }

    /// Reads a run of non-space scalars.
    mutating func readWord() -> String {
        let start = index
        skipWord()
        return text(start..<index)
    }

    /// The text of `range` of the line.
    func text(_ range: Range<Int>) -> String {
        chars.text(range)
    }

    mutating func readDigits(exactly count: Int) -> Int64? {
        readDigits(min: count, max: count)
    }

    /// The value of `min`…`max` ASCII digits at the cursor, which moves past them; `nil` (the cursor stays) when
    /// there are fewer, or more follow.
    @inline(__always)
    mutating func readDigits(min: Int, max: Int) -> Int64? {
        let limit = Swift.min(chars.count, index + max)
        var end = index
        var value: Int64 = 0
        while end < limit, let digit = chars[end].asciiDigit {
            value = value * 10 + Int64(digit)
            end += 1
        }
        guard end - index >= min, end == chars.count || chars[end].asciiDigit == nil else { return nil }
        index = end
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

