/// How rules name the resources marks start and stop (`timer_under_sheet`, `observer_not_removed`).
enum MarkOwner {
    /// The identifier a resource mark carries: its `id` field, else its `name` field, else "" (unnamed).
    static func identifier(_ mark: MarkFact) -> String {
        (mark[field: "id"] ?? mark[field: "name"])?.description ?? ""
    }

    /// `'refresh'`, or `(unnamed)` for "".
    static func quoted(_ identifier: String) -> String {
        identifier.isEmpty ? "(unnamed)" : "'\(identifier)'"
    }
}
