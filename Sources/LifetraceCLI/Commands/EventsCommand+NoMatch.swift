import ArgumentParsing
import TraceModel

extension EventsCommand {
    /// What `lifetrace events` says on standard error when it lists nothing (it then exits 1, as grep does when no
    /// line matches): which options left nothing, or that a `--controller` name is no controller of the trace,
    /// with the nearest controller name when one is close.
    ///
    /// - Parameters:
    ///   - arguments: The parsed command line (for `--controller`, `--from`, `--to`, `--kind`).
    ///   - input: The trace, scanned again (every event) only when a `--controller` name matched nothing, to tell
    ///     a name the trace does not have from one the other options filtered away.
    ///   - controllers: The `--controller` names, loose ones replaced by the type names they matched.
    static func nothingListed(_ arguments: ParsedArguments, controllers: [String], input: TraceInput) throws -> String {
        // `--from 60s`, `--kind deinit --kind save`: the options that narrow the listing, as given.
        let limits = ["from", "to", "kind"].flatMap { option in arguments.allValues(option).map { "--\(option) \($0)" } }
        guard !controllers.isEmpty else {
            guard !limits.isEmpty else { return input.noEventsText }
            return "no event matched \(limits.joined(separator: " "))"
        }
        let names = controllers.map { "'\($0)'" }.joined(separator: ", ")
        let known = try controllerNames(in: input)
        let unknown = controllers.filter { name in !known.contains(where: { ControllerName(name).matches($0) }) }
        guard !unknown.isEmpty else {
            // The names are right: the other options leave nothing of them.
            return "no event matched --controller \(names)\(limits.isEmpty ? "" : " within \(limits.joined(separator: " "))")"
        }
        let suggestions = unknown.compactMap { nearestController(to: $0, among: known) }
        let hint = suggestions.isEmpty ? "" : " (did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?)"
        return "no event matched --controller \(names): no controller of the trace has \(unknown.count == 1 ? "that name" : "those names")\(hint); "
            + "use a display name such as \(LooseControllerMatch.exampleName(among: known)), or a type name ('lifetrace state TRACE' lists them)"
    }

    /// Every controller an event of `input` names (`Event.controllers`), in order of first appearance.
    static func controllerNames(in input: TraceInput) throws -> [ControllerRef] {
        var seen = Set<ControllerRef>()
        var ordered: [ControllerRef] = []
        try input.scan(fromOffset: nil) { _, event, _ in
            for ref in event.controllers where seen.insert(ref).inserted { ordered.append(ref) }
            return true
        }
        return ordered
    }

    /// The type name or display name nearest to `name` (`Spelling`), or `nil`.
    static func nearestController(to name: String, among refs: [ControllerRef]) -> String? {
        var candidates: [String] = []
        var seen = Set<String>()
        for ref in refs {
            for candidate in [ref.typeName, ref.displayName] where !candidate.isEmpty && seen.insert(candidate).inserted {
                candidates.append(candidate)
            }
        }
        return Spelling.nearest(to: name, among: candidates)
    }
}
