import TraceModel

/// Mark fields in the scenario language: the standard marks (docs/JSONL.md, `MarkName`) take exactly their fields,
/// with typed values; any other mark name is a custom mark whose fields are free-form. Also the helpers that
/// place an error on its column and suggest the nearest known word.
extension ScenarioParser {
    /// The type a standard mark's field value must have.
    enum FieldType: Sendable {
        /// Any text (`key=draft`, `key="two words"`); stored as a string even when it looks like a number.
        case string
        /// `true` or `false`.
        case bool
        /// An integer or a decimal (`390`, `844.5`); stored as a double.
        case number
        /// A duration (`45ms`, `1.5s`); stored as written.
        case duration

        var name: String {
            switch self {
            case .string: "text"
            case .bool: "true or false"
            case .number: "a number"
            case .duration: "a duration such as 45ms or 1.5s"
            }
        }
    }

    /// A field of a standard mark.
    struct FieldSpec: Sendable {
        var name: String
        var type: FieldType
        var isRequired: Bool
    }

    /// The fields of every standard mark, in the order they are recorded.
    static let markFields: [String: [FieldSpec]] = {
        func text(_ name: String, required: Bool = true) -> FieldSpec { FieldSpec(name: name, type: .string, isRequired: required) }
        return [
            MarkName.save: [text("key"), FieldSpec(name: "critical", type: .bool, isRequired: false)],
            MarkName.edit: [text("key")],
            MarkName.timerStart: [text("id")], MarkName.timerStop: [text("id")],
            MarkName.observerAdd: [text("name")], MarkName.observerRemove: [text("name")],
            MarkName.taskStart: [text("id")], MarkName.taskCancel: [text("id")],
            MarkName.requestStart: [text("id")], MarkName.requestCancel: [text("id")],
            MarkName.geometryRead: [FieldSpec(name: "width", type: .number, isRequired: false), FieldSpec(name: "height", type: .number, isRequired: false)],
            MarkName.animationStart: [text("name", required: false)],
            MarkName.analyticsScreen: [text("name")],
            MarkName.teardown: [text("what")],
            MarkName.work: [text("label"), FieldSpec(name: "duration", type: .duration, isRequired: true)],
        ]
    }()

