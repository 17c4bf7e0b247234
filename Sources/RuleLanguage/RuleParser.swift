import Audit
import TraceModel

/// Parses the statements of one rule (its tokens, `RuleLexer`) into a `RuleSyntax`. The grammar is in
/// docs/RULE_LANGUAGE.md; every error names the token's FILE:LINE:COLUMN and what was expected there.
struct RuleParser {
    private var tokens: [Token]
    private var index = 0
    private let parameters: [String]

    /// Words that start a statement: a term ends before one.
    static let statementWords: Set<String> = [
        "summary", "explain", "severity", "message", "fix", "per", "parameter", "once", "never", "eventually",
    ]
    /// Words that end a term (besides statement words).
    static let termEnds: Set<String> = [
        "requires", "leads", "within", "unless", "before", "after", "between", "until", "globally", "and", "or",
    ]

    init(tokens: [Token], parameters: [String]) {
        self.tokens = tokens
        self.parameters = parameters
    }

    private var current: Token { tokens[min(index, tokens.count - 1)] }
    private func peek(_ offset: Int) -> Token { tokens[min(index + offset, tokens.count - 1)] }

    private mutating func advance() -> Token {
        let token = current
        if index < tokens.count - 1 { index += 1 }
        return token
    }

    private func isWord(_ word: String, at offset: Int = 0) -> Bool { peek(offset).word == word }

    private mutating func accept(_ word: String) -> Bool {
        guard isWord(word) else { return false }
        _ = advance()
        return true
    }

    private mutating func acceptSymbol(_ symbol: String) -> Bool {
        guard current.kind == .symbol(symbol) else { return false }
        _ = advance()
        return true
    }

    private func error(_ expected: String, _ token: Token? = nil) -> RuleFileError {
        let token = token ?? current
        return RuleFileError(token.location, "expected \(expected), found \(token.quoted)")
    }

    private mutating func expect(_ word: String, _ what: String? = nil) throws(RuleFileError) {
        guard accept(word) else { throw error(what ?? "'\(word)'") }
    }

    private mutating func expectSymbol(_ symbol: String) throws(RuleFileError) {
        guard acceptSymbol(symbol) else { throw error("'\(symbol)'") }
    }

    private mutating func string(_ what: String) throws(RuleFileError) -> String {
        guard case .string(let text) = current.kind else { throw error("\(what) as a quoted string") }
        _ = advance()
        return text
    }

    /// The statements of a rule whose `rule ID` line is at `location`.
    mutating func parseRule(id: String, location: SourceLocation, sourceText: String) throws(RuleFileError) -> RuleSyntax {
        var rule: RuleSyntax?
        var summary: String?, explanation: String?, message: String?, fix: String?
        var messageLocation: SourceLocation?
        var severity: Severity = .warning
        var severityLocation: SourceLocation?
        var escalation: RuleSyntax.Escalation?
        var slicing = RuleSyntax.Slicing.controller
        var declared: [RuleSyntax.Parameter] = []
        var once: RuleSyntax.Once?
        var anywhere: Term?
        var seen: Set<String> = []
        while current.kind != .end {
            let start = current
            guard let word = start.word else { throw error("a statement (never, eventually, a term followed by 'requires earlier' or 'leads to', severity, message, fix, per, once, unless anywhere, parameter, summary, explain)") }
            func single(_ name: String) throws(RuleFileError) {
                guard seen.insert(name).inserted else { throw RuleFileError(start.location, "'\(name)' is given twice in this rule") }
            }
            switch word {
            case "summary":
                try single(word); _ = advance(); summary = try string("the summary")
            case "explain":
                try single(word); _ = advance(); explanation = try string("the explanation")
            case "message":
                try single(word); _ = advance(); messageLocation = current.location; message = try string("the message template")
            case "fix":
                try single(word); _ = advance(); fix = try string("the fix")
            case "severity":
                try single(word); _ = advance()
                severityLocation = current.location
                severity = try parseSeverity()
                if acceptSymbol(",") {
                    let raised = try parseSeverity()
                    try expect("if"); try expect("followed"); try expect("by")
                    let followedBy = try parseTerm()
                    var before: Term?
                    if accept("before") { before = try parseTerm() }
                    escalation = RuleSyntax.Escalation(severity: raised, followedBy: followedBy, before: before)
                }
            case "per":
                try single(word); _ = advance()
                if accept("controller") {
                    slicing = accept("type") ? .controllerType : .controller
                } else if accept("app") {
                    slicing = .app
                } else {
                    throw error("'controller', 'controller type' or 'app' after 'per'")
                }
            case "parameter":
                _ = advance()
                declared.append(try parseParameter())
            case "once":
                try single(word); _ = advance()
                if accept("per") {
                    try expect("callback", "'callback' after 'once per'")
                    once = .perCallback
                } else {
                    once = .perSlice
                }
            case "unless" where isWord("anywhere", at: 1):
                try single("unless anywhere"); _ = advance(); _ = advance()
                anywhere = try parseTerm()
            default:
                guard rule == nil else { throw RuleFileError(start.location, "a rule has one pattern; this is a second one (start another 'rule ID' for it)") }
                let patternStart = index
                let pattern = try parsePattern()
                let scope = try parseScope()
                let text = tokens[patternStart..<index].map(Self.text).joined(separator: " ")
                rule = RuleSyntax(id: id, location: location, pattern: pattern, patternText: text, scope: scope, sourceText: sourceText)
            }
        }
        guard var rule else {
            throw RuleFileError(current.location, "rule '\(id)' has no pattern: expected 'never TERM', 'eventually TERM', 'TERM requires earlier TERM' or 'TERM leads to TERM'")
        }
        rule.summary = summary
        rule.explanation = explanation
        rule.message = message
        rule.messageLocation = messageLocation
        rule.fix = fix
        rule.severity = severity
        rule.severityLocation = severityLocation
        rule.escalation = escalation
        rule.slicing = slicing
        rule.parameters = declared
        rule.once = once
        rule.anywhere = anywhere
        return rule
    }

