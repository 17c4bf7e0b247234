import ConsoleImport
import TraceModel

/// A `--mark` rule `lifetrace import` suggests for skipped lines that look like the app's own work (a save, an
/// edit, a timer, a request, an observer), so that the rules about that work have something to check.
///
/// A line is a candidate when one of its words (letters, digits and `_`) holds a verb of the mark vocabulary:
/// `saveDraft` → `--mark 'saveDraft=save,key=draft,critical=true'`, `textDidChange` →
/// `--mark 'textDidChange=edit,key=text'`. The word becomes the rule's substring, and the rest of the word,
/// lowercased, the key or id. Only a suggestion: the user knows whether the save is critical.
struct MarkSuggestion: Equatable {
    /// The rule as `--mark` takes it: `SUBSTRING=MARK,field=value…`.
    var rule: String
    /// 1-based numbers of the skipped lines it would turn into marks.
    var lines: [Int]

    /// How many suggestions the import summary lists, and how many line numbers each names.
    static let shownSuggestions = 5
    static let shownLines = 5

    /// The verbs each mark is suggested for, in the order they are tried, matched case-insensitively inside a
    /// word: the first word of a line that holds one decides the mark.
    private static let vocabulary: [(verbs: [String], mark: String, field: String, extra: String)] = [
        (["save", "persist"], MarkName.save, "key", ",critical=true"),
        (["didchange", "changed", "edit", "modified"], MarkName.edit, "key", ""),
        (["invalidatetimer", "stoptimer", "timerstop", "canceltimer"], MarkName.timerStop, "id", ""),
        (["timer"], MarkName.timerStart, "id", ""),
        (["cancelrequest", "requestcancel", "canceltask", "taskcancel"], MarkName.requestCancel, "id", ""),
        (["request", "fetch", "upload", "download"], MarkName.requestStart, "id", ""),
        (["removeobserver"], MarkName.observerRemove, "name", ""),
        (["addobserver"], MarkName.observerAdd, "name", ""),
    ]

    private static let typeSuffixes = ["controller", "delegate", "view", "cell", "coordinator"]

    /// The suggestions for `skipped` lines (text, 1-based line number), most lines first, at most
    /// `shownSuggestions` of them.
    static func suggestions(for skipped: [(line: Int, text: String)]) -> [MarkSuggestion] {
        var found: [MarkSuggestion] = []
        for (line, text) in skipped {
            guard let rule = rule(for: text) else { continue }
            if let index = found.firstIndex(where: { $0.rule == rule }) {
                found[index].lines.append(line)
            } else {
                found.append(MarkSuggestion(rule: rule, lines: [line]))
            }
        }
        let ranked = found.enumerated().sorted { ($0.element.lines.count, -$0.offset) > ($1.element.lines.count, -$1.offset) }
        return ranked.prefix(shownSuggestions).map(\.element)
    }

    /// The rule for one line's text, or `nil` when no word of it holds a verb of the vocabulary.
    static func rule(for text: String) -> String? {
        let words = text.split { !($0.isLetter || $0.isNumber || $0 == "_") }
        for word in words where word.count >= 4 && word.count <= 64 {
            let lowered = word.lowercased()
            // A type name (`NoteEditorViewController`, `SceneDelegate`) names who did it, not what was done.
            guard !typeSuffixes.contains(where: { lowered.hasSuffix($0) }) else { continue }
            for entry in vocabulary {
                guard let verb = entry.verbs.first(where: { lowered.contains($0) }) else { continue }
                let value = lowered.replacingOccurrences(of: verb, with: "").trimmingUnderscores
                return "\(word)=\(entry.mark),\(entry.field)=\(value.isEmpty ? lowered : value)\(entry.extra)"
            }
        }
        return nil
    }

    /// `  --mark 'saveDraft=save,key=draft,critical=true'   (lines 11, 23)`
    var summaryLine: String {
        let shown = lines.prefix(Self.shownLines).map(String.init).joined(separator: ", ")
        let more = lines.count > Self.shownLines ? ", …" : ""
        return "  --mark '\(rule)'   (line\(lines.count == 1 ? "" : "s") \(shown)\(more))"
    }
}

extension String {
    fileprivate var trimmingUnderscores: String {
        var text = Substring(self)
        while text.first == "_" { text = text.dropFirst() }
        while text.last == "_" { text = text.dropLast() }
        return String(text)
    }
}
