import TraceModel

/// The standard marks (`MarkName`) that fit a 32-byte record, with the field names each one carries.
///
/// A mark whose fields have exactly these names and types is recorded on the fast path; any other mark is
/// boxed. Decoding gives back fields in the same order `MarkEvent.save`/`edit` use, so a round trip is exact.
enum StandardMark: UInt8, CaseIterable {
    case save = 0
    case edit
    case timerStart
    case timerStop
    case observerAdd
    case observerRemove
    case taskStart
    case taskCancel
    case requestStart
    case requestCancel
    case geometryRead
    case animationStart
    case analyticsScreen
    case teardown
    case work

    var name: String {
        switch self {
        case .save: MarkName.save
        case .edit: MarkName.edit
        case .timerStart: MarkName.timerStart
        case .timerStop: MarkName.timerStop
        case .observerAdd: MarkName.observerAdd
        case .observerRemove: MarkName.observerRemove
        case .taskStart: MarkName.taskStart
        case .taskCancel: MarkName.taskCancel
        case .requestStart: MarkName.requestStart
        case .requestCancel: MarkName.requestCancel
        case .geometryRead: MarkName.geometryRead
        case .animationStart: MarkName.animationStart
        case .analyticsScreen: MarkName.analyticsScreen
        case .teardown: MarkName.teardown
        case .work: MarkName.work
        }
    }

    /// The name of the one string field (`key`, `id`, `name`, `what`, `label`); `nil` for `geometry.read`.
    var stringField: String? {
        switch self {
        case .save, .edit: "key"
        case .timerStart, .timerStop, .taskStart, .taskCancel, .requestStart, .requestCancel: "id"
        case .observerAdd, .observerRemove, .animationStart, .analyticsScreen: "name"
        case .teardown: "what"
        case .work: "label"
        case .geometryRead: nil
        }
    }

    init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    func fields(string: String?, critical: Bool, first: UInt64, second: UInt64) -> [MarkField] {
        switch self {
        case .geometryRead:
            return [
                MarkField("width", .double(Double(bitPattern: first))),
                MarkField("height", .double(Double(bitPattern: second))),
            ]
        case .save:
            return [MarkField("key", .string(string ?? "")), MarkField("critical", .bool(critical))]
        default:
            guard let string, let field = stringField else { return [] }
            return [MarkField(field, .string(string))]
        }
    }
}
