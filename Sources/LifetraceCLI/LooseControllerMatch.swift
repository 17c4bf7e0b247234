import TraceModel

/// A `--controller NAME` (`events`, `timeline`; `events --visible NAME`) that names no controller of the trace
/// exactly, matched instead to the trace's type names that start with NAME, or else that contain it ignoring case:
/// `--controller NoteEditor` selects every `NoteEditorViewController`. Only names the trace has are matched, so
/// nothing is ever selected or suggested that the trace does not hold.
struct LooseControllerMatch: Equatable {
    /// NAME as given.
    let name: String
    /// The type names it matches, in order of first appearance in the trace.
    let types: [String]
    /// `prefix` or `substring`.
    let how: String

    /// The loose match of `name` among the controllers `refs`, or `nil` when no type name starts with it or
    /// contains it (ignoring case). Call it only for a name that matches none of `refs` exactly.
    static func find(_ name: String, among refs: [ControllerRef]) -> LooseControllerMatch? {
        guard !name.isEmpty else { return nil }
        var seen = Set<String>()
        let types = refs.map(\.typeName).filter { !$0.isEmpty && seen.insert($0).inserted }
        let prefixed = types.filter { $0.hasPrefix(name) }
        if !prefixed.isEmpty { return LooseControllerMatch(name: name, types: prefixed, how: "prefix") }
        let lowered = name.lowercased()
        let containing = types.filter { $0.lowercased().contains(lowered) }
        if !containing.isEmpty { return LooseControllerMatch(name: name, types: containing, how: "substring") }
        return nil
    }

    /// `lifetrace events: note: --controller 'NoteEditor' names no controller exactly; it matches the type
    /// NoteEditorViewController by prefix` (or `… matches 2 types by substring: A, B`).
    func note(command: String, option: String = "--controller") -> String {
        let what = types.count == 1 ? "the type \(types[0])" : "\(types.count) types"
        let list = types.count == 1 ? "" : ": " + types.joined(separator: ", ")
        return "lifetrace \(command): note: \(option) '\(name)' names no controller exactly; it matches \(what) by \(how)\(list)"
    }

    /// A display name of the trace to show as an example in a hint (`NoteEditorViewController#3`), or `Editor#2`
    /// for a trace without controllers.
    static func exampleName(among refs: [ControllerRef]) -> String {
        refs.first(where: { !$0.typeName.isEmpty })?.displayName ?? refs.first?.displayName ?? "Editor#2"
    }
}
