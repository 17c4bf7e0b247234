import Audit
import TraceModel

/// Checks a parsed rule and makes what the audit runs: a `CompiledRule` and its `RuleDescriptor`. A rule that
/// can never fire (a variable nothing binds, a duration guard on a callback's begin, contradictory field values,
/// `eventually` with nothing that could start its wait) is an error at the place that makes it so.
enum RuleCompiler {
    static func compile(_ rule: RuleSyntax, file: String) throws(RuleFileError) -> (program: CompiledRule, descriptor: RuleDescriptor) {
        var terms = [Term?](repeating: nil, count: CompiledRule.Role.allCases.count)
        func set(_ role: CompiledRule.Role, _ term: Term?) { terms[role.rawValue] = term }
        let kind: CompiledRule.PatternKind
        var within: RuleSyntax.Limit?
        switch rule.pattern {
        case .never(let trigger):
            kind = .never
            set(.trigger, trigger)
        case .eventually(let target):
            kind = .eventually
            set(.answer, target)
        case .precedence(let trigger, let requirement):
            kind = .precedence
            set(.trigger, trigger)
            set(.answer, requirement)
        case .response(let trigger, let response, let limit, let unless):
            kind = .response
            set(.trigger, trigger)
            set(.answer, response)
            set(.discharge, unless)
            within = limit
        }
        let scope: CompiledRule.ScopeKind
        switch rule.scope {
        case .globally: scope = .globally
        case .before(let close): scope = .before; set(.close, close)
        case .after(let open): scope = .after; set(.open, open)
        case .between(let open, let close): scope = .between; set(.open, open); set(.close, close)
        case .afterUntil(let open, let close): scope = .afterUntil; set(.open, open); set(.close, close)
        }
        set(.anywhere, rule.anywhere)
        set(.escalate, rule.escalation?.followedBy)
        set(.settle, rule.escalation?.before)

        // Parameters: unique names; `within` takes a duration.
        var parameterNames: Set<String> = []
        for parameter in rule.parameters {
            guard parameterNames.insert(parameter.name).inserted else {
                throw RuleFileError(parameter.location, "parameter '\(parameter.name)' is declared twice")
            }
        }
        if case .parameter(let name)? = within, let parameter = rule.parameters.first(where: { $0.name == name }) {
            guard case .duration = parameter.value else {
                throw RuleFileError(parameter.location, "parameter '\(name)' is used after 'within', so it must be a duration (for example parameter \(name) = 5s)")
            }
        }

        // Variables are bound by the trigger (what a slice is made for) and only used elsewhere.
        let variables: [String]
        if kind == .eventually {
            if let variable = terms.compactMap({ $0 }).flatMap(\.variables).first {
                throw RuleFileError(location(of: variable, in: terms), "'eventually' cannot bind $\(variable): its monitor would start only once the event it waits for has come, so it could never fire; match the value with a literal instead")
            }
            variables = []
        } else {
            variables = terms[CompiledRule.Role.trigger.rawValue]?.variables ?? []
            for (role, term) in zip(CompiledRule.Role.allCases, terms) where role != .trigger {
                guard let term else { continue }
                for variable in term.variables where !variables.contains(variable) {
                    throw RuleFileError(location(of: variable, in: [term]), "$\(variable) is not bound by the pattern's first term ('\(terms[0]?.text ?? "")'), so this term can never match a monitor; bind it there or write a value")
                }
            }
        }
        if kind == .eventually, scope == .globally || scope == .after, rule.slicing != .app {
            throw RuleFileError(rule.location, "'eventually' \(scope == .globally ? "globally" : "after Q") per \(rule.slicing.rawValue) can never fire: a \(rule.slicing.rawValue)'s monitor starts at its first matching event, which is the one it waits for; give a scope that ends (before R, between Q and R, after Q until R) or write 'per app'")
        }

        for term in terms.compactMap({ $0 }) {
            for event in term.alternatives { try check(event, once: nil, parameters: rule.parameters) }
        }
        if rule.once == .perCallback, let trigger = terms[0] ?? terms[1] {
            for event in trigger.alternatives {
                if case .mark = event.subject { continue }
                if event.enclosing != nil { continue }
                throw RuleFileError(event.location, "'once per callback' groups findings by the callback the trigger happened in, but this term names none: add 'in CALLBACK', or write 'once'")
            }
        }
        if let escalation = rule.escalation, escalation.severity <= rule.severity {
            throw RuleFileError(rule.severityLocation ?? rule.location, "'\(escalation.severity) if followed by …' has no effect: it must be above the rule's severity (\(rule.severity))")
        }

        let messageText = rule.message ?? defaultMessage(rule, kind)
        let message = try MessageTemplate(messageText, location: rule.messageLocation ?? rule.location, variables: variables)
        var facts: [FactKind] = []
        for term in terms.compactMap({ $0 }) { for kind in term.factKinds where !facts.contains(kind) { facts.append(kind) } }
        if kind == .response { facts.append(.runStarted) }
        let program = CompiledRule(
            id: rule.id, pattern: kind, scope: scope, slicing: rule.slicing, terms: terms, variables: variables, within: within,
            once: rule.once, escalation: rule.escalation?.severity, message: message, facts: facts)

        var examples: [RuleExample] = []
        for example in rule.examples {
            let events = try ExampleTraceParser.events(example.lines, file: file)
            guard !events.isEmpty else { throw RuleFileError(example.location, "example \"\(example.title)\" has no events: write one event per line after it") }
            examples.append(RuleExample(
                title: example.title, events: events, expectedFindings: example.expectedFindings, expectedVerdict: example.verdict,
                expectedSeverity: example.expectedFindings > 0 ? (example.severity ?? (example.verdict == .inconclusive ? .note : rule.severity)) : nil))
        }
        guard examples.contains(where: \.triggers), examples.contains(where: { !$0.triggers }) else {
            throw RuleFileError(rule.location, "rule '\(rule.id)' needs at least one example that fires and one that passes (example \"title\" fires / example \"title\" passes, each followed by its events)")
        }
        let finished = examples
        let descriptor = RuleDescriptor(
            id: rule.id,
            summary: rule.summary ?? "\(rule.patternText) (per \(rule.slicing.rawValue)).",
            defaultSeverity: rule.severity,
            severityNote: rule.escalation.map { "\($0.severity) when followed, on the same controller, by \($0.followedBy.text)\($0.before.map { " before \($0.text)" } ?? "")" } ?? "",
            parameters: rule.parameters.map(parameter),
            explanation: (rule.explanation.map { $0 + " " } ?? "") + "A rule written in the rule language (docs/RULE_LANGUAGE.md), \(file):\(rule.location.line): per \(rule.slicing.rawValue), \(rule.patternText)\(rule.once.map { $0 == .perSlice ? "; once" : "; once per callback" } ?? "")\(rule.anywhere.map { "; unless anywhere \($0.text)" } ?? "").",
            fix: rule.fix ?? "See the rule's file, \(file).",
            needs: kind == .eventually ? [] : (terms[0]?.factKinds ?? []),
            examples: finished)
        return (program, descriptor)
    }

