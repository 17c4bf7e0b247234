import TraceModel

/// The standard marks (`MarkName`) that fit a 32-byte record, with the field names each one carries.
///
/// A mark whose fields have exactly these names and types is recorded on the fast path; any other mark is
/// boxed. Decoding gives back fields in the same order `MarkEvent.save`/`edit` use, so a round trip is exact.
@usableFromInline
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

    /// Looks a standard mark up by name: picks the one candidate with the name's length and first and last
    /// bytes, then compares once (string inequality is the expensive case, so it is avoided).
    init?(name: String) {
        let utf8 = name.utf8
        guard let first = utf8.first, let last = utf8.last else { return nil }
        let candidate: StandardMark
        switch (utf8.count, first, last) {
        case (4, UInt8(ascii: "s"), _): candidate = .save
        case (4, UInt8(ascii: "e"), _): candidate = .edit
        case (4, UInt8(ascii: "w"), _): candidate = .work
        case (11, UInt8(ascii: "t"), UInt8(ascii: "t")): candidate = .timerStart
        case (10, UInt8(ascii: "t"), UInt8(ascii: "p")): candidate = .timerStop
        case (12, UInt8(ascii: "o"), _): candidate = .observerAdd
        case (15, UInt8(ascii: "o"), _): candidate = .observerRemove
        case (10, UInt8(ascii: "t"), UInt8(ascii: "t")): candidate = .taskStart
        case (11, UInt8(ascii: "t"), UInt8(ascii: "l")): candidate = .taskCancel
        case (13, UInt8(ascii: "r"), _): candidate = .requestStart
        case (14, UInt8(ascii: "r"), _): candidate = .requestCancel
        case (13, UInt8(ascii: "g"), _): candidate = .geometryRead
        case (15, UInt8(ascii: "a"), _): candidate = .animationStart
        case (16, UInt8(ascii: "a"), _): candidate = .analyticsScreen
        case (8, UInt8(ascii: "t"), _): candidate = .teardown
        default: return nil
        }
        guard candidate.name == name else { return nil }
        self = candidate
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
