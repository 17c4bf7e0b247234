import Testing
import TraceModel

/// Durations too large for UInt64 nanoseconds must be rejected (nil), never trap.
@Suite("TimeText: durations out of range")
struct TimeTextOverflowTests {
    @Test("a bare number of seconds beyond UInt64 nanoseconds is rejected, not a trap",
          arguments: ["1e20", "1e300", "18446744073.709551615", "18446744074", "99999999999999999999"])
    func bareNumberTooLarge(text: String) {
        #expect(TimeText.parseDuration(text) == nil)
    }

    @Test("a large bare number that fits still parses")
    func bareNumberThatFits() {
        #expect(TimeText.parseDuration("10000000000") == 10_000_000_000_000_000_000)
        #expect(TimeText.parseDuration("1e3") == 1_000_000_000_000)
    }

    @Test("too large is told apart from not a duration", arguments: [
        ("1e20", true), ("99999999999s", true), ("300000000000m", true), ("99999999999999999999ns", true),
        ("18446744073s", false), ("abc", false), ("-5s", false), ("1.5x", false), ("nan", false), ("12.48", false),
    ])
    func outOfRange(text: String, isOutOfRange: Bool) {
        #expect(TimeText.isOutOfRange(text) == isOutOfRange)
    }

    @Test("only decimal numbers are durations: hexadecimal, inf and nan (which Double(_:) reads) are refused", arguments: [
        "0x10", "0x10s", "0x1p3", "0X1P3ms", "inf", "infinity", "nan", "1e", "e3", ".", "+", "1.2.3", "--5", "1e+",
    ])
    func decimalOnly(text: String) {
        #expect(TimeText.parseDuration(text) == nil)
        #expect(!TimeText.isOutOfRange(text), "'\(text)' is not a number, not a number too large")
    }

    @Test("the decimal forms people type still parse", arguments: [
        ("5", UInt64(5_000_000_000)), ("+5s", 5_000_000_000), (".5s", 500_000_000), ("5.s", 5_000_000_000),
        ("1.5e1s", 15_000_000_000), ("2E-3s", 2_000_000), ("1e3ms", 1_000_000_000),
    ])
    func decimalForms(text: String, nanoseconds: UInt64) {
        #expect(TimeText.parseDuration(text) == nanoseconds)
    }
}
