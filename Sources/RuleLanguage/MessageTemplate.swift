import TraceModel

/// A finding's message with placeholders, such as `{controller} saved '{key}' in {callback} at {time}`.
///
/// Placeholders: `{controller}` (display name), `{type}` (its type), `{time}` (seconds since the trace's first
/// event), `{callback}` (the callback the event happened in), `{count}` (occurrences reported together, with
/// `once`), `{duration}` (a callback end's duration), `{within}` (the response's time limit), `{rule}` (the id),
/// `{$NAME}` or `{NAME}` (a variable's value), `{field.NAME}` (a field of the mark).
struct MessageTemplate: Sendable {
    enum Piece: Sendable {
        case text(String)
        case controller, type, time, callback, count, duration, within, rule
        case variable(Int)
        case field(String)
    }

    static let names = ["controller", "type", "time", "callback", "count", "duration", "within", "rule"]

    var pieces: [Piece]

    /// Parses `text`, whose first character is at `location`; placeholders are checked against `variables`.
    init(_ text: String, location: SourceLocation, variables: [String]) throws(RuleFileError) {
        pieces = []
        var literal = ""
        var characters = Array(text)[...]
        var column = location.column + 1
        while let character = characters.popFirst() {
            column += 1
            guard character == "{" else {
                literal.append(character)
                continue
            }
            let name = String(characters.prefix { $0 != "}" })
            guard characters.count > name.count else {
                throw RuleFileError(SourceLocation(file: location.file, line: location.line, column: column - 1), "unclosed '{' in the message: expected '}'")
            }
            characters = characters.dropFirst(name.count + 1)
            if !literal.isEmpty { pieces.append(.text(literal)) }
            literal = ""
            let bare = name.hasPrefix("$") ? String(name.dropFirst()) : name
            switch bare {
            case "controller": pieces.append(.controller)
            case "type": pieces.append(.type)
            case "time": pieces.append(.time)
            case "callback": pieces.append(.callback)
            case "count": pieces.append(.count)
            case "duration": pieces.append(.duration)
            case "within": pieces.append(.within)
            case "rule": pieces.append(.rule)
            default:
                if let slot = variables.firstIndex(of: bare) {
                    pieces.append(.variable(slot))
                } else if bare.hasPrefix("field."), bare.count > 6 {
                    pieces.append(.field(String(bare.dropFirst(6))))
                } else {
                    let known = Self.names + variables.map { "$" + $0 } + ["field.NAME"]
                    throw RuleFileError(
                        SourceLocation(file: location.file, line: location.line, column: column - 1),
                        "unknown placeholder '{\(name)}'\(Vocabulary.suggestion(name, among: known)): expected one of \(known.map { "{\($0)}" }.joined(separator: ", "))")
                }
            }
            column += name.count + 1
        }
        if !literal.isEmpty { pieces.append(.text(literal)) }
    }

    /// The values a finding fills in.
    struct Values {
        var controller: String
        var type: String
        var time: String
        var callback: String?
        var count: Int
        var duration: UInt64?
        var within: UInt64?
        var rule: String
        var values: [String?]
        var fields: [MarkField]
    }

    func render(_ values: Values) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .text(let text): out += text
            case .controller: out += values.controller
            case .type: out += values.type
            case .time: out += values.time
            case .callback: out += values.callback ?? "no callback"
            case .count: out += String(values.count)
            case .duration: out += values.duration.map(TimeText.duration) ?? "?"
            case .within: out += values.within.map(TimeText.duration) ?? "?"
            case .rule: out += values.rule
            case .variable(let slot): out += values.values[slot] ?? "?"
            case .field(let name): out += values.fields.first { $0.name == name }?.value.description ?? "?"
            }
        }
        return out
    }
}
