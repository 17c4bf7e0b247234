import TraceModel

extension IdleRule {
    /// What would give the rule something to check, for the first kind it misses: `add save marks with
    /// 'lifetrace import --mark' or the recorder's save(key:critical:)`.
    public var hint: String {
        guard let kind = missing.first else { return "" }
        return Self.hint(for: kind)
    }

    /// How a trace comes to hold facts of `kind`, in words for the audit's report.
    public static func hint(for kind: FactKind) -> String {
        switch kind {
        case .mark(let name):
            let call: String
            switch name {
            case MarkName.save: call = "save(key:critical:)"
            case MarkName.edit: call = "edit(key:)"
            default: call = "mark(\"\(name)\", …)"
            }
            return "add \(name) marks with 'lifetrace import --mark' or the recorder's \(call)"
        case .anyMark:
            return "add marks with 'lifetrace import --mark' or the recorder's mark API"
        case .callback:
            return "log the callback (import reads its name in a print line), or record through LifetraceUIKit"
        case .resourceStarted, .resourceStopped:
            return "add timer/observer/task/request marks with 'lifetrace import --mark' or the recorder's mark API"
        case .removed, .container, .deinitialized, .disappearanceCancelled:
            return "container operations and deinits come from the recorder (LifetraceUIKit) or the simulator; console logs seldom print them"
        case .exitCompleted, .app:
            return "app and scene events come from the recorder, or from logged delegate callbacks"
        case .swiftUI:
            return "SwiftUI onAppear/onDisappear come from the recorder's SwiftUI modifier"
        case .runStarted:
            return "only a trace of several recording runs has them"
        }
    }
}
