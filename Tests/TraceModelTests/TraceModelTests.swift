import Testing
@testable import TraceModel

@Suite("Time text")
struct TimeTextTests {
    @Test("durations parse in every unit", arguments: [
        ("1.5s", UInt64(1_500_000_000)), ("1500ms", 1_500_000_000), ("1500000000ns", 1_500_000_000),
        ("250us", 250_000), ("2m", 120_000_000_000), ("12.48", 12_480_000_000), (" 3s ", 3_000_000_000),
        ("1h", 3_600_000_000_000), ("1.5h", 5_400_000_000_000), ("60m", 3_600_000_000_000),
    ])
    func parses(text: String, nanoseconds: UInt64) {
        #expect(TimeText.parseDuration(text) == nanoseconds)
    }

    @Test("every whole number of every unit up to 999 is exact (a digit times 36 for hours carries past 9)")
    func wholeNumbersInEveryUnit() {
        let units: [(String, UInt64)] = [
            ("ns", 1), ("us", 1_000), ("µs", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000), ("m", 60_000_000_000),
            ("h", 3_600_000_000_000), ("", 1_000_000_000),
        ]
        for (suffix, unit) in units {
            for number in UInt64(0)...999 {
                #expect(TimeText.parseDuration("\(number)\(suffix)") == number * unit, "\(number)\(suffix)")
            }
        }
    }

    @Test("the longest duration in hours fits and one hour more is too large")
    func hoursAtTheLimit() {
        #expect(TimeText.parseDuration("5124095h") == UInt64(5_124_095) * 3_600_000_000_000)
        #expect(TimeText.parseDuration("5124096h") == nil)
        #expect(TimeText.isOutOfRange("5124096h"))
        #expect(TimeText.parseDuration("9.9h") == 35_640_000_000_000)
    }

    @Test("negative, empty and non-numeric durations are refused", arguments: ["-1s", "", "s", "abc", "1.5 parsecs", "nan", "infs"])
    func refuses(text: String) {
        #expect(TimeText.parseDuration(text) == nil)
    }

    @Test("seconds round to the nearest millisecond")
    func secondsRound() {
        #expect(TimeText.seconds(5_903_988_000) == "5.904 s")
        #expect(TimeText.seconds(6_289_411_000) == "6.289 s")
        #expect(TimeText.seconds(12_480_000_000) == "12.480 s")
        #expect(TimeText.seconds(999_600_000) == "1.000 s")
        #expect(TimeText.seconds(0) == "0.000 s")
        #expect(TimeText.seconds(7_000_000) == "0.007 s")
    }

    @Test("durations pick a unit that suits their size")
    func durations() {
        #expect(TimeText.duration(850) == "850 ns")
        #expect(TimeText.duration(12_400) == "12.4 µs")
        #expect(TimeText.duration(3_200_000) == "3.2 ms")
        #expect(TimeText.duration(1_250_000_000) == "1.250 s")
    }
}

@Suite("Event model")
struct EventModelTests {
    @Test("display names use the serial, or the label when the source had one")
    func displayNames() {
        #expect(ControllerRef(serial: 3, typeName: "NoteEditorViewController").displayName == "NoteEditorViewController#3")
        #expect(ControllerRef(serial: 1, typeName: "PhotoPageViewController", label: "0").displayName == "PhotoPageViewController<0>")
        #expect(ControllerRef(serial: 9, typeName: "", label: "2").displayName == "2")
    }

    @Test("every name reads back to its case")
    func namesRoundTrip() {
        for callback in Callback.allCases { #expect(Callback(name: callback.name) == callback) }
        for operation in ContainerOperation.allCases { #expect(ContainerOperation(name: operation.name) == operation) }
        for transition in AppTransition.allCases { #expect(AppTransition(name: transition.name) == transition) }
        for style in ModalPresentationStyle.allCases { #expect(ModalPresentationStyle(name: style.name) == style) }
        for phase in Phase.allCases { #expect(Phase(name: phase.description) == phase) }
        #expect(Callback.willMoveToParent.name == "willMove(toParent:)")
        #expect(Callback(name: "viewWillDisappear:") == nil)
    }

    @Test("field values parse by shape")
    func fieldValues() {
        #expect(FieldValue(parsing: "true") == .bool(true))
        #expect(FieldValue(parsing: "42") == .int(42))
        #expect(FieldValue(parsing: "4.5") == .double(4.5))
        #expect(FieldValue(parsing: "draft") == .string("draft"))
        #expect(FieldValue(parsing: "inf") == .string("inf"))
    }

    @Test("a save mark carries its key and criticality")
    func saveMark() {
        let editor = ControllerRef(serial: 2, typeName: "Editor")
        let save = MarkEvent.save(key: "draft", critical: true, controller: editor)
        #expect(save.key == "draft")
        #expect(save.isCritical)
        #expect(MarkEvent.edit(key: "draft", controller: editor).isCritical == false)
        let event = Event.mark(save, at: 5)
        #expect(event.controller == editor)
        #expect(event.summary == "mark save key=draft critical=true @ Editor#2")
    }

    @Test("an event lists every controller it names once")
    func controllersOfAnEvent() {
        let nav = ControllerRef(serial: 1, typeName: "Nav")
        let a = ControllerRef(serial: 2, typeName: "A")
        let event = Event.container(ContainerEvent(.setViewControllers, container: nav, controllers: [a, nav, a]), at: 0)
        #expect(event.controllers == [nav, a])
        #expect(event.controller == a)
    }
}

@Suite("JSON strings")
struct JSONStringTests {
    @Test("quotes, backslashes and control characters are escaped; other text is kept")
    func escapes() {
        #expect(JSONString.quoted("plain") == "\"plain\"")
        #expect(JSONString.quoted("say \"hi\"\\") == "\"say \\\"hi\\\"\\\\\"")
        #expect(JSONString.quoted("a\nb\tc\r") == "\"a\\nb\\tc\\r\"")
        #expect(JSONString.quoted("\u{1}\u{1f}") == "\"\\u0001\\u001f\"")
        #expect(JSONString.quoted("viewWillAppear → ✓") == "\"viewWillAppear → ✓\"")
    }
}
