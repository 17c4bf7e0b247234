import ArgumentParsing
import TraceModel

/// The time options of the commands (`state --at`, `events --from`/`--to`): a duration after the trace's first
/// event, parsed the same way with the same messages everywhere (docs/CLI.md "Times").
enum TimeOption {
    /// Nanoseconds after the first event for `text`, given as option `--name`.
    ///
    /// - Throws: `ValidationError` for a negative time, one too large for 64-bit nanoseconds, or text that is not a
    ///   decimal duration (`TimeText.parseDuration`).
    static func parse(_ text: String, option name: String) throws -> UInt64 {
        if let value = TimeText.parseDuration(text) { return value }
        if text.hasPrefix("-"), TimeText.parseDuration(String(text.dropFirst())) != nil {
            throw ValidationError("--\(name) '\(text)' is negative; times count from the trace's first event (0s)")
        }
        if TimeText.isOutOfRange(text) {
            throw ValidationError("--\(name) '\(text)' is too large: times are nanoseconds in 64 bits, at most 18446744073.7s (about 584 years)")
        }
        throw ValidationError(
            "--\(name) must be a duration such as 12.48s, 1500ms, 2m or 1h (units \(TimeText.unitList); a bare number is seconds); got '\(text)'")
    }
}
