/// One token of a rule's text (`RuleLexer`).
struct Token: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// A name or keyword: `never`, `viewDidLoad`, `geometry.read`, `*ViewController`.
        case word(String)
        /// `$key`: a variable bound by a mark field (its name without the `$`).
        case variable(String)
        /// `"text"`, with `\"`, `\\` and `\n` escapes undone.
        case string(String)
        /// A number without a unit: `3`, `0.5`.
        case number(Double)
        /// A duration on the trace clock, in nanoseconds: `5s`, `250ms`, `100us`, `10ns`, `2min`.
        case duration(UInt64)
        /// `(`, `)`, `,`, `:`, `=`, `<`, `<=`, `>`, `>=`, `!=`.
        case symbol(String)
        case end
    }

    var kind: Kind
    var location: SourceLocation

    /// How an error message names the token: `'viewDidLoad'`, `"text"`, `end of rule`.
    var quoted: String {
        switch kind {
        case .word(let word): "'\(word)'"
        case .variable(let name): "'$\(name)'"
        case .string(let text): "\"\(text)\""
        case .number(let value): "'\(NumberText.text(value))'"
        case .duration(let nanoseconds): "'\(NumberText.text(Double(nanoseconds) / 1e6))ms'"
        case .symbol(let symbol): "'\(symbol)'"
        case .end: "the end of the rule"
        }
    }

    var word: String? {
        if case .word(let word) = kind { return word }
        return nil
    }
}

/// Numbers as rule text writes them: `3`, not `3.0`.
enum NumberText {
    static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
