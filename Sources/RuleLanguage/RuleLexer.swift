/// Splits the statement lines of a rule into tokens. Line breaks are spaces here: a statement may go on over
/// several lines. `#` outside a string starts a comment that runs to the end of the line.
enum RuleLexer {
    /// The tokens of `lines` (each with its 1-based line number), ended by an `.end` token at `endLocation`.
    static func tokens(_ lines: [(number: Int, text: String)], file: String, endLocation: SourceLocation) throws(RuleFileError) -> [Token] {
        var tokens: [Token] = []
        for (number, text) in lines {
            let characters = Array(text)
            var index = 0
            func here() -> SourceLocation { SourceLocation(file: file, line: number, column: index + 1) }
            while index < characters.count {
                let character = characters[index]
                if character == " " || character == "\t" || character == "\r" {
                    index += 1
                } else if character == "#" {
                    break
                } else if character == "\"" {
                    let start = here()
                    index += 1
                    var text = ""
                    var closed = false
                    while index < characters.count {
                        let next = characters[index]
                        index += 1
                        if next == "\"" {
                            closed = true
                            break
                        }
                        if next == "\\", index < characters.count {
                            let escaped = characters[index]
                            index += 1
                            switch escaped {
                            case "n": text.append("\n")
                            case "t": text.append("\t")
                            default: text.append(escaped)
                            }
                        } else {
                            text.append(next)
                        }
                    }
                    guard closed else { throw RuleFileError(start, "unterminated string: expected a closing '\"' on the same line") }
                    tokens.append(Token(kind: .string(text), location: start))
                } else if character == "$" {
                    let start = here()
                    index += 1
                    let name = take(&index, characters, while: isWordCharacter)
                    guard !name.isEmpty, name.first?.isNumber == false else {
                        throw RuleFileError(start, "expected a variable name after '$' (for example $key)")
                    }
                    tokens.append(Token(kind: .variable(name), location: start))
                } else if character.isNumber || (character == "-" && index + 1 < characters.count && characters[index + 1].isNumber) {
                    let start = here()
                    var digits = String(character)
                    index += 1
                    digits += take(&index, characters) { $0.isNumber || $0 == "." }
                    let unit = take(&index, characters) { $0.isLetter || $0 == "µ" }
                    guard let value = Double(digits), value.isFinite else { throw RuleFileError(start, "'\(digits)' is not a number") }
                    if unit.isEmpty {
                        tokens.append(Token(kind: .number(value), location: start))
                    } else {
                        guard let scale = durationUnits[unit] else {
                            throw RuleFileError(start, "unknown unit '\(unit)' in '\(digits)\(unit)': expected ns, us, ms, s or min")
                        }
                        let nanoseconds = value * scale
                        guard nanoseconds >= 0, nanoseconds < 1.8e19 else { throw RuleFileError(start, "duration '\(digits)\(unit)' is out of range") }
                        tokens.append(Token(kind: .duration(UInt64(nanoseconds.rounded())), location: start))
                    }
                } else if isWordStart(character) {
                    let start = here()
                    let word = take(&index, characters, while: isWordCharacter)
                    tokens.append(Token(kind: .word(word), location: start))
                } else {
                    let start = here()
                    let pair = index + 1 < characters.count ? String([character, characters[index + 1]]) : ""
                    if ["<=", ">=", "!=", "=="].contains(pair) {
                        tokens.append(Token(kind: .symbol(pair == "==" ? "=" : pair), location: start))
                        index += 2
                    } else if "(),:=<>".contains(character) {
                        tokens.append(Token(kind: .symbol(String(character)), location: start))
                        index += 1
                    } else {
                        throw RuleFileError(start, "unexpected character '\(character)'")
                    }
                }
            }
        }
        tokens.append(Token(kind: .end, location: endLocation))
        return tokens
    }

    /// Nanoseconds per unit.
    static let durationUnits: [String: Double] = ["ns": 1, "us": 1e3, "µs": 1e3, "ms": 1e6, "s": 1e9, "min": 60e9]

    static func isWordStart(_ character: Character) -> Bool {
        character.isLetter || character == "_" || character == "*"
    }

    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_" || character == "." || character == "*"
    }

    private static func take(_ index: inout Int, _ characters: [Character], while test: (Character) -> Bool) -> String {
        var out = ""
        while index < characters.count, test(characters[index]) {
            out.append(characters[index])
            index += 1
        }
        return out
    }
}
