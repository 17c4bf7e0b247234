import Audit
import Replay
import TraceModel

/// A rule from a rule file, run on one trace: a parametric monitor (one slice per controller, controller type or
/// the app, and per value of each variable) over the rule's pattern and scope. docs/RULE_LANGUAGE.md,
/// "Semantics", says what each pattern reports and when.
///
/// An event of no controller (an app event, a mark no controller owns) reaches every slice it can, including
/// slices that start later; a pending obligation when the trace ends is inconclusive; a new recording run ends
/// every response obligation (those already past their time limit at the previous run's last event are violations).
struct LanguageRule: AuditRule {
    /// Satisfies the protocol only: the registry holds each compiled rule's own descriptor
    /// (`Rule(descriptor:make:)`), from its file.
    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: "rule_language", summary: "A rule compiled from a rule file.", defaultSeverity: .warning,
            explanation: "See docs/RULE_LANGUAGE.md.", fix: "See the rule's file.", examples: [])
    }

    /// What a slice is for.
    struct Key: Hashable {
        enum Subject: Hashable {
            case controller(UInt32)
            case type(String)
            case app
            /// A trigger of no controller under per-controller slicing.
            case unattributed
            /// The state a new slice starts from: every event of no controller so far (never reported).
            case prototype
        }
        var subject: Subject
        var values: [String]
    }

    /// A key with parts unknown (`nil`): the slices it reaches.
    struct Partial: Hashable {
        var subject: Key.Subject?
        var values: [String?]

        func covers(_ key: Key) -> Bool {
            if key.subject == .prototype { return false }
            if let subject, subject != key.subject { return false }
            for (value, known) in zip(values, key.values) where value != nil && value != known { return false }
            return true
        }

        /// Reaches every slice: no controller, no variable value.
        var isGlobal: Bool { subject == nil && values.allSatisfy { $0 == nil } }

        var full: Key? {
            guard let subject else { return nil }
            var known: [String] = []
            for value in values {
                guard let value else { return nil }
                known.append(value)
            }
            return Key(subject: subject, values: known)
        }
    }

    /// An event as a finding needs it, resolved when it happens (controller records can be gone by the end).
    struct Occurrence {
        var ordinal: UInt64
        var timestamp: UInt64
        var source: EventSource?
        var serial: UInt32?
        /// The controller's record when the event happened, kept only where a finding can come from the event
        /// (`isNamed`); its display name is built when a finding shows it.
        var ref: ControllerRef?
        var isNamed: Bool
        var type: String
        var callback: String?
        var enclosingOrdinal: UInt64?
        var values: [String?]
        var fields: [MarkField]
        var duration: UInt64?

        /// The controller as a finding names it (`nil` for an event of no controller, or one not named).
        var controller: String? {
            guard isNamed, let serial else { return nil }
            return ref?.displayName ?? "#\(serial)"
        }
    }

    struct Obligation {
        var trigger: Occurrence
        var deadline: UInt64?
    }

    struct Slice {
        var key: Key
        var inScope: Bool
        /// `before R` after R, `after Q` after Q: the scope never changes again.
        var done = false
        var seen = false
        var opened: Occurrence?
        var pending: Obligation?
        var deferred: [Int] = []
    }

    struct Candidate {
        var key: Key
        var occurrence: Occurrence
        var verdict: Verdict
        var escalated = false
        /// Waiting for its scope to close (`never … between Q and R`).
        var deferred = false
        var related: [RelatedEvent] = []
    }

    /// The roles an event plays in one slice.
    struct Roles: OptionSet {
        let rawValue: UInt8
        static let trigger = Roles(rawValue: 1)
        static let answer = Roles(rawValue: 2)
        static let discharge = Roles(rawValue: 4)
        static let open = Roles(rawValue: 8)
        static let close = Roles(rawValue: 16)
    }

    let program: CompiledRule
    let facts: [FactKind]
    private let severity: Severity
    /// The severity an escalation raises to (`nil`: none, or the configuration set the severity).
    private let escalation: Severity?
    private let inconclusiveSeverity: Severity
    private let parameters: [String: ParameterValue]
    private let limit: UInt64?
    /// The pattern's and the scope's terms, with the role each plays and its alternatives' `EventTerm.code`s
    /// (parallel arrays, walked by index: no term is copied per fact).
    private let roles: [Roles]
    private let roleTerms: [[EventMatcher]]
    private let roleCodes: [[UInt16]]
    private let anywhere: [EventMatcher]?
    private let escalate: [EventMatcher]?
    private let escalateText: String
    private let settle: [EventMatcher]?
    /// The type patterns of the trigger's alternatives, when every one has `of TYPE` (else `nil`).
    private let triggerTypes: [String]?

    /// The live slices; `slices[0]` is the prototype.
    private var slices: [Slice] = []
    private var sliceIndex: [Key: Int] = [:]
    /// Slices of controllers that are gone (deinit finished, or their process ended) that can still give a finding
    /// (`isOpenAtEnd`): judged at the end only.
    private var retired: [Slice] = []
    /// The keys of the live slices of each subject (a controller, a type), for events of that subject that bind
    /// no variable value, and for retiring a controller's slices.
    private var subjectKeys: [Key.Subject: [Key]] = [:]
    /// Such events, by subject, for slices of the subject that start later.
    private var subjectLog: [Key.Subject: [(partial: Partial, roles: Roles, occurrence: Occurrence)]] = [:]
    /// Events of no controller (or binding no value), for slices that start later; while every one of them
    /// reaches every slice (`hasSpecificLog` false), the prototype stands for the log.
    private var log: [(partial: Partial, roles: Roles, occurrence: Occurrence)] = []
    private var hasSpecificLog = false
    private var candidates: [Candidate] = []
    private var watchers: [UInt32: [Int]] = [:]
    private var suppressed: Set<Key> = []
    private var suppressedPartial: [Partial] = []
    private var scratch: [Match] = []
    private var deliveryBuffer: [(partial: Partial, roles: Roles, occurrence: Occurrence)] = []

    init(_ program: CompiledRule, settings: RuleSettings) {
        self.program = program
        severity = settings.severity
        escalation = settings.isSeverityConfigured ? nil : program.escalation
        inconclusiveSeverity = settings.inconclusiveSeverity
        parameters = settings.parameters
        switch program.within {
        case .nanoseconds(let value)?: limit = value
        case .parameter(let name)?: limit = settings.duration(name, default: 0)
        case nil: limit = nil
        }
        var roles: [Roles] = []
        var roleTerms: [[EventMatcher]] = []
        let map: [(CompiledRule.Role, Roles)] = [(.trigger, .trigger), (.answer, .answer), (.discharge, .discharge), (.open, .open), (.close, .close)]
        for (role, bit) in map {
            if let term = program.term(role) {
                roles.append(bit)
                roleTerms.append(term.alternatives.map(EventMatcher.init))
            }
        }
        self.roles = roles
        self.roleTerms = roleTerms
        roleCodes = roleTerms.map { $0.map(\.code) }
        var facts = program.facts
        if program.slicing == .controller {
            // To retire a controller's slices when it is gone.
            for kind in [FactKind.callback(.deinitialize), .runStarted] where !facts.contains(kind) { facts.append(kind) }
        }
        self.facts = facts
        anywhere = program.term(.anywhere).map { $0.alternatives.map(EventMatcher.init) }
        escalate = program.term(.escalate).map { $0.alternatives.map(EventMatcher.init) }
        escalateText = program.term(.escalate)?.text ?? ""
        settle = program.term(.settle).map { $0.alternatives.map(EventMatcher.init) }
        let triggerPatterns = program.term(.trigger)?.alternatives.map(\.typePattern) ?? [nil]
        triggerTypes = triggerPatterns.contains(nil) ? nil : triggerPatterns.compactMap { $0 }
        slices.append(Slice(key: Key(subject: .prototype, values: []), inScope: program.scope == .globally || program.scope == .before))
        if program.slicing == .app, program.variables.isEmpty {
            _ = slice(Key(subject: .app, values: []))
        }
    }

    private var initiallyInScope: Bool {
        program.scope == .globally || program.scope == .before
    }

    /// The matches of `term` for `fact` (in `scratch`, reused from fact to fact: valid until the next call).
    /// `code` is the fact's `EventTerm.code`: alternatives of other codes are not tried.
    private mutating func matches(_ term: [EventMatcher], _ fact: Fact, _ replay: ReplayView, code: UInt16) -> [Match] {
        if !scratch.isEmpty { scratch.removeAll(keepingCapacity: true) }
        for matcher in term where matcher.code == code {
            matcher.match(fact, replay, variables: program.variables, parameters: parameters, into: &scratch)
        }
        return scratch
    }

    /// The event as a finding would show it; names are resolved (`named`) only where a finding can come from it.
    private func occurrence(_ match: Match, _ replay: ReplayView, named: Bool) -> Occurrence {
        let ref = named ? match.controller.flatMap { replay.ref(of: $0) } : nil
        return Occurrence(
            ordinal: replay.ordinal, timestamp: replay.timestamp, source: replay.source, serial: match.controller,
            ref: ref, isNamed: named, type: ref?.typeName ?? "", callback: match.callback,
            enclosingOrdinal: match.enclosingOrdinal, values: match.values, fields: match.fields, duration: match.duration)
    }

    /// Whether an event in `role` can become a finding (and so needs the controller's names now).
    private func reported(_ role: Roles) -> Bool {
        role == .trigger || (program.pattern == .eventually && (role == .close || role == .open))
    }

    private func partial(_ match: Match, _ replay: ReplayView) -> Partial {
        let subject: Key.Subject?
        switch program.slicing {
        case .app: subject = .app
        case .controller: subject = match.controller.map { .controller($0) }
        case .controllerType: subject = match.controller.flatMap { replay.ref(of: $0)?.typeName }.map { .type($0) }
        }
        return Partial(subject: subject, values: match.values)
    }

    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        if case .runStarted(_, let previous) = fact {
            processEnded(lastOfRun: previous ?? replay.timestamp)
            for case .controller(let serial) in Array(subjectKeys.keys) { retire(serial) }
            return
        }
        let code = EventTerm.code(of: fact)
        if let escalate {
            for match in matches(escalate, fact, replay, code: code) {
                let serials = match.controller.map { [$0] } ?? Array(watchers.keys)
                for serial in serials {
                    guard let waiting = watchers.removeValue(forKey: serial) else { continue }
                    for index in waiting where !candidates[index].escalated {
                        candidates[index].escalated = true
                        candidates[index].related.append(replay.related("\(escalateText) at \(replay.time(replay.timestamp))"))
                    }
                }
            }
        }
        if let settle {
            for match in matches(settle, fact, replay, code: code) {
                if let serial = match.controller { watchers[serial] = nil } else { watchers.removeAll() }
            }
        }
        if let anywhere {
            for match in matches(anywhere, fact, replay, code: code) {
                let reach = partial(match, replay)
                if let key = reach.full { suppressed.insert(key) } else if !suppressedPartial.contains(reach) { suppressedPartial.append(reach) }
            }
        }
        // The common case: the fact can play one role only, and each match reaches one slice. A slice that does
        // not exist yet starts only for an event that can change it, so most facts end here, without an
        // occurrence built.
        var candidatesRoles = 0
        var only = 0
        for position in roles.indices where roleCodes[position].contains(code) {
            candidatesRoles += 1
            only = position
        }
        if candidatesRoles == 0 { return retireIfGone(fact) }
        if candidatesRoles == 1 {
            let role = roles[only]
            let found = matches(roleTerms[only], fact, replay, code: code)
            func key(_ match: Match) -> Key? {
                var reach = partial(match, replay)
                if role == .trigger, reach.subject == nil { reach.subject = .unattributed }
                return reach.full
            }
            let general = found.count > 1 && found.contains { key($0) == nil }
            for match in found where !general {
                guard let key = key(match) else {
                    // The only match, of no controller: the general path below.
                    break
                }
                if let index = sliceIndex[key] {
                    step(index, role, occurrence(match, replay, named: reported(role)), replayed: false)
                } else if creates(role, match.controller, replay) {
                    step(slice(key), role, occurrence(match, replay, named: reported(role)), replayed: false)
                }
            }
            if !general, found.allSatisfy({ key($0) != nil }) { return retireIfGone(fact) }
        }
        // Several roles (or an event of no controller): gathered per slice reached, in a buffer kept from fact to fact.
        var deliveries = deliveryBuffer
        deliveryBuffer = []
        for position in roles.indices {
            guard roleCodes[position].contains(code) else { continue }
            let role = roles[position]
            for match in matches(roleTerms[position], fact, replay, code: code) {
                var reach = partial(match, replay)
                if role == .trigger, reach.subject == nil { reach.subject = .unattributed }
                if let index = deliveries.firstIndex(where: { $0.partial == reach }) {
                    deliveries[index].roles.insert(role)
                    if reported(role), deliveries[index].occurrence.controller == nil, match.controller != nil { deliveries[index].occurrence = occurrence(match, replay, named: true) }
                } else {
                    deliveries.append((reach, role, occurrence(match, replay, named: reported(role))))
                }
            }
        }
        for delivery in deliveries {
            if let key = delivery.partial.full {
                if let index = sliceIndex[key] {
                    step(index, delivery.roles, delivery.occurrence, replayed: false)
                } else if creates(delivery.roles, delivery.occurrence.serial, replay) {
                    step(slice(key), delivery.roles, delivery.occurrence, replayed: false)
                }
            } else if let subject = delivery.partial.subject {
                for key in subjectKeys[subject] ?? [] where delivery.partial.covers(key) {
                    if let index = sliceIndex[key] { step(index, delivery.roles, delivery.occurrence, replayed: false) }
                }
                subjectLog[subject, default: []].append(delivery)
            } else {
                for index in slices.indices where delivery.partial.covers(slices[index].key) {
                    step(index, delivery.roles, delivery.occurrence, replayed: false)
                }
                if delivery.partial.isGlobal {
                    step(0, delivery.roles, delivery.occurrence, replayed: true)
                } else {
                    hasSpecificLog = true
                }
                log.append(delivery)
            }
        }
        deliveries.removeAll(keepingCapacity: true)
        deliveryBuffer = deliveries
        retireIfGone(fact)
    }

    /// After a controller's deinit, its slices are retired (per-controller slicing).
    private mutating func retireIfGone(_ fact: Fact) {
        if program.slicing == .controller, case .callback(let callback) = fact, callback.callback == .deinitialize, callback.phase != .begin {
            retire(callback.controller)
        }
    }

    /// Whether an event in `roles`, of `controller`, changes a slice that has seen nothing yet (else it need not
    /// start one): a trigger or a scope's opening does; a scope's closing only when a new slice would be inside
    /// the scope; an answer only where it is remembered (precedence, eventually). A controller whose type no
    /// trigger names (`of TYPE` on every alternative) never needs one.
    private func creates(_ roles: Roles, _ controller: UInt32?, _ replay: ReplayView) -> Bool {
        if let triggerTypes, program.slicing != .app {
            guard let controller, let type = replay.ref(of: controller)?.typeName,
                  triggerTypes.contains(where: { EventTerm.glob($0, matches: type) }) else { return false }
        }
        if roles.contains(.trigger) || roles.contains(.open) { return true }
        // A new slice starts as the prototype (the events of no controller so far), unless a log is replayed.
        let freshInScope = hasSpecificLog || !subjectLog.isEmpty || slices[0].inScope
        if roles.contains(.close), freshInScope { return true }
        return roles.contains(.answer) && freshInScope && (program.pattern == .precedence || program.pattern == .eventually)
    }

    /// Moves the slices of the controller `serial` out of the live ones: nothing more reaches them.
    private mutating func retire(_ serial: UInt32) {
        if !subjectLog.isEmpty { subjectLog[.controller(serial)] = nil }
        guard let keys = subjectKeys.removeValue(forKey: .controller(serial)) else { return }
        for key in keys {
            guard let index = sliceIndex.removeValue(forKey: key) else { continue }
            if isOpenAtEnd(slices[index]) { retired.append(slices[index]) }
            let last = slices.count - 1
            if index != last {
                slices[index] = slices[last]
                sliceIndex[slices[index].key] = index
            }
            slices.removeLast()
        }
    }

    /// Whether a slice can still give a finding when the trace ends (`finish`): an obligation pending, or an
    /// `eventually` slice in scope that has not seen its answer. A retired slice that cannot is dropped, so what the
    /// rule keeps is bounded by the live controllers and the findings to come.
    private func isOpenAtEnd(_ slice: Slice) -> Bool {
        slice.pending != nil || (program.pattern == .eventually && slice.inScope && !slice.seen)
    }

    /// The slice for `key`, made (and brought up to date with the events of no controller so far) if new.
    private mutating func slice(_ key: Key) -> Int {
        if let index = sliceIndex[key] { return index }
        let index = slices.count
        if key.subject != .app, key.subject != .unattributed { subjectKeys[key.subject, default: []].append(key) }
        sliceIndex[key] = index
        let own = subjectLog[key.subject] ?? []
        if hasSpecificLog || !own.isEmpty {
            // The events so far that reach the new slice, in trace order.
            slices.append(Slice(key: key, inScope: initiallyInScope))
            var earlier = (log + own).filter { $0.partial.covers(key) }
            if !own.isEmpty { earlier.sort { $0.occurrence.ordinal < $1.occurrence.ordinal } }
            for entry in earlier {
                step(index, entry.roles, entry.occurrence, replayed: true)
            }
        } else {
            var slice = slices[0]
            slice.key = key
            slices.append(slice)
        }
        return index
    }

    /// One event in one slice: the pattern first (inside the scope), then the scope's close, then its open.
    private mutating func step(_ index: Int, _ roles: Roles, _ event: Occurrence, replayed: Bool) {
        let key = slices[index].key
        if slices[index].inScope {
            switch program.pattern {
            case .never:
                if roles.contains(.trigger) {
                    let candidate = add(Candidate(key: key, occurrence: event, verdict: .violation, deferred: program.scope == .between))
                    if program.scope == .between { slices[index].deferred.append(candidate) }
                }
            case .precedence:
                if roles.contains(.trigger), !slices[index].seen { _ = add(Candidate(key: key, occurrence: event, verdict: .violation)) }
                if roles.contains(.answer) { slices[index].seen = true }
            case .response:
                if roles.contains(.answer), let pending = slices[index].pending {
                    if let deadline = pending.deadline, event.timestamp > deadline, !replayed {
                        _ = add(Candidate(key: key, occurrence: pending.trigger, verdict: .violation, related: [related(event, "came only at")]))
                    }
                    slices[index].pending = nil
                }
                if roles.contains(.discharge) { slices[index].pending = nil }
                if roles.contains(.trigger) {
                    slices[index].pending = Obligation(trigger: event, deadline: limit.map { event.timestamp &+ $0 })
                }
            case .eventually:
                if roles.contains(.answer) { slices[index].seen = true }
            }
        }
        if roles.contains(.close), slices[index].inScope {
            if !replayed {
                for candidate in slices[index].deferred { candidates[candidate].deferred = false }
                if let pending = slices[index].pending {
                    _ = add(Candidate(key: key, occurrence: pending.trigger, verdict: .violation, related: [related(event, "scope ended by")]))
                }
                if program.pattern == .eventually, !slices[index].seen {
                    var candidate = Candidate(key: key, occurrence: event, verdict: .violation)
                    if let opened = slices[index].opened { candidate.related.append(related(opened, "scope opened by")) }
                    _ = add(candidate)
                }
            }
            slices[index].deferred = []
            slices[index].pending = nil
            slices[index].inScope = false
            if program.scope == .before { slices[index].done = true }
        }
        if roles.contains(.open), !slices[index].inScope, !slices[index].done {
            slices[index].inScope = true
            slices[index].seen = false
            slices[index].opened = event
            if program.scope == .after { slices[index].done = true }
        }
    }

    private func related(_ event: Occurrence, _ what: String) -> RelatedEvent {
        RelatedEvent(ordinal: event.ordinal, timestamp: event.timestamp, message: "\(what) \(event.controller ?? event.serial.map { "#\($0)" } ?? "the app") \(event.callback ?? "")".trimmingSpaces, source: event.source)
    }

    private mutating func add(_ candidate: Candidate) -> Int {
        candidates.append(candidate)
        let index = candidates.count - 1
        if escalate != nil, let serial = candidate.occurrence.serial, candidate.verdict == .violation {
            watchers[serial, default: []].append(index)
        }
        return index
    }

    /// A new recording run: the previous process ended, and with it every response obligation.
    private mutating func processEnded(lastOfRun: UInt64) {
        for index in slices.indices.dropFirst() {
            guard let pending = slices[index].pending else { continue }
            if let deadline = pending.deadline, lastOfRun > deadline {
                _ = add(Candidate(key: slices[index].key, occurrence: pending.trigger, verdict: .violation))
            }
            slices[index].pending = nil
        }
        watchers.removeAll()
    }

    func finish(_ replay: ReplayView, _ findings: inout [Finding]) {
        var all = candidates
        for slice in slices.dropFirst() + retired {
            if let pending = slice.pending {
                let late = pending.deadline.map { replay.timestamp > $0 } ?? false
                all.append(Candidate(key: slice.key, occurrence: pending.trigger, verdict: late ? .violation : .inconclusive))
            }
            if program.pattern == .eventually, slice.inScope, !slice.seen {
                let start = slice.opened ?? Occurrence(
                    ordinal: 0, timestamp: replay.traceStart, source: nil, serial: nil, ref: nil, isNamed: false, type: "", callback: nil,
                    enclosingOrdinal: nil, values: [], fields: [], duration: nil)
                all.append(Candidate(key: slice.key, occurrence: start, verdict: .inconclusive))
            }
        }
        for index in all.indices where all[index].deferred { all[index].verdict = .inconclusive }
        all = all.filter { candidate in
            !suppressed.contains(candidate.key) && !suppressedPartial.contains { $0.covers(candidate.key) }
        }
        // Grouped for `once`: the first of the worst (a violation before an inconclusive, the higher severity).
        var groups: [[Int]] = []
        if let once = program.once {
            var byGroup: [String: Int] = [:]
            for (index, candidate) in all.enumerated() {
                let group = "\(candidate.key)|\(once == .perCallback ? candidate.occurrence.enclosingOrdinal.map(String.init) ?? "e\(candidate.occurrence.ordinal)" : "")"
                if let at = byGroup[group] { groups[at].append(index) } else {
                    byGroup[group] = groups.count
                    groups.append([index])
                }
            }
        } else {
            groups = all.indices.map { [$0] }
        }
        for group in groups {
            let ordered = group.sorted { a, b in
                let (x, y) = (all[a], all[b])
                if (x.verdict == .violation) != (y.verdict == .violation) { return x.verdict == .violation }
                if self.severity(of: x) != self.severity(of: y) { return self.severity(of: x) > self.severity(of: y) }
                return x.occurrence.ordinal < y.occurrence.ordinal
            }
            let chosen = all[ordered[0]]
            let event = chosen.occurrence
            var message = program.message.render(MessageTemplate.Values(
                controller: event.controller ?? "the app", type: event.type.isEmpty ? "the app" : event.type, time: replay.time(event.timestamp),
                callback: event.callback, count: group.count, duration: event.duration, within: limit, rule: program.id,
                values: event.values, fields: event.fields))
            if chosen.verdict == .inconclusive { message += " (The trace ended while this was still pending: inconclusive.)" }
            findings.append(Finding(
                ruleID: program.id, severity: severity(of: chosen), verdict: chosen.verdict, controller: event.controller,
                timestamp: event.timestamp, ordinal: event.ordinal, callback: event.callback, message: message,
                related: chosen.related, source: event.source))
        }
    }

    private func severity(of candidate: Candidate) -> Severity {
        if candidate.verdict == .inconclusive { return inconclusiveSeverity }
        if candidate.escalated, let raised = escalation { return max(severity, raised) }
        return severity
    }
}

extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