    private static func location(of variable: String, in terms: [Term?]) -> SourceLocation {
        for term in terms.compactMap({ $0 }) {
            for event in term.alternatives {
                for field in event.fields { if case .variable(variable) = field.value { return field.location } }
            }
        }
        return terms.compactMap({ $0 }).first?.alternatives.first?.location ?? SourceLocation(file: "", line: 0, column: 0)
    }

    private static func check(_ event: EventTerm, once: RuleSyntax.Once?, parameters: [RuleSyntax.Parameter]) throws(RuleFileError) {
        var literals: [String: FieldValue] = [:]
        for field in event.fields {
            guard case .literal(let value) = field.value else { continue }
            if let earlier = literals[field.name], !EventTerm.same(earlier, value) {
                throw RuleFileError(field.location, "field '\(field.name)' must be both \(earlier) and \(value): this term can never match")
            }
            literals[field.name] = value
        }
        let variables = event.variables
        for condition in event.guards {
            for operand in [condition.left, condition.right] {
                switch operand {
                case .duration:
                    guard case .callback(_, let phase) = event.subject else {
                        throw RuleFileError(condition.location, "'duration' is a callback end's duration; this term is not a callback, so the guard can never hold")
                    }
                    if phase == .start {
                        throw RuleFileError(condition.location, "a callback's begin has no duration yet, so this guard can never hold: write 'end' after the callback (for example viewDidLayoutSubviews end where duration > 8ms)")
                    }
                case .variable(let name) where !variables.contains(name):
                    throw RuleFileError(condition.location, "$\(name) is not bound in this term, so the guard can never hold")
                case .field:
                    guard case .mark = event.subject else {
                        throw RuleFileError(condition.location, "only marks have fields; this guard can never hold (use 'duration' for a callback end)")
                    }
                default:
                    break
                }
            }
            if isConstant(condition.left), isConstant(condition.right) {
                throw RuleFileError(condition.location, "this guard compares two constants")
            }
        }
        if event.parent != nil {
            guard case .callback(let callback, _) = event.subject, callback == .willMoveToParent || callback == .didMoveToParent else {
                throw RuleFileError(event.location, "'with parent' applies to willMove/didMove(toParent:) only, so this term can never match")
            }
        }
        if event.typePattern != nil, case .app = event.subject {
            throw RuleFileError(event.location, "an app event has no controller, so 'of TYPE' can never match it")
        }
        if let enclosing = event.enclosing, enclosing.sameController, case .app = enclosing.kind {
            throw RuleFileError(event.location, "an app delegate callback belongs to no controller, so 'in … of the same controller' can never hold")
        }
        if let enclosing = event.enclosing, case .app = event.subject, case .callback = enclosing.kind {
            throw RuleFileError(event.location, "app events do not run inside controller callbacks, so this term can never match")
        }
    }

    private static func isConstant(_ operand: EventTerm.Guard.Operand) -> Bool {
        switch operand {
        case .number, .text, .flag, .nanoseconds, .parameter: true
        case .field, .duration, .variable: false
        }
    }

    private static func parameter(_ syntax: RuleSyntax.Parameter) -> RuleParameter {
        let kind: RuleParameter.Kind
        let unit: String
        switch syntax.value {
        case .duration: kind = .duration; unit = "trace clock"
        case .count: kind = .count; unit = "count"
        case .flag: kind = .flag; unit = ""
        case .names: kind = .names; unit = "names"
        }
        return RuleParameter(name: syntax.name, kind: kind, defaultValue: syntax.value, unit: unit, summary: syntax.summary.isEmpty ? "Declared in the rule file." : syntax.summary)
    }

    private static func defaultMessage(_ rule: RuleSyntax, _ kind: CompiledRule.PatternKind) -> String {
        switch rule.pattern {
        case .never(let trigger): "{controller}: \(trigger.text) at {time}, which rule {rule} forbids."
        case .eventually(let target): "{controller}: no \(target.text) (rule {rule}), scope ended at {time}."
        case .precedence(let trigger, let requirement): "{controller}: \(trigger.text) at {time} without an earlier \(requirement.text) (rule {rule})."
        case .response(let trigger, let response, let limit, _): "{controller}: \(trigger.text) at {time} is not followed by \(response.text)\(limit == nil ? "" : " within {within}") (rule {rule})."
        }
    }
}
