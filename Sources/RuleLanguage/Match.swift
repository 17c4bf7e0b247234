import Audit
import Replay
import TraceModel

/// One way a fact matched an event term: the controller it is about and the variables it bound.
struct Match {
    /// The controller (`nil`: an app event, a mark of no controller).
    var controller: UInt32?
    /// The value of each of the rule's variables (`CompiledRule.variables`), `nil` where the term binds none.
    var values: [String?]
    /// The callback the event happened in (`in X`, a mark's enclosing callback) or is.
    var callback: String?
    /// The ordinal of that callback's begin, for `once per callback`.
    var enclosingOrdinal: UInt64?
    /// The mark's fields (for `{field.NAME}`).
    var fields: [MarkField]
    /// A callback end's duration in nanoseconds.
    var duration: UInt64?
}

extension EventTerm {
    /// A number for the kind of fact the term can match (a callback's own, one for all marks, …), compared
    /// with `code(of:)` before the term is tried.
    var code: UInt16 {
        switch subject {
        case .callback(let callback, _): 0x100 | UInt16(callback.rawValue)
        case .mark: 1
        case .container: 2
        case .app: 3
        case .swiftUI: 4
        case .cancellation: 5
        case .removed: 6
        case .exit: 7
        }
    }

    /// The code of `fact` (`code`), 0 for kinds no term matches.
    static func code(of fact: Fact) -> UInt16 {
        switch fact {
        case .callback(let callback): 0x100 | UInt16(callback.callback.rawValue)
        case .mark: 1
        case .container: 2
        case .app: 3
        case .swiftUI: 4
        case .disappearanceCancelled: 5
        case .removed: 6
        case .exitCompleted: 7
        default: 0
        }
    }

    /// The callback that `enclosing` names, open around the event (a mark's own attribution for a mark).
    static func enclosing(_ enclosing: Enclosing, of controller: UInt32?, mark: MarkFact?, _ replay: ReplayView) -> ActiveCallback? {
        if let mark {
            guard let active = mark.enclosing, active.kind == Self.kind(enclosing.kind) else { return nil }
            if enclosing.sameController { guard let controller, active.controllerSerial == controller else { return nil } }
            return active
        }
        switch enclosing.kind {
        case .callback(let callback):
            if enclosing.sameController {
                guard let controller else { return nil }
                return replay.openCallback(callback, of: controller)
            }
            return replay.state.executing.last { $0.kind == .controller(callback) }
        case .app(let transition):
            guard !enclosing.sameController else { return nil }
            return replay.state.executing.last { $0.kind == .app(transition) }
        }
    }

    private static func kind(_ kind: Enclosing.Kind) -> ActiveCallback.Kind {
        switch kind {
        case .callback(let callback): .controller(callback)
        case .app(let transition): .app(transition)
        }
    }

    /// Field equality as the trace has it: the same type and value, numbers compared as numbers.
    static func same(_ value: FieldValue, _ expected: FieldValue) -> Bool {
        if let left = value.doubleValue, let right = expected.doubleValue { return left == right }
        return value == expected
    }

    /// `pattern` with `*` matching any run of characters, else equal.
    static func glob(_ pattern: String, matches text: String) -> Bool {
        // Bytes, not characters: this runs for every fact a typed term is tried on.
        guard pattern.utf8.contains(UInt8(ascii: "*")) else { return pattern == text }
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        var rest = Substring(text)
        for (index, part) in parts.enumerated() {
            if index == 0 {
                guard rest.hasPrefix(part) else { return false }
                rest = rest.dropFirst(part.count)
            } else if index == parts.count - 1 {
                return part.isEmpty || rest.hasSuffix(part)
            } else if !part.isEmpty {
                guard let range = rest.range(of: part) else { return false }
                rest = rest[range.upperBound...]
            }
        }
        return rest.isEmpty
    }
}

extension EventTerm.Guard {
    /// Whether the comparison holds for `match`; an operand the event does not have makes it false.
    func holds(for match: Match, variables: [String], parameters: [String: ParameterValue]) -> Bool {
        guard let left = value(left, match, variables, parameters), let right = value(right, match, variables, parameters) else { return false }
        let order: Int
        if let a = left.number, let b = right.number {
            order = a < b ? -1 : (a > b ? 1 : 0)
        } else {
            let a = left.text, b = right.text
            order = a < b ? -1 : (a > b ? 1 : 0)
        }
        switch comparison {
        case .equal: return order == 0
        case .notEqual: return order != 0
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        case .greaterOrEqual: return order >= 0
        }
    }

    private struct Value {
        var number: Double?
        var text: String
    }