    private static func text(_ token: Token) -> String {
        switch token.kind {
        case .word(let word): word
        case .variable(let name): "$" + name
        case .string(let text): "\"\(text)\""
        case .number(let value): NumberText.text(value)
        case .duration(let nanoseconds): TimeText.duration(nanoseconds).replacingOccurrences(of: " ", with: "")
        case .symbol(let symbol): symbol
        case .end: ""
        }
    }

    private mutating func parseSeverity() throws(RuleFileError) -> Severity {
        guard let word = current.word, let severity = Severity(rawValue: word) else {
            throw error("a severity (note, warning or error)\(current.word.map { Vocabulary.suggestion($0, among: Severity.allCases.map(\.rawValue)) } ?? "")")
        }
        _ = advance()
        return severity
    }

    /// `parameter NAME = VALUE ["summary"]`: a duration (`5s`), a count (`3`) or a flag (`true`).
    private mutating func parseParameter() throws(RuleFileError) -> RuleSyntax.Parameter {
        let start = current
        guard let name = start.word, !Self.termEnds.contains(name) else { throw error("a parameter name") }
        _ = advance()
        try expectSymbol("=")
        let value: ParameterValue
        switch current.kind {
        case .duration(let nanoseconds): value = .duration(nanoseconds)
        case .number(let number) where number >= 0 && number == number.rounded() && number < 1e15: value = .count(Int(number))
        case .word("true"): value = .flag(true)
        case .word("false"): value = .flag(false)
        default: throw error("a duration (5s, 250ms), a whole number or true/false as the value of parameter '\(name)'")
        }
        _ = advance()
        var summary = ""
        if case .string(let text) = current.kind {
            summary = text
            _ = advance()
        }
        return RuleSyntax.Parameter(name: name, value: value, summary: summary, location: start.location)
    }

    private mutating func parsePattern() throws(RuleFileError) -> RuleSyntax.Pattern {
        if accept("never") { return .never(try parseTerm()) }
        if accept("eventually") { return .eventually(try parseTerm()) }
        let trigger = try parseTerm()
        if accept("requires") {
            try expect("earlier", "'earlier' after 'requires'")
            return .precedence(trigger, requires: try parseTerm())
        }
        if accept("leads") {
            try expect("to", "'to' after 'leads'")
            let response = try parseTerm()
            var within: RuleSyntax.Limit?
            var unless: Term?
            if accept("within") { within = try parseLimit() }
            if isWord("unless") && !isWord("anywhere", at: 1) {
                _ = advance()
                unless = try parseTerm()
            }
            return .response(trigger, leadsTo: response, within: within, unless: unless)
        }
        throw error("'requires earlier' or 'leads to' after the term (or start the pattern with 'never' or 'eventually')")
    }

