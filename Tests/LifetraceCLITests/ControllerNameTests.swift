import Testing
import TraceModel

@testable import LifetraceCLI

/// `ControllerName` (the resolved `--controller NAME` of `lifetrace events`) must answer exactly as comparing NAME
/// with the controller's type name and display name does.
@Suite("ControllerName")
struct ControllerNameTests {
    static let refs = [
        ControllerRef(serial: 3, typeName: "NoteEditorViewController"),
        ControllerRef(serial: 12, typeName: "NoteEditorViewController"),
        ControllerRef(serial: 0, typeName: "A#B"),
        ControllerRef(serial: 7, typeName: "PhotoPageViewController", label: "0"),
        ControllerRef(serial: 8, typeName: "Page<Int>", label: "1"),
        ControllerRef(serial: 9, typeName: "", label: "Tag"),
        ControllerRef(serial: 5, typeName: ""),
    ]

    @Test("matches a type name, a Type#serial display name, a Type<label> display name and a bare label", arguments: [
        "NoteEditorViewController", "NoteEditorViewController#3", "NoteEditorViewController#12",
        "NoteEditorViewController#03", "NoteEditorViewController#", "NoteEditorViewController#4294967299",
        "NoteEditorViewController#+3", "A#B", "A#B#0", "A#B#00", "A", "PhotoPageViewController<0>",
        "PhotoPageViewController#7", "PhotoPageViewController", "Page<Int><1>", "Page<Int>", "Tag", "<Tag>", "#9",
        "#5", "", "NoteEditorViewController#3 ", "e\u{301}#1",
    ])
    func sameAsDisplayName(name: String) {
        let resolved = ControllerName(name)
        for ref in Self.refs {
            #expect(resolved.matches(ref) == (name == ref.displayName || name == ref.typeName), "\(name) vs \(ref)")
        }
    }

    @Test("a Type#serial name matches that instance only; canonically equal spellings match as with ==")
    func serials() {
        let name = ControllerName("NoteEditorViewController#3")
        #expect(name.matches(ControllerRef(serial: 3, typeName: "NoteEditorViewController")))
        #expect(!name.matches(ControllerRef(serial: 30, typeName: "NoteEditorViewController")))
        #expect(!name.matches(ControllerRef(serial: 3, typeName: "NoteEditorViewControlle")))
        #expect(ControllerName("\u{e9}#1").matches(ControllerRef(serial: 1, typeName: "e\u{301}")))
    }
}
