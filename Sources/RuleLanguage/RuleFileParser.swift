import Audit

/// Splits a rule file into its rules: each starts with a `rule ID` line and ends with an `end` line; inside,
/// statements come first, then the examples (`example "title" fires` / `passes`), each followed by its event
/// lines. Lines outside rules may hold only comments.
enum RuleFileParser {
    /// The rules of `text`, read from `file` (the name errors give).
    static func parse(_ text: String, file: String) throws(RuleFileError) -> [RuleSyntax] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var rules: [RuleSyntax] = []
        var index = 0
        func location(_ line: Int, _ column: Int = 1) -> SourceLocation { SourceLocation(file: file, line: line, column: column) }
        while index < lines.count {
            let line = lines[index]
            let words = Self.words(line)
            index += 1
            guard let first = words.first else { continue }
            guard first.text == "rule" else {
                throw RuleFileError(location(index, first.column), "expected 'rule ID' to start a rule, found '\(first.text)'")
            }
            guard words.count >= 2 else { throw RuleFileError(location(index, line.count + 1), "expected a rule id after 'rule' (snake_case, for example draft_saved_on_exit)") }
            let id = words[1].text
            guard Self.isRuleID(id) else {
                throw RuleFileError(location(index, words[1].column), "rule id '\(id)' is not snake_case: expected lower-case letters, digits and '_', starting with a letter")
            }
            if words.count > 2 { throw RuleFileError(location(index, words[2].column), "expected the end of the line after 'rule \(id)', found '\(words[2].text)'") }
            let ruleLocation = location(index, first.column)
            var statements: [(number: Int, text: String)] = []
            var examples: [ExampleSyntax] = []
            var ended = false
            while index < lines.count {
                let body = lines[index]
                let bodyWords = Self.words(body)
                index += 1
                guard let head = bodyWords.first else {
                    examples.indices.last.map { examples[$0].lines.append((index, "")) }
                    continue
                }
                if head.text == "end", bodyWords.count == 1 {
                    ended = true
                    break
                }
                if head.text == "rule" { throw RuleFileError(location(index, head.column), "expected 'end' to close rule '\(id)' before the next rule") }
                if head.text == "example" {
                    examples.append(try parseExampleHeader(body, at: location(index, head.column)))
                } else if examples.isEmpty {
                    statements.append((index, body))
                } else {
                    examples[examples.count - 1].lines.append((index, body))
                }
            }
            guard ended else { throw RuleFileError(location(lines.count), "expected 'end' to close rule '\(id)' (begun at line \(ruleLocation.line))") }
            let endLocation = location(index)
            let tokens = try RuleLexer.tokens(statements, file: file, endLocation: endLocation)
            var declared: [String] = []
            for (position, token) in tokens.enumerated() where token.word == "parameter" && position + 1 < tokens.count {
                if let name = tokens[position + 1].word { declared.append(name) }
            }
            var parser = RuleParser(tokens: tokens, parameters: declared)
            let sourceText = ([line] + statements.map(\.text) + ["end"]).joined(separator: "\n")
            var rule = try parser.parseRule(id: id, location: ruleLocation, sourceText: sourceText)
            rule.examples = examples
            rules.append(rule)
        }
        return rules
    }

    static func isRuleID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// The words of a line before any comment, with 1-based columns (a `#` that starts a word starts a comment).
    static func words(_ line: String) -> [(text: String, column: Int)] {
        var words: [(String, Int)] = []
        var current = ""
        var start = 0
        var inString = false
        for (offset, character) in line.enumerated() {
            if character == "\"" { inString.toggle() }
            if !inString, character == " " || character == "\t" || character == "\r" {
                if !current.isEmpty { words.append((current, start + 1)) }
                current = ""
                continue
            }
            if current.isEmpty {
                if character == "#", !inString { break }
                start = offset
            }
            current.append(character)
        }
        if !current.isEmpty { words.append((current, start + 1)) }
        return words
    }

    /// `example "title" fires [N] [as SEVERITY] [inconclusive]` or `example "title" passes`.
    static func parseExampleHeader(_ line: String, at location: SourceLocation) throws(RuleFileError) -> ExampleSyntax {
        let tokens = try RuleLexer.tokens([(location.line, line)], file: location.file, endLocation: SourceLocation(file: location.file, line: location.line, column: line.count + 1))
        var index = 1
        func fail(_ expected: String) -> RuleFileError {
            RuleFileError(tokens[index].location, "expected \(expected), found \(tokens[index].quoted)")
        }
        guard case .string(let title) = tokens[index].kind else { throw fail("the example's title as a quoted string after 'example'") }
        index += 1
        var example = ExampleSyntax(title: title, expectedFindings: 0, verdict: .violation, severity: nil, lines: [], location: location)
        switch tokens[index].word {
        case "passes":
            index += 1
        case "fires":
            index += 1
            example.expectedFindings = 1
            if case .number(let count) = tokens[index].kind {
                guard count >= 1, count == count.rounded(), count < 1e6 else { throw fail("a whole number of findings (1 or more) after 'fires'") }
                example.expectedFindings = Int(count)
                index += 1
            }
            if tokens[index].word == "as" {
                index += 1
                guard let word = tokens[index].word, let severity = Severity(rawValue: word) else { throw fail("a severity (note, warning, error) after 'as'") }
                example.severity = severity
                index += 1
            }
            if tokens[index].word == "inconclusive" {
                example.verdict = .inconclusive
                index += 1
            }
        default:
            throw fail("'fires' or 'passes' after the example's title")
        }
        guard tokens[index].kind == .end else { throw fail("the end of the example line") }
        return example
    }
}
