import Testing
import TraceModel
@testable import ConsoleImport

@Suite("Times")
struct TimeTests {
    @Test("a time of day that wraps past midnight is read as the next day, and reported")
    func midnight() throws {
        let result = try ConsoleLogParser().parse(lines: [
            "23:59:59.500 ListViewController viewWillAppear", "00:00:00.250 ListViewController viewDidAppear",
        ])
        #expect(result.events.map(\.timestamp) == [0, 750_000_000])
        #expect(result.timeAdjustments == [TimeAdjustment(kind: .midnightRollover, line: 2, backwardsBy: 86_399_250_000_000)])
    }

    @Test("a clock that goes back is held at the previous time; later lines keep their spacing")
    func clockChange() throws {
        let result = try ConsoleLogParser().parse(lines: [
            "2025-10-26 02:59:59.000+0200 App[1:2] ListViewController viewWillAppear",
            "2025-10-26 02:00:00.000+0200 App[1:2] ListViewController viewDidAppear",
            "2025-10-26 02:00:01.500+0200 App[1:2] ListViewController viewWillDisappear",
        ])
        #expect(result.events.map(\.timestamp) == [0, 0, 1_500_000_000])
        #expect(result.timeAdjustments.map(\.kind) == [.clockWentBack])
        #expect(result.timeAdjustments.first?.line == 2)
        #expect(result.timeAdjustments.first?.backwardsBy == 3_599_000_000_000)
    }

    @Test("a log without times gets synthetic, strictly increasing times")
    func synthetic() throws {
        let result = try ConsoleLogParser().parse(lines: ["A viewDidLoad", "A viewWillAppear", "A viewDidAppear"])
        #expect(result.clock == .synthetic)
        #expect(result.hasSyntheticTimes)
        #expect(result.events.map(\.timestamp) == [0, 1_000_000, 2_000_000])
    }

    @Test("untimed lines in a timed log take the previous time and mark the times synthetic")
    func mixed() throws {
        let result = try ConsoleLogParser().parse(lines: [
            "12:00:00.000 A viewDidLoad", "A viewWillAppear", "12:00:01.000 A viewDidAppear",
        ])
        #expect(result.events.map(\.timestamp) == [0, 0, 1_000_000_000])
        #expect(result.untimedLineCount == 1)
        #expect(result.hasSyntheticTimes)
    }

    @Test("UTC offsets in every spelling", arguments: [
        "2025-03-14 08:12:00.5Z", "2025-03-14T09:12:00.500+0100", "2025-03-14T09:12:00,500+01:00", "2025-03-14 03:12:00.500-05",
    ])
    func offsets(stamp: String) throws {
        let result = try ConsoleLogParser().parse(lines: ["\(stamp) A viewDidLoad"])
        #expect(result.wallClockAtZero == 1_741_939_920_500_000_000)
    }
}

@Suite("Marks")
struct MarkTests {
    @Test("a rule reads its fields with FieldValue(parsing:)")
    func ruleParsing() throws {
        let rule = try MarkRule(parsing: "saveDraft=save,critical=true,key=draft,attempt=2")
        #expect(rule.substring == "saveDraft")
        #expect(rule.name == "save")
        #expect(rule.fields == [MarkField("critical", .bool(true)), MarkField("key", .string("draft")), MarkField("attempt", .int(2))])
    }

    @Test("bad rules are errors", arguments: ["saveDraft", "=save", "saveDraft=", "saveDraft=save,critical"])
    func badRules(spec: String) {
        #expect(throws: ConsoleImportError.self) { _ = try MarkRule(parsing: spec) }
    }

    @Test("a field given twice is refused, naming the option and the field", arguments: [
        ("saveDraft=save,key=a,key=b", "--mark 'saveDraft=save,key=a,key=b': field 'key' is given twice ('key=a' and 'key=b'); a mark has one value per field"),
        ("saveDraft=save,critical=true,key=draft,critical=true", "--mark 'saveDraft=save,critical=true,key=draft,critical=true': field 'critical' is given twice; a mark has one value per field"),
    ])
    func duplicateField(spec: String, message: String) throws {
        let error = try #require(throws: ConsoleImportError.self) { _ = try MarkRule(parsing: spec) }
        #expect(error.code == .badMarkRule)
        #expect(error.message == message)
    }

    @Test("a mark goes to the controller named on the line, else to the controller of the latest callback")
    func attribution() throws {
        let rules = [try MarkRule(parsing: "saving=save,key=draft,critical=true"), try MarkRule(parsing: "timer=timer.start,id=t")]
        let result = try ConsoleLogParser(markRules: rules).parse(lines: [
            "ListViewController viewDidAppear",
            "EditorViewController viewWillDisappear",
            "saving draft now",
            "ListViewController: timer scheduled",
            "[Editor] timer scheduled",
        ])
        #expect(result.events.map(\.summary) == [
            "ListViewController#1 viewDidAppear",
            "EditorViewController#2 viewWillDisappear",
            "mark save key=draft critical=true @ EditorViewController#2",
            "mark timer.start id=t @ ListViewController#1",
            "mark timer.start id=t @ Editor#3",
        ])
    }

    @Test("a line with a callback and a mark substring gives both, callback first")
    func both() throws {
        let result = try ConsoleLogParser(markRules: [try MarkRule(parsing: "saving=save,key=k")]).parse(lines: [
            "EditorViewController viewWillDisappear: saving",
        ])
        #expect(result.events.map(\.summary) == [
            "EditorViewController#1 viewWillDisappear", "mark save key=k @ EditorViewController#1",
        ])
    }
}