    /// The `FIELD=VALUE` words after mark `mark`, checked and typed.
    ///
    /// - Standard marks: every field must be one of the mark's (no repeats), required ones present, values of the
    ///   field's type (`critical=maybe` is an error). `geometry.read` takes both `width` and `height` or neither.
    /// - Custom marks: any fields; `true`/`false` are booleans, whole numbers integers, other numbers doubles,
    ///   anything else (and anything quoted) a string. A custom name that is a near miss of a standard one and
    ///   carries one of its fields (`svae key=draft`) is taken for a typo and refused.
    ///
    /// - Throws: `ScenarioError` `.syntax` about the offending word (its column is found by the parser).
    ///
    /// Also checks the importer's `--mark` rules (`lifetrace import`), so a mark means the same in both.
    package static func checkedFields(_ words: ArraySlice<String>, mark: String, line: Int) throws -> [MarkField] {
        var raw: [(name: String, value: String, quoted: Bool, word: String)] = []
        for word in words {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                throw ScenarioError(.syntax, "expected FIELD=VALUE after '\(mark)', found '\(word)'", near: word, line: line)
            }
            var value = String(word[word.index(after: equals)...])
            let quoted = value.hasPrefix("\"")
            if quoted { value = String(value.dropFirst().dropLast()) }
            raw.append((String(word[..<equals]), value, quoted, word))
        }
        guard let specs = markFields[mark] else {
            try refuseNearMiss(mark, fieldNames: raw.map(\.name), line: line)
            return raw.map { MarkField($0.name, $0.quoted ? .string($0.value) : FieldValue(parsing: $0.value)) }
        }
        var fields: [MarkField] = []
        var seen: Set<String> = []
        for field in raw {
            guard let spec = specs.first(where: { $0.name == field.name }) else {
                let known = specs.isEmpty ? "it takes no fields" : "its fields are " + specs.map(\.name).joined(separator: ", ")
                throw ScenarioError(
                    .syntax,
                    "mark '\(mark)' has no field '\(field.name)'\(suggestion(for: field.name, among: specs.map(\.name))); \(known) (a custom mark, with any other name, takes any fields)",
                    near: field.word, line: line)
            }
            guard seen.insert(field.name).inserted else {
                throw ScenarioError(.syntax, "mark '\(mark)' gives '\(field.name)' twice", near: field.word, line: line)
            }
            let offset = field.name.count + 1
            func bad() -> ScenarioError {
                ScenarioError(
                    .syntax, "'\(field.name)' of mark '\(mark)' must be \(spec.type.name); found '\(field.value)'",
                    near: field.word, offset: offset, line: line)
            }
            switch spec.type {
            case .string:
                fields.append(MarkField(field.name, .string(field.value)))
            case .duration:
                if !field.quoted, TimeText.isOutOfRange(field.value) {
                    throw ScenarioError(
                        .syntax, "'\(field.name)' of mark '\(mark)' is too large: durations are nanoseconds in 64 bits, at most 18446744073.7s (about 584 years); found '\(field.value)'",
                        near: field.word, offset: offset, line: line)
                }
                guard !field.quoted, TimeText.parseDuration(field.value) != nil else { throw bad() }
                fields.append(MarkField(field.name, .string(field.value)))
            case .bool:
                guard !field.quoted, field.value == "true" || field.value == "false" else { throw bad() }
                fields.append(MarkField(field.name, .bool(field.value == "true")))
            case .number:
                guard !field.quoted, let number = Double(field.value), number.isFinite else { throw bad() }
                fields.append(MarkField(field.name, .double(number)))
            }
        }
        for spec in specs where spec.isRequired && !seen.contains(spec.name) {
            throw ScenarioError(.syntax, "mark '\(mark)' needs \(spec.name)=VALUE", near: mark, line: line)
        }
        if mark == MarkName.geometryRead, seen.count == 1 {
            throw ScenarioError(.syntax, "mark '\(mark)' takes both width= and height=, or neither (the view's current bounds)", near: mark, line: line)
        }
        // Recorded in the vocabulary's order, whatever the order written.
        return specs.compactMap { spec in fields.first { $0.name == spec.name } }
    }

    /// Refuses a custom mark name that is a near miss of a standard one and carries one of that mark's fields.
    private static func refuseNearMiss(_ mark: String, fieldNames: [String], line: Int) throws {
        for standard in MarkName.standard {
            let close = mark.lowercased() == standard.lowercased() || (mark.count >= 4 && distance(mark, standard) <= 2)
            guard close, let specs = markFields[standard], fieldNames.contains(where: { name in specs.contains { $0.name == name } }) else {
                continue
            }
            throw ScenarioError(
                .syntax,
                "unknown mark '\(mark)' (did you mean '\(standard)'?); a custom mark must not look like a standard one (\(MarkName.standard.joined(separator: ", ")))",
                near: mark, line: line)
        }
    }

    /// Every step command, for suggestions.
    static let commandNames = [
        "launch", "root", "create", "release", "push", "pop", "pop-to-root", "set-stack", "begin-swipe-back",
        "finish-swipe-back", "cancel-swipe-back", "present", "dismiss", "swipe-down", "select-tab", "scroll",
        "begin-scroll", "finish-scroll", "cancel-scroll", "add-child", "remove-child", "add-view", "background",
        "foreground", "resign-active", "become-active", "terminate", "memory-warning", "rotate", "layout",
    ]

    /// ` (did you mean 'X'?)` for the known word nearest to `word` (at most 2 edits, or equal ignoring case), else
    /// empty. (The command line's `ArgumentParsing.Spelling` applies the same measure to commands and options.)
    package static func suggestion(for word: String, among known: [String]) -> String {
        let scored = known.map { ($0, $0.lowercased() == word.lowercased() ? 0 : distance(word, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2, best.0 != word else { return "" }
        return " (did you mean '\(best.0)'?)"
    }

    /// The edit distance (insertions, deletions, substitutions) between two words.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// The 1-based column of `near` in `line` (its first occurrence as a whole word, else its first occurrence)
    /// plus `offset`; the line's first non-blank column when `near` is `nil` or absent.
    static func column(of near: String?, offset: Int, in line: String) -> Int {
        let characters = Array(line)
        if let near, !near.isEmpty {
            let target = Array(near)
            let isBoundary: (Character) -> Bool = { $0.isWhitespace || ";:(),".contains($0) }
            var first: Int?
            var index = 0
            while index + target.count <= characters.count {
                if Array(characters[index..<(index + target.count)]) == target {
                    let end = index + target.count
                    if (index == 0 || isBoundary(characters[index - 1])) && (end == characters.count || isBoundary(characters[end])) {
                        return index + 1 + offset
                    }
                    if first == nil { first = index }
                }
                index += 1
            }
            if let first { return first + 1 + offset }
        }
        return (characters.firstIndex { !$0.isWhitespace } ?? 0) + 1
    }
}
