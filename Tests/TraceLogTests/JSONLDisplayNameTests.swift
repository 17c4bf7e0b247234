import Testing
import TraceModel
@testable import TraceLog

/// `JSONLWriter.appendDisplayName` writes a plain controller's name straight from its type name and serial; the
/// bytes must be those of `appendString(ref.displayName)` for every name, escaped or not.
@Suite("JSONL: display names written without building them")
struct JSONLDisplayNameTests {
    static let typeNames: [String] = [
        "", "A", "UINavigationController", "NoteEditorViewController_with_a_long_name_on_the_heap", "café",
        "日本語のコントローラ", "emoji 🧪", "Quote\"d", "Back\\slash", "Tab\tBar", "Line\nBreak", "Esc\u{1B}[31m",
        "Del\u{7F}", "C1\u{85}", "\u{00A0}nbsp", "Sep\u{2028}", "\u{2027}near", "Module.Outer<Inner>",
    ]

    @Test("same bytes as appendString(displayName), with and without a label", arguments: typeNames)
    func agreesWithDisplayName(typeName: String) {
        for ref in [
            ControllerRef(serial: 0, typeName: typeName), ControllerRef(serial: 7, typeName: typeName),
            ControllerRef(serial: UInt32.max, typeName: typeName), ControllerRef(serial: 3, typeName: typeName, label: "0"),
            ControllerRef(serial: 3, typeName: typeName, label: "tag\n"),
        ] {
            var fast: [UInt8] = []
            JSONLWriter.appendDisplayName(ref, to: &fast)
            var reference: [UInt8] = []
            JSONLWriter.appendString(ref.displayName, to: &reference)
            #expect(fast == reference, "\(ref)")
        }
    }

    @Test("a whole callback line writes the plain parent directly and the escaped controller as before")
    func wholeLine() {
        let child = ControllerRef(serial: 12, typeName: "Quote\"d\u{1B}")
        let parent = ControllerRef(serial: 3, typeName: "UINavigationController")
        let event = Event(timestamp: 5, .callback(CallbackEvent(.didMoveToParent, .instant, controller: child, parent: .controller(parent))))
        var line: [UInt8] = []
        JSONLWriter.appendLine(for: event, to: &line)
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.contains(#""name":"UINavigationController#3""#))
        #expect(text.contains(#""controller":"Quote\"d\\u{1B}#12""#))
    }
}
