import Foundation
import Testing

@testable import LifetraceCLI

/// Names in a trace are data from outside (a JSON Lines file, a console log, an app's own strings): a type
/// name, label, mark name or field value, scene or SwiftUI view name may hold a newline, a carriage return or an
/// escape sequence. Before, they were printed raw: a controller named `"Note\r\nEditor::error file=x::…"` split
/// one `events` line in two, forged a finding line in the text audit report (`FILE:LINE: error: …`) and sent
/// terminal escape sequences to the user's terminal. Text outputs now show such characters escaped (`\n`,
/// `\u{1B}`), so every event, finding and tree node stays on its own line.
@Suite("control characters in a trace's names never reach text output raw")
struct ControlCharacterOutputTests {
    static let hostile = #"Note\r\nEditor\u001b[31m\u0007\u0085\u2028X"#

    /// The sample scenario's export with the editor's type name, a mark field and the scene name made hostile.
    final class Input {
        let scratch: CLIScratch
        let jsonl: String

        init() throws {
            scratch = try CLIScratch("control-characters")
            let trace = scratch.path("swipe.lifetrace")
            let clean = scratch.path("clean.jsonl")
            jsonl = scratch.path("hostile.jsonl")
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let scenario = root.appendingPathComponent("traces/scenarios/cancelled-swipe-back-save.scenario").path
            try #require(runCLI(["simulate", scenario, "-o", trace]).code == .success)
            try #require(runCLI(["export", trace, "-o", clean]).code == .success)
            var text = try String(contentsOfFile: clean, encoding: .utf8)
            text = text.replacingOccurrences(of: "NoteEditorViewController", with: ControlCharacterOutputTests.hostile)
            text = text.replacingOccurrences(of: #""key":"draft""#, with: #""key":"dr\naft\u001b]0;x\u0007""#)
            text = text.replacingOccurrences(of: #""scene":"main""#, with: #""scene":"ma\r\nin""#)
            text = text.replacingOccurrences(of: #""producer":"lifetrace simulate""#, with: #""producer":"evil\u001b[2J""#)
            try text.write(toFile: jsonl, atomically: true, encoding: .utf8)
        }
    }

    /// Every character of `text` that is a control character other than the line feed ending each line.
    static func rawControls(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { $0 != "\n" && ($0.properties.generalCategory == .control || $0 == "\u{2028}" || $0 == "\u{2029}") }
    }

    static let commands: [[String]] = [
        ["events"], ["state", "--at", "6s"], ["state"], ["timeline"], ["timeline", "--spans"], ["audit"], ["info"], ["verify"],
    ]

    @Test("text outputs hold no raw control character", arguments: commands)
    func noRawControls(command: [String]) throws {
        let input = try Input()
        let result = runCLI([command[0], input.jsonl] + command.dropFirst())
        #expect(result.code != .usageOrInput, "\(result.err)")
        #expect(Self.rawControls(result.out).isEmpty, "\(command): \(Self.rawControls(result.out))")
        #expect(Self.rawControls(result.err).isEmpty, "\(command): \(Self.rawControls(result.err))")
    }

    @Test("events prints one line per event, the names escaped")
    func oneLinePerEvent() throws {
        let input = try Input()
        let result = runCLI(["events", input.jsonl])
        #expect(result.code == .success)
        let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 107)
        #expect(result.out.contains(#"Note\r\nEditor\u{1B}[31m\u{07}\u{85}\u{2028}X#3 viewWillDisappear begin"#))
        #expect(result.out.contains(#"key=dr\naft\u{1B}]0;x\u{07}"#))
    }

    @Test("the text audit report has one headline per finding; the export keeps the names as they are")
    func auditLines() throws {
        let input = try Input()
        let text = runCLI(["audit", input.jsonl])
        let headlines = text.out.split(separator: "\n").filter { $0.hasPrefix(input.jsonl) && !$0.contains(": note: nothing to check for ") }
        #expect(headlines.count == 2)
        let exported = runCLI(["export", input.jsonl])
        #expect(exported.out.contains(#""type":"Note\r\nEditor\u001b[31m\u0007"#))
    }
}

/// A file name is data from outside too: errors and warnings quote the path the user gave, and a newline or an
/// escape sequence in it split the one-line error (`lifetrace state: error: bad` / `name.lifetrace: offset 0: …`)
/// or reached the terminal. Standard error now escapes them, as text output does for names in a trace.
@Suite("control characters in a file name never split an error line")
struct ControlCharacterPathTests {
    @Test("an error or warning naming a path with a newline, a carriage return or ESC is one line", arguments: [
        ["state"], ["events"], ["info"], ["verify"], ["export"], ["timeline"], ["audit"], ["state", "--at", "1s"],
    ])
    func oneLine(command: [String]) throws {
        let scratch = try CLIScratch("control-path")
        let path = scratch.path("bad\nname\r\u{1B}[31m.lifetrace")
        try Data("not a trace".utf8).write(to: URL(fileURLWithPath: path))
        let result = runCLI([command[0], path] + command.dropFirst())
        #expect(result.code == .usageOrInput)
        let lines = result.err.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "\(result.err)")
        #expect(result.err.contains(#"bad\nname\r\u{1B}[31m.lifetrace"#), "\(result.err)")
        #expect(!result.err.unicodeScalars.contains { $0 == "\r" || $0 == "\u{1B}" }, "\(result.err)")
    }
}

/// Invisible format characters (Unicode category Cf) in a trace's names: a right-to-left override (U+202E), the
/// isolates (U+2066–U+2069), marks (U+200E/U+200F) and zero-width characters. Before, text outputs printed them
/// raw, so a CI log could show a controller's name or a mark key in another order than its bytes ("Trojan
/// Source"). Text outputs now show them as `\u{202E}`; machine outputs keep them exactly.
@Suite("invisible format characters: escaped in text outputs, exact in machine outputs")
struct FormatCharacterOutputTests {
    static let type = "NoteEditor\u{202E}ViewController\u{2066}x\u{2069}"

