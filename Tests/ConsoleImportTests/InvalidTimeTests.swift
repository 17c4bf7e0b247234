import Testing
import TraceModel
@testable import ConsoleImport

/// A time in a known shape with impossible values is a warning naming the line (an error with `strict`); the
/// line is read as one without a time and nothing is lost.
@Suite("Invalid times")
struct InvalidTimeTests {
    static let lines = [
        "2024-05-01 10:00:00.000 MyApp[1234:56789] DetailViewController viewDidLoad",
        "2024-13-45 10:00:00.500 MyApp[1234:56789] DetailViewController viewWillAppear",
        "2023-02-29 10:00:01.000 MyApp[1234:56789] DetailViewController viewDidAppear",
        "2024-05-01 25:00:00.000 MyApp[1234:56789] DetailViewController viewWillDisappear",
        "2024-05-01 10:00:02.000+2500 MyApp[1234:56789] DetailViewController viewDidDisappear",
        "[10:61:00.000] DetailViewController deinit",
        "2024-05-01 10:00:03.000 MyApp[1234:56789] ListViewController viewDidLoad",
    ]

    @Test("each is named with its line and reason; its events are kept at the previous line's time")
    func warnings() throws {
        let result = try ConsoleLogParser().parse(lines: Self.lines)
        #expect(result.invalidTimes == [
            InvalidTime(line: 2, text: "2024-13-45 10:00:00.500", reason: "month 13"),
            InvalidTime(line: 3, text: "2023-02-29 10:00:01.000", reason: "day 29 (February 2023 has 28 days)"),
            InvalidTime(line: 4, text: "2024-05-01 25:00:00.000", reason: "hour 25"),
            InvalidTime(line: 5, text: "2024-05-01 10:00:02.000+2500", reason: "UTC offset +2500"),
            InvalidTime(line: 6, text: "[10:61:00.000]", reason: "minute 61"),
        ])
        #expect(result.invalidTimeCount == 5)
        // The rest of each line is read as usual (the process token is skipped, the controller found), at the
        // previous time; the last line is valid again.
        #expect(result.lines == [
            "0.000 DetailViewController#1 viewDidLoad", "0.000 DetailViewController#1 viewWillAppear",
            "0.000 DetailViewController#1 viewDidAppear", "0.000 DetailViewController#1 viewWillDisappear",
            "0.000 DetailViewController#1 viewDidDisappear", "0.000 DetailViewController#1 deinit",
            "3.000 ListViewController#2 viewDidLoad",
        ])
        #expect(result.untimedLineCount == 5)
        #expect(result.hasSyntheticTimes)
        #expect(result.invalidTimes.first?.description == "line 2: invalid time '2024-13-45 10:00:00.500' (month 13); the line is read without a time")
    }

    @Test("with strict, the first invalid time is an error naming file and line")
    func strict() throws {
        let parser = ConsoleLogParser(isStrict: true, sourceFile: "app.log")
        let error = try #require(throws: ConsoleImportError.self) { _ = try parser.parse(lines: Self.lines) }
        #expect(error.code == .invalidTime)
        #expect(error.description == "app.log:2: invalid time '2024-13-45 10:00:00.500' (month 13)")
    }

    @Test("dates past what 64-bit nanoseconds hold are named too", arguments: [
        ("9999-12-31 23:59:59.999 App[1:2] A viewDidLoad", "outside the dates 64-bit nanoseconds hold (1677-09-21 to 2262-04-11)"),
        ("2024-00-10 10:00:00 App[1:2] A viewDidLoad", "month 0"),
        ("2024-04-31 10:00:00 App[1:2] A viewDidLoad", "day 31 (April 2024 has 30 days)"),
        ("2024-04-00T10:00:00Z A viewDidLoad", "day 0"),
        ("2024-04-10 10:00:61 A viewDidLoad", "second 61"),
    ])
    func more(line: String, reason: String) throws {
        let result = try ConsoleLogParser().parse(lines: [line])
        #expect(result.invalidTimes.map(\.reason) == [reason])
        #expect(result.events.map(\.summary) == ["A#1 viewDidLoad"])
    }

    @Test("valid edge values are not reported", arguments: [
        "2024-02-29 23:59:60.000 A viewDidLoad", "2024-12-31 00:00:00 A viewDidLoad", "2024-06-30T12:00:00-12:00 A viewDidLoad",
        "23:59:59.999 A viewDidLoad", "2262-04-11 23:47:16.000 A viewDidLoad",
    ])
    func valid(line: String) throws {
        let result = try ConsoleLogParser().parse(lines: [line])
        #expect(result.invalidTimes.isEmpty)
        #expect(result.clock != .synthetic)
    }
}
