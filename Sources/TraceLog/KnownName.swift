import TraceModel

/// Strings the fold and the rules look for, recognised once per frame when the frame's string table gets them:
/// the standard mark names (`MarkName`, in `MarkName.standard`'s order) and the field names they use. A record
/// or field holds the code, so a consumer compares a byte instead of a string.
public enum KnownName: UInt8, Sendable, Hashable, CaseIterable {
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
    /// Field names.
    case key
    case critical
    case id
    case name
    case width
    case height
    case what
    case label
    /// Any other string.
    case other = 0xFF

    /// The code of `string`.
    public init(_ string: String) {
        switch string {
        case MarkName.save: self = .save
        case MarkName.edit: self = .edit
        case MarkName.timerStart: self = .timerStart
        case MarkName.timerStop: self = .timerStop
        case MarkName.observerAdd: self = .observerAdd
        case MarkName.observerRemove: self = .observerRemove
        case MarkName.taskStart: self = .taskStart
        case MarkName.taskCancel: self = .taskCancel
        case MarkName.requestStart: self = .requestStart
        case MarkName.requestCancel: self = .requestCancel
        case MarkName.geometryRead: self = .geometryRead
        case MarkName.animationStart: self = .animationStart
        case MarkName.analyticsScreen: self = .analyticsScreen
        case MarkName.teardown: self = .teardown
        case MarkName.work: self = .work
        case "key": self = .key
        case "critical": self = .critical
        case "id": self = .id
        case "name": self = .name
        case "width": self = .width
        case "height": self = .height
        case "what": self = .what
        case "label": self = .label
        default: self = .other
        }
    }

    /// The string the code stands for (`nil` for `.other`).
    public var string: String? {
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
        case .key: "key"
        case .critical: "critical"
        case .id: "id"
        case .name: "name"
        case .width: "width"
        case .height: "height"
        case .what: "what"
        case .label: "label"
        case .other: nil
        }
    }
}
