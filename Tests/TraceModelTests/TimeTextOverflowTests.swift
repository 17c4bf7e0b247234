import Testing
import TraceModel

/// Durations too large for UInt64 nanoseconds must be rejected (nil), never trap.
@Suite("TimeText: durations out of range")
struct TimeTextOverflowTests {
    @Test("a bare number of seconds beyond UInt64 nanoseconds is rejected, not a trap",
          arguments: ["1e20", "1e300", "18446744073.709551616", "18446744074", "99999999999999999999", "1e99999999999999999999"])
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

    @Test("the conversion is exact: no nanosecond is lost past 2^53 ns (≈ 104 days), where a Double rounds", arguments: [
        ("9007199.254740993s", UInt64(9_007_199_254_740_993)), ("9007199.254740993", 9_007_199_254_740_993),
        ("9007199254.740993ms", 9_007_199_254_740_993), ("9007199254740993ns", 9_007_199_254_740_993),
        ("18446744073.709551615", .max), ("18446744073709.551615ms", .max), ("18446744073709551615ns", .max),
        ("1844674407.3709551615e1s", .max), ("150119.987579016m", 9_007_199_254_740_960),
        ("0.1s", 100_000_000), ("0.3s", 300_000_000), ("1e-9s", 1), ("0.000000001", 1), ("1.5ns", 2), ("1.4ns", 1),
        ("0.0000000005s", 1), ("0.0000000004s", 0), ("0e999999999999", 0), ("000.0010s", 1_000_000), ("1.25us", 1_250),
        ("0.5m", 30_000_000_000), ("1e-10m", 6), ("2E-3s", 2_000_000),
    ])
    func exact(text: String, nanoseconds: UInt64) {
        #expect(TimeText.parseDuration(text) == nanoseconds)
        #expect(!TimeText.isOutOfRange(text))
    }

    @Test("one nanosecond past 2^64 − 1 is out of range, in any unit or form", arguments: [
        "18446744073.709551616", "18446744073709.551616ms", "18446744073709551616ns", "307445734.5618258603m",
        "18446744073.7095516155", "1e99999999999999999999",
    ])
    func justTooLarge(text: String) {
        #expect(TimeText.parseDuration(text) == nil)
        #expect(TimeText.isOutOfRange(text))
    }
}
