/// Nanoseconds written as the Trace Event Format's microseconds.
///
/// The format's `ts` and `dur` are microseconds and may carry a fraction (Trace Event Format, "Event
/// Descriptions"). A nanosecond count is written as its exact decimal microseconds, three fraction digits
/// (`1234567 ns` → `1234.567`): nothing is rounded in the file. A reader that parses the number into a
/// `Double` (Perfetto's JSON importer does) keeps every nanosecond below 2^53 ns (about 104 days of uptime) and,
/// beyond that, rounds monotonically, so two events never swap order.
public enum TraceEventTime {
    /// `nanoseconds` as decimal microseconds with three fraction digits: `5900400000` → `5900400.000`.
    public static func microseconds(_ nanoseconds: UInt64) -> String {
        let whole = nanoseconds / 1000
        let fraction = nanoseconds % 1000
        let digits = String(fraction)
        return String(whole) + "." + String(repeating: "0", count: 3 - digits.count) + digits
    }
}
