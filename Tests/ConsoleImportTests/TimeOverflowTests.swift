import Testing
import TraceModel
@testable import ConsoleImport

/// Times at the edges of what Int64 nanoseconds hold: the parser must never trap on arithmetic overflow,
/// keep every callback line as an event, and keep times non-decreasing.
@Suite("Times out of range")
struct TimeOverflowTests {
    @Test("far dates, huge leading seconds and wild jumps between them import without trapping",
          arguments: [
            ["9999-12-31 23:59:59.999 App[1:2] A viewDidLoad"],
            ["2025-03-14 09:12:04.002811+0100 App[1:2] A viewDidLoad", "0001-01-01 00:00:00.000 App[1:2] A viewWillAppear"],
            ["2262-04-12 00:00:00.000 App[1:2] A viewDidLoad", "2262-04-12 00:00:01.000 App[1:2] A viewWillAppear"],
            ["2262-04-11 23:47:16.000 A viewDidLoad", "1677-09-21 00:12:44.000 A viewWillAppear",
             "2262-04-11 23:47:16.000 A viewDidAppear", "1677-09-21 00:12:44.000 A viewWillDisappear"],
            ["18446744073.709 A viewDidLoad", "18446744074.0 A viewWillAppear"],
            ["9223372036.855 A viewDidLoad", "9223372037.0 A viewWillAppear"],
            ["999999999999.999 A viewDidLoad", "0.001 A viewWillAppear", "999999999999.999 A viewDidAppear",
             "0.001 A viewWillDisappear", "999999999999.999 A viewDidDisappear"],
          ])
    func extremeTimes(lines: [String]) throws {
        let result = try ConsoleLogParser().parse(lines: lines)
        #expect(result.events.count == lines.count)
        let times = result.events.map(\.timestamp)
        #expect(times == times.sorted())
    }
}
