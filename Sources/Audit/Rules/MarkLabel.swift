import TraceLog
import TraceModel

/// `MarkEvent.label` of a mark, read from its record and kept in parts (the text is built only for a finding):
/// the mark's name and the first of its `id`, `name`, `what`, `key`, `label` fields that holds a string; a mark
/// that has none of them is labelled from the whole mark (built from the record then).
enum MarkLabel {
    case parts(name: String, value: String)
    case whole(String)

    /// The label of the mark `record` (kind `.mark`).
    init(_ record: EventRecord, _ context: EventContext) {
        for code in Self.identifying {
            if case .string(let value)? = context.field(code, of: record) {
                self = .parts(name: context.string(of: record) ?? "", value: value)
                return
            }
        }
        self = .whole(context.mark(of: record)?.label ?? "")
    }

    /// The fields `MarkEvent.label` tries, in order.
    private static let identifying: [KnownName] = [.id, .name, .what, .key, .label]

    /// The text `MarkEvent.label` gives, e.g. `task.cancel 'download'`.
    var text: String {
        switch self {
        case .parts(let name, let value): "\(name) '\(value)'"
        case .whole(let label): label
        }
    }
}
