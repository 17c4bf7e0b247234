/// A rule that had nothing to check in a trace: none of the facts it needs came (`RuleDescriptor.needs`).
public struct IdleRule: Sendable, Hashable {
    public var ruleID: String
    /// The kinds it needs, none of which the trace had.
    public var missing: [FactKind]

    public init(ruleID: String, missing: [FactKind]) {
        self.ruleID = ruleID
        self.missing = missing
    }

    /// `critical_save_placement: no save marks`.
    public var description: String {
        "\(ruleID): \(absence)"
    }

    /// What the trace lacked, in words; kinds of one sort share their noun: `no save marks`, `no teardown,
    /// timer.stop or request.cancel marks`, `no container events and no willMove(toParent:) or didMove(toParent:)
    /// callbacks`.
    public var absence: String {
        var marks: [String] = []
        var callbacks: [String] = []
        var others: [String] = []
        for kind in missing {
            switch kind {
            case .mark(let name): marks.append(name)
            case .callback(let callback): callbacks.append(callback.name)
            default: others.append(kind.plural)
            }
        }
        let groups = others + [Self.list(marks, "marks"), Self.list(callbacks, "callbacks")].compactMap { $0 }
        return "no \(groups.joined(separator: " and no "))"
    }

    /// `a, b or c NOUN`; `nil` for no names.
    private static func list(_ names: [String], _ noun: String) -> String? {
        guard let last = names.last else { return nil }
        let head = names.dropLast().joined(separator: ", ")
        return head.isEmpty ? "\(last) \(noun)" : "\(head) or \(last) \(noun)"
    }
}
