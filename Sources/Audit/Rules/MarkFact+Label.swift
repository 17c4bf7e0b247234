import TraceModel

extension MarkFact {
    /// The mark as findings name it: its name and the value of its identifying field, e.g. `task.cancel 'download'`,
    /// `teardown 'playback'`, `analytics.screen 'feed'` (the first of `id`, `name`, `what`, `key`, `label` it has,
    /// else its first string field; the bare name when it has none).
    var label: String {
        for field in ["id", "name", "what", "key", "label"] {
            if let value = self[field: field]?.stringValue { return "\(name) '\(value)'" }
        }
        if let value = fields.lazy.compactMap({ $0.value.stringValue }).first { return "\(name) '\(value)'" }
        return name
    }

    /// For a standard resource stop (`timer.stop`, `observer.remove`, `task.cancel`, `request.cancel`): the mark
    /// name and identifying value of the start it undoes (`task.start`, `download`); `nil` for any other mark.
    var undoneStart: StartKey? {
        switch name {
        case MarkName.timerStop: StartKey(name: MarkName.timerStart, id: self[field: "id"]?.stringValue ?? "")
        case MarkName.observerRemove: StartKey(name: MarkName.observerAdd, id: self[field: "name"]?.stringValue ?? "")
        case MarkName.taskCancel: StartKey(name: MarkName.taskStart, id: self[field: "id"]?.stringValue ?? "")
        case MarkName.requestCancel: StartKey(name: MarkName.requestStart, id: self[field: "id"]?.stringValue ?? "")
        default: nil
        }
    }

    /// For a standard resource start (`timer.start`, `observer.add`, `task.start`, `request.start`): its name and
    /// identifying value, in the form `undoneStart` gives; `nil` for any other mark.
    var resourceStart: StartKey? {
        switch name {
        case MarkName.timerStart, MarkName.taskStart, MarkName.requestStart: StartKey(name: name, id: self[field: "id"]?.stringValue ?? "")
        case MarkName.observerAdd: StartKey(name: name, id: self[field: "name"]?.stringValue ?? "")
        default: nil
        }
    }

    /// A resource start's mark name and identifying value.
    struct StartKey: Hashable {
        var name: String
        var id: String
    }
}
