import Testing
import TraceModel

/// `String.controlCharactersEscaped` scans the UTF-8 bytes for a possible escape before looking at scalars, and
/// `ControllerRef.displayName` appends rather than interpolates: both must give what a scalar-by-scalar
/// reference gives, for small (inline) and large (heap) strings alike.
@Suite("Control characters: byte scan and display names")
struct ControlCharacterEscapingTests {
    /// The escaping written out scalar by scalar, the specification the fast path must agree with.
    static func reference(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0..<0x20, 0x7F...0x9F, 0x2028, 0x2029:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static let samples: [String] = [
        "", "A", "UINavigationController", "NoteEditorViewController_with_a_long_name_on_the_heap",
        "Tab\tBar", "Line\nBreak", "Esc\u{1B}[31m", "Del\u{7F}", "C1\u{85}control", "Sep\u{2028}ara\u{2029}tor",
        "café", "naïve–dash €", "日本語のコントローラ", "emoji 🧪 name", "\u{00A0}nbsp", "\u{2027}\u{202A}near",
        String(repeating: "x", count: 15), String(repeating: "x", count: 16) + "\n",
        String(repeating: "é", count: 40) + "\u{9F}",
    ]

    @Test("agrees with the scalar-by-scalar reference", arguments: samples)
    func agreesWithReference(text: String) {
        #expect(text.controlCharactersEscaped == Self.reference(text))
    }

    @Test("a name with nothing to escape is returned unchanged", arguments: ["UIViewController", "café", "日本語", ""])
    func unchanged(text: String) {
        #expect(text.controlCharactersEscaped == text)
    }

    @Test("displayName: Type#serial, Type<label>, a bare label; control characters written out")
    func displayNames() {
        #expect(ControllerRef(serial: 7, typeName: "NoteEditorViewController").displayName == "NoteEditorViewController#7")
        #expect(ControllerRef(serial: 0, typeName: "A").displayName == "A#0")
        #expect(ControllerRef(serial: UInt32.max, typeName: "B").displayName == "B#4294967295")
        #expect(ControllerRef(serial: 3, typeName: "Bad\nName").displayName == "Bad\\nName#3")
        #expect(ControllerRef(serial: 3, typeName: "Page", label: "0").displayName == "Page<0>")
        #expect(ControllerRef(serial: 3, typeName: "", label: "tag\u{1B}").displayName == "tag\\u{1B}")
        for text in Self.samples {
            #expect(ControllerRef(serial: 42, typeName: text).displayName == Self.reference(text) + "#42")
        }
    }
}

/// `String.displayEscaped` adds the invisible format characters (Unicode category Cf: bidirectional overrides and
/// isolates, zero-width characters, tags) to what `controlCharactersEscaped` writes out, for text a person reads;
/// before, a right-to-left override in a controller's name reached the terminal and CI logs raw ("Trojan Source").
@Suite("Display escaping: control and invisible format characters")
struct DisplayEscapingTests {
    @Test("bidirectional controls and zero-width characters are written as \\u{…}", arguments: [
        ("Note\u{202E}Editor", #"Note\u{202E}Editor"#),
        ("\u{2066}a\u{2067}b\u{2068}c\u{2069}", #"\u{2066}a\u{2067}b\u{2068}c\u{2069}"#),
        ("l\u{200E}r\u{200F}a\u{061C}", #"l\u{200E}r\u{200F}a\u{61C}"#),
        ("\u{202A}\u{202B}\u{202C}\u{202D}", #"\u{202A}\u{202B}\u{202C}\u{202D}"#),
        ("zw\u{200B}sp\u{2060}j\u{FEFF}", #"zw\u{200B}sp\u{2060}j\u{FEFF}"#),
        ("soft\u{00AD}hyphen", #"soft\u{AD}hyphen"#),
        ("tag\u{E0041}", #"tag\u{E0041}"#),
        ("Bad\nName\u{1B}", #"Bad\nName\u{1B}"#),
    ])
    func escaped(text: String, shown: String) {
        #expect(text.displayEscaped == shown)
    }

    @Test("ordinary text, accents, other scripts and emoji are kept", arguments: [
        "UINavigationController", "café", "日本語のコントローラ", "emoji 🧪 name", "naïve–dash €", "→ └─ ├─", "",
    ])
    func kept(text: String) {
        #expect(text.displayEscaped == text)
        #expect(text.displayEscapedKeepingLineFeeds == text)
    }

    /// Before, the zero-width joiners of emoji ZWJ sequences and the tags of flag emoji were written out, so a mark
    /// field `🏳️‍🌈` printed as `🏳️\u{200D}🌈` in text outputs.
    @Test("emoji ZWJ sequences and emoji tag sequences are kept", arguments: [
        "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}", "\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}",
        "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", "Flag\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}ViewController",
    ])
    func emojiSequences(text: String) {
        #expect(text.displayEscaped == text)
        #expect(text.displayEscapedKeepingLineFeeds == text)
    }

    @Test("a zero-width joiner or tag outside an emoji sequence is still written out", arguments: [
        ("a\u{200D}b", "a\\u{200D}b"), ("\u{1F468}\u{200D}", "\u{1F468}\\u{200D}"), ("\u{200D}\u{1F468}", "\\u{200D}\u{1F468}"),
        ("1\u{200D}2", "1\\u{200D}2"), ("x\u{E0067}\u{E007F}", "x\\u{E0067}\\u{E007F}"),
        ("\u{1F468}\u{200D}\u{202E}\u{1F469}", "\u{1F468}\\u{200D}\\u{202E}\u{1F469}"),
    ])
    func joinerOutsideEmoji(text: String, shown: String) {
        #expect(text.displayEscaped == shown)
    }

    @Test("keeping line feeds: lines stay lines, everything else is escaped")
    func keepingLineFeeds() {
        #expect("a\u{202E}b\nc\td\r\n".displayEscapedKeepingLineFeeds == #"a\u{202E}b"# + "\n" + #"c\td\r"# + "\n")
        #expect("one\ntwo\n".displayEscapedKeepingLineFeeds == "one\ntwo\n")
    }

    /// The 8-bytes-at-a-time scan must find a byte to escape (or a non-ASCII lead byte) at every position of
    /// short (inline) and long (heap) strings, in a word or in the tail, and must not stop on plain ASCII.
    @Test("every byte value at every position: the same as escaping scalar by scalar")
    func wordScan() {
        for length in [1, 7, 8, 9, 15, 16, 17, 24, 31] {
            for position in 0..<length {
                for value in [0x00, 0x09, 0x0A, 0x1F, 0x20, 0x41, 0x5C, 0x7E, 0x7F] as [UInt32] {
                    var scalars = Array(repeating: Unicode.Scalar(UInt8(ascii: "a")), count: length)
                    scalars[position] = Unicode.Scalar(value)!
                    var text = ""
                    text.unicodeScalars.append(contentsOf: scalars)
                    #expect(text.displayEscaped == ControlCharacterEscapingTests.reference(text), "\(length) \(position) \(value)")
                }
                for scalar in ["\u{202E}", "é", "\u{85}", "日"] as [Unicode.Scalar] {
                    let before = String(repeating: "a", count: position)
                    let after = String(repeating: "a", count: length - 1 - position)
                    let shown = scalar == "\u{202E}" || scalar == "\u{85}"
                        ? "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}" : String(scalar)
                    #expect((before + String(scalar) + after).displayEscaped == before + shown + after, "\(length) \(position) \(scalar)")
                }
            }
        }
    }

    @Test("controlCharactersEscaped (display names, machine outputs) still keeps format characters exactly")
    func controlOnly() {
        #expect("Note\u{202E}Editor\n".controlCharactersEscaped == "Note\u{202E}Editor\\n")
        #expect(ControllerRef(serial: 2, typeName: "A\u{202E}B").displayName == "A\u{202E}B#2")
    }
}
