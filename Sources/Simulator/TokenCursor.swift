/// Tokens of a step line: words (letters, digits, `_ . - < >`) and the punctuation `: ( ) ,`.
struct TokenCursor {
    private var tokens: [String]
    private var position = 0

    init(_ text: String) throws {
        var tokens: [String] = []
        var current = ""
        for character in text {
            if character.isWhitespace || ":(),".contains(character) {
                if !current.isEmpty { tokens.append(current) }
                current = ""
                if !character.isWhitespace { tokens.append(String(character)) }
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { tokens.append(current) }
        self.tokens = tokens
    }

    func peek(_ offset: Int = 0) -> String? {
        tokens.indices.contains(position + offset) ? tokens[position + offset] : nil
    }

    mutating func advance() {
        position += 1
    }

    private func found() -> String {
        peek().map { "'\($0)'" } ?? "the end of the line"
    }

    mutating func expect(_ word: String) throws {
        guard peek() == word else { throw ScenarioError(.syntax, "expected '\(word)', found \(found())", near: peek()) }
        advance()
    }

    /// A name: any word that is not punctuation.
    mutating func name(_ what: String) throws -> String {
        guard let word = peek(), !":(),".contains(word) else {
            throw ScenarioError(.syntax, "expected a \(what), found \(found())", near: peek())
        }
        advance()
        return word
    }

    /// How deeply container specs may nest (a real app nests a handful).
    static let maximumNesting = 32

    /// `NAME` or `NAME: Type` or `NAME: Type(SPEC, …)`.
    mutating func spec(depth: Int = 0) throws -> ControllerSpec {
        guard depth < Self.maximumNesting else {
            throw ScenarioError(.syntax, "containers nest more than \(Self.maximumNesting) levels deep")
        }
        let name = try self.name("controller name")
        guard ScenarioParser.isIdentifier(name) else {
            throw ScenarioError(.syntax, "expected a controller name (letters, digits, _), found '\(name)'", near: name)
        }
        guard peek() == ":" else { return ControllerSpec(name: name) }
        advance()
        let type = try self.name("type name after '\(name):'")
        var children: [ControllerSpec] = []
        if peek() == "(" {
            advance()
            children.append(try spec(depth: depth + 1))
            while peek() == "," {
                advance()
                children.append(try spec(depth: depth + 1))
            }
            try expect(")")
        }
        return ControllerSpec(name: name, typeName: type, children: children)
    }

    /// An optional trailing `animated` / `unanimated` (default animated).
    mutating func animated() -> Bool {
        switch peek() {
        case "unanimated":
            advance()
            return false
        case "animated":
            advance()
            return true
        default:
            return true
        }
    }
}