    private mutating func parseLimit() throws(RuleFileError) -> RuleSyntax.Limit {
        switch current.kind {
        case .duration(let nanoseconds):
            _ = advance()
            return .nanoseconds(nanoseconds)
        case .word(let name) where parameters.contains(name):
            _ = advance()
            return .parameter(name)
        case .word(let name):
            throw RuleFileError(current.location, "'\(name)' is not a parameter of this rule\(Vocabulary.suggestion(name, among: parameters)): expected a duration (5s, 250ms) or a duration parameter after 'within'")
        default:
            throw error("a duration (5s, 250ms) or a duration parameter after 'within'")
        }
    }

    private mutating func parseScope() throws(RuleFileError) -> RuleSyntax.Scope {
        if accept("globally") { return .globally }
        if accept("before") { return .before(try parseTerm()) }
        if accept("after") {
            let open = try parseTerm()
            if accept("until") { return .afterUntil(open, until: try parseTerm()) }
            return .after(open)
        }
        if accept("between") {
            let open = try parseTerm()
            try expect("and", "'and' in 'between Q and R'")
            return .between(open, and: try parseTerm())
        }
        return .globally
    }

    /// `EVENT (or EVENT)*`.
    mutating func parseTerm() throws(RuleFileError) -> Term {
        let start = index
        var alternatives = [try parseEvent()]
        while accept("or") { alternatives.append(try parseEvent()) }
        return Term(alternatives: alternatives, text: tokens[start..<index].map(Self.text).joined(separator: " "))
    }

    private mutating func parsePhase(_ default: EventTerm.PhaseFilter = .start) -> EventTerm.PhaseFilter {
        if accept("begin") { return .start }
        if accept("end") { return .end }
        return `default`
    }

    private mutating func parseEvent() throws(RuleFileError) -> EventTerm {
        let start = current
        guard let word = start.word else {
            throw error("an event (a callback such as viewDidAppear, 'mark NAME', an app event, a container operation, cancellation, removed, exit)")
        }
        _ = advance()
        var term: EventTerm
        switch word {
        case "mark":
            let nameToken = current
            let name: String
            switch nameToken.kind {
            case .word(let text):
                name = text
                if let near = Vocabulary.markSuggestion(for: text), !Vocabulary.markFields.keys.contains(text) {
                    throw RuleFileError(nameToken.location, "unknown mark '\(text)' (did you mean '\(near)'?); write it in quotes, mark \"\(text)\", if it is your own")
                }
            case .string(let text): name = text
            default: throw error("a mark name after 'mark'")
            }
            _ = advance()
            term = EventTerm(subject: .mark(name, .start), location: start.location)
            if acceptSymbol("(") { term.fields = try parseFields(mark: name) }
            term.subject = .mark(name, parsePhase())
        case "app", "application", "scene":
            guard let name = current.word, let transition = AppTransition(name: name) else {
                throw error("an app event after '\(word)' (didEnterBackground, willResignActive, …)\(current.word.map { Vocabulary.suggestion($0, among: AppTransition.allCases.map(\.name)) } ?? "")")
            }
            _ = advance()
            let scene: Bool? = word == "app" ? nil : word == "scene"
            term = EventTerm(subject: .app(transition, scene: scene, parsePhase()), location: start.location)
        case "cancellation":
            term = EventTerm(subject: .cancellation, location: start.location)
        case "removed":
            term = EventTerm(subject: .removed, location: start.location)
        case "exit":
            _ = accept("completed")
            term = EventTerm(subject: .exit, location: start.location)
        default:
            if let callback = Vocabulary.callbacks[word] {
                term = EventTerm(subject: .callback(callback, parsePhase()), location: start.location)
            } else if let operation = Vocabulary.containerOperations[word] {
                term = EventTerm(subject: .container(operation), location: start.location)
            } else if let app = Vocabulary.appEvents[word] {
                term = EventTerm(subject: .app(app.transition, scene: app.scene, parsePhase()), location: start.location)
            } else if let action = Vocabulary.swiftUIActions[word] {
                var view: String?
                if case .string(let name) = current.kind {
                    view = name
                    _ = advance()
                }
                term = EventTerm(subject: .swiftUI(action, view: view), location: start.location)
            } else {
                throw RuleFileError(start.location, "unknown event '\(word)'\(Vocabulary.suggestion(word, among: Vocabulary.eventStarts)): expected a callback (viewDidAppear, …), 'mark NAME', an app event (didEnterBackground, …), a container operation (push, present, …), onAppear/onDisappear, cancellation, removed or exit")
            }
        }
        try parseQualifiers(&term)
        return term
    }