    private func value(_ operand: Operand, _ match: Match, _ variables: [String], _ parameters: [String: ParameterValue]) -> Value? {
        switch operand {
        case .field(let name):
            guard let field = match.fields.first(where: { $0.name == name })?.value else { return nil }
            return Value(number: field.doubleValue, text: field.description)
        case .duration:
            return match.duration.map { Value(number: Double($0), text: String($0)) }
        case .variable(let name):
            guard let slot = variables.firstIndex(of: name), let text = match.values[slot] else { return nil }
            return Value(number: Double(text), text: text)
        case .number(let number): return Value(number: number, text: NumberText.text(number))
        case .text(let text): return Value(number: nil, text: text)
        case .flag(let flag): return Value(number: nil, text: flag ? "true" : "false")
        case .nanoseconds(let nanoseconds): return Value(number: Double(nanoseconds), text: String(nanoseconds))
        case .parameter(let name):
            switch parameters[name] {
            case .duration(let nanoseconds)?: return Value(number: Double(nanoseconds), text: String(nanoseconds))
            case .count(let count)?: return Value(number: Double(count), text: String(count))
            case .flag(let flag)?: return Value(number: nil, text: flag ? "true" : "false")
            case .names(let names)?: return Value(number: nil, text: names.joined(separator: ","))
            case nil: return nil
            }
        }
    }
}

extension EventMatcher {
    /// Appends to `matches` each way `fact` matches the term (none, one, or one per controller a container
    /// operation names). `variables` are the rule's, `parameters` its resolved parameter values.
    func match(_ fact: Fact, _ replay: ReplayView, variables: [String], parameters: [String: ParameterValue], into matches: inout [Match]) {
        // The common case, a fact of another kind or name, returns before anything is allocated.
        var controller: UInt32?
        var listed: [ControllerRef] = []
        var callbackName: String?
        var enclosingOrdinal: UInt64?
        var fields: [MarkField] = []
        var duration: UInt64?
        var values: [String?] = []
        var mark: MarkFact?
        // By the fact first, then the subject: a switch over the pair would copy both (and retain the mark's
        // fields) for every term tried.
        switch fact {
        case .callback(let event):
            guard case .callback(let callback, let phase) = subject, event.callback == callback, phase.accepts(event.phase) else { return }
            if let parent {
                guard case .some(let argument) = event.parent else { return }
                guard (argument != nil) == parent else { return }
            }
            controller = event.controller
            callbackName = callback.name
            duration = event.duration
        case .mark(let event):
            guard case .mark(let name, let phase) = subject, event.name == name, phase.accepts(event.phase) else { return }
            if !self.fields.isEmpty {
                values = [String?](repeating: nil, count: variables.count)
                for constraint in self.fields {
                    guard let value = event[field: constraint.name] else { return }
                    switch constraint.value {
                    case .literal(let expected):
                        guard EventTerm.same(value, expected) else { return }
                    case .variable(let variable):
                        guard let slot = variables.firstIndex(of: variable) else { return }
                        let text = value.description
                        if let bound = values[slot], bound != text { return }
                        values[slot] = text
                    }
                }
            }
            controller = event.controller
            callbackName = event.enclosingName
            enclosingOrdinal = event.enclosing?.ordinal
            fields = event.fields
            mark = event
        case .container(let event):
            guard case .container(let operation) = subject, event.operation == operation else { return }
            listed = event.controllers
        case .app(let event):
            guard case .app(let transition, let scene, let phase) = subject, event.transition == transition, phase.accepts(event.phase) else { return }
            if let scene, scene != (event.scene != nil) { return }
            callbackName = event.delegateMethodName
        case .swiftUI(let event):
            guard case .swiftUI(let action, let view) = subject, event.action == action else { return }
            if let view, view != event.view { return }
            controller = event.host?.serial
        case .disappearanceCancelled(let cancellation):
            guard case .cancellation = subject else { return }
            controller = cancellation.controller
        case .removed(let removal):
            guard case .removed = subject else { return }
            controller = removal.controller
        case .exitCompleted(let exit):
            guard case .exit = subject else { return }
            controller = exit.controller
        default:
            return
        }
        if values.count < variables.count { values = [String?](repeating: nil, count: variables.count) }
        if listed.isEmpty {
            add(controller, callbackName, enclosingOrdinal, fields, duration, values, mark, replay, variables, parameters, &matches)
        } else {
            for ref in listed { add(ref.serial, callbackName, enclosingOrdinal, fields, duration, values, mark, replay, variables, parameters, &matches) }
        }
    }

    /// The match for one controller, when the qualifiers hold.
    private func add(
        _ controller: UInt32?, _ callbackName: String?, _ enclosingOrdinal: UInt64?, _ fields: [MarkField], _ duration: UInt64?,
        _ values: [String?], _ mark: MarkFact?, _ replay: ReplayView, _ variables: [String], _ parameters: [String: ParameterValue],
        _ matches: inout [Match]
    ) {
        if let typePattern {
            guard let controller, let type = replay.ref(of: controller)?.typeName, EventTerm.glob(typePattern, matches: type) else { return }
        }
        var found = Match(controller: controller, values: values, callback: callbackName, enclosingOrdinal: enclosingOrdinal, fields: fields, duration: duration)
        if let enclosing {
            guard let active = EventTerm.enclosing(enclosing, of: controller, mark: mark, replay) else { return }
            found.callback = ReplayView.methodName(of: active)
            found.enclosingOrdinal = active.ordinal
        }
        guard guards.allSatisfy({ $0.holds(for: found, variables: variables, parameters: parameters) }) else { return }
        matches.append(found)
    }
}