    final class Input {
        let scratch: CLIScratch
        let jsonl: String
        let trace: String

        init() throws {
            scratch = try CLIScratch("format-characters")
            let clean = scratch.path("swipe.lifetrace")
            let exported = scratch.path("clean.jsonl")
            jsonl = scratch.path("bidi.jsonl")
            trace = scratch.path("bidi\u{202E}.lifetrace")
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let scenario = root.appendingPathComponent("traces/scenarios/cancelled-swipe-back-save.scenario").path
            try #require(runCLI(["simulate", scenario, "-o", clean]).code == .success)
            try #require(runCLI(["export", clean, "-o", exported]).code == .success)
            var text = try String(contentsOfFile: exported, encoding: .utf8)
            text = text.replacingOccurrences(of: "NoteEditorViewController", with: FormatCharacterOutputTests.type)
            text = text.replacingOccurrences(of: #""key":"draft""#, with: "\"key\":\"dr\u{200B}aft\u{200F}\"")
            try text.write(toFile: jsonl, atomically: true, encoding: .utf8)
            try #require(runCLI(["import", jsonl, "-o", trace]).code == .success)
        }
    }

    /// Control characters other than the line feed, and format characters, left raw.
    static func raw(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { $0 != "\n" && ($0.properties.generalCategory == .control || $0.properties.generalCategory == .format) }
    }

    static let textCommands: [[String]] = [
        ["events"], ["events", "--visible", "UINavigationController#2"],
        ["state", "--at", "6s"], ["state"], ["timeline"], ["timeline", "--spans"], ["audit"], ["audit", "--format", "github"],
        ["info"], ["verify"],
    ]

    @Test("text outputs and standard error show no raw format character", arguments: textCommands)
    func textEscaped(command: [String]) throws {
        let input = try Input()
        for path in [input.jsonl, input.trace] {
            let result = runCLI([command[0], path] + command.dropFirst())
            #expect(result.code != .usageOrInput, "\(result.err)")
            // GitHub's `file=` property is the path exactly (GitHub places the annotation by it): only the
            // messages, after the last `::`, are text for people.
            let shown = command.last == "github"
                ? result.out.split(separator: "\n").map { $0.components(separatedBy: "::").last ?? "" }.joined(separator: "\n") : result.out
            #expect(Self.raw(shown).isEmpty, "\(command): \(Self.raw(shown))")
            #expect(Self.raw(result.err).isEmpty, "\(command): \(Self.raw(result.err))")
        }
    }

    @Test("the names are shown escaped where they were")
    func shown() throws {
        let input = try Input()
        let events = runCLI(["events", input.jsonl])
        #expect(events.out.contains(#"NoteEditor\u{202E}ViewController\u{2066}x\u{2069}#3 viewWillDisappear begin"#))
        #expect(events.out.contains(#"key=dr\u{200B}aft\u{200F}"#))
        let state = runCLI(["state", input.trace, "--at", "9s"])
        #expect(state.out.contains(#"NoteEditor\u{202E}ViewController\u{2066}x\u{2069}#3  appeared  unsaved: dr\u{200B}aft\u{200F}"#), "\(state.out)")
        let info = runCLI(["info", input.trace])
        #expect(info.out.contains(#"bidi\u{202E}.lifetrace"#))
    }

    @Test("events --controller takes a name as the text outputs show it, escaped")
    func controllerByShownName() throws {
        let input = try Input()
        let shown = #"NoteEditor\u{202E}ViewController\u{2066}x\u{2069}#3"#
        let result = runCLI(["events", input.trace, "--controller", shown])
        #expect(result.code == .success, "\(result.err)")
        #expect(result.out.contains(shown + " viewWillDisappear begin"))
        let exact = runCLI(["events", input.trace, "--controller", Self.type + "#3"])
        #expect(exact.out == result.out)
        let typeOnly = runCLI(["events", input.trace, "--controller", #"NoteEditor\u{202E}ViewController\u{2066}x\u{2069}"#])
        #expect(typeOnly.out == result.out)
    }

    @Test("machine outputs keep the names exactly", arguments: [
        ["export"], ["events", "--format", "jsonl"], ["state", "--format", "json"], ["audit", "--format", "json"],
        ["audit", "--format", "sarif"], ["info", "--format", "json"],
    ])
    func machineExact(command: [String]) throws {
        let input = try Input()
        let result = runCLI([command[0], input.trace] + command.dropFirst())
        #expect(result.code != .usageOrInput, "\(result.err)")
        #expect(result.out.contains("\u{202E}"), "\(command)")
        if command[0] != "info" { #expect(result.out.contains(Self.type), "\(command)") }
    }
}