    private mutating func parseFields(mark: String) throws(RuleFileError) -> [EventTerm.FieldConstraint] {
        var fields: [EventTerm.FieldConstraint] = []
        repeat {
            let nameToken = current
            guard let name = nameToken.word else { throw error("a field name (for example key: $key or critical: true)") }
            _ = advance()
            if let known = Vocabulary.markFields[mark], !known.contains(name), let near = Vocabulary.suggestion(name, among: known).nonEmpty {
                throw RuleFileError(nameToken.location, "mark '\(mark)' has no field '\(name)'\(near)")
            }
            try expectSymbol(":")
            let value: EventTerm.FieldConstraint.Value
            switch current.kind {
            case .variable(let variable): value = .variable(variable)
            case .string(let text): value = .literal(.string(text))
            case .number(let number): value = .literal(number == number.rounded() && abs(number) < 9e15 ? .int(Int64(number)) : .double(number))
            case .word(let text): value = .literal(FieldValue(parsing: text))
            default: throw error("a value or a $variable for field '\(name)'")
            }
            _ = advance()
            fields.append(EventTerm.FieldConstraint(name: name, value: value, location: nameToken.location))
        } while acceptSymbol(",")
        try expectSymbol(")")
        return fields
    }

    private mutating func parseQualifiers(_ term: inout EventTerm) throws(RuleFileError) {
        while true {
            if accept("in") {
                let nameToken = current
                guard let name = nameToken.word else { throw error("a callback or app event after 'in'") }
                _ = advance()
                let kind: EventTerm.Enclosing.Kind
                if let callback = Vocabulary.callbacks[name] {
                    kind = .callback(callback)
                } else if let app = Vocabulary.appEvents[name] {
                    kind = .app(app.transition)
                } else {
                    throw RuleFileError(nameToken.location, "unknown callback '\(name)'\(Vocabulary.suggestion(name, among: Vocabulary.enclosingNames)) after 'in'")
                }
                var same = false
                if isWord("of"), isWord("the", at: 1) {
                    _ = advance(); _ = advance()
                    try expect("same", "'same' in 'of the same controller'")
                    try expect("controller", "'controller' in 'of the same controller'")
                    same = true
                }
                term.enclosing = EventTerm.Enclosing(kind: kind, sameController: same)
            } else if accept("of") {
                guard let pattern = current.word, !Self.termEnds.contains(pattern), !Self.statementWords.contains(pattern) else {
                    throw error("a controller type (ComposeViewController, *ViewController) after 'of'")
                }
                _ = advance()
                term.typePattern = pattern
            } else if accept("with") {
                let nilParent = accept("nil")
                try expect("parent", "'parent' in 'with parent' or 'with nil parent'")
                term.parent = !nilParent
            } else if accept("where") {
                term.guards.append(try parseGuard())
                while isWord("and"), Self.isComparison(peek(2)) {
                    _ = advance()
                    term.guards.append(try parseGuard())
                }
            } else {
                return
            }
        }
    }

    private static func isComparison(_ token: Token) -> Bool {
        if case .symbol(let symbol) = token.kind { return ["=", "!=", "<", "<=", ">", ">="].contains(symbol) }
        return false
    }

    private mutating func parseGuard() throws(RuleFileError) -> EventTerm.Guard {
        let start = current
        let left: EventTerm.Guard.Operand
        switch current.kind {
        case .word("duration"): left = .duration
        case .word(let name): left = .field(name)
        case .variable(let name): left = .variable(name)
        default: throw error("a field name, 'duration' or a $variable after 'where'")
        }
        _ = advance()
        guard case .symbol(let symbol) = current.kind, let comparison = EventTerm.Guard.Comparison(rawValue: symbol) else {
            throw error("a comparison (=, !=, <, <=, >, >=)")
        }
        _ = advance()
        let right: EventTerm.Guard.Operand
        switch current.kind {
        case .number(let value): right = .number(value)
        case .duration(let nanoseconds): right = .nanoseconds(nanoseconds)
        case .string(let text): right = .text(text)
        case .variable(let name): right = .variable(name)
        case .word("true"): right = .flag(true)
        case .word("false"): right = .flag(false)
        case .word(let name) where parameters.contains(name): right = .parameter(name)
        case .word(let name):
            throw RuleFileError(current.location, "'\(name)' is not a parameter of this rule\(Vocabulary.suggestion(name, among: parameters)): expected a number, a duration, a quoted string, true/false, a $variable or a parameter")
        default: throw error("a value to compare with")
        }
        _ = advance()
        return EventTerm.Guard(left: left, comparison: comparison, right: right, location: start.location)
    }
}

extension String {
    /// `nil` for the empty string.
    var nonEmpty: String? { isEmpty ? nil : self }
}
