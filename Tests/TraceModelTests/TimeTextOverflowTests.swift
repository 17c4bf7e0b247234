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
}
