import TraceModel

extension MarkEvent {
    /// The mark's name as the views show it: its name and key, a critical save called so, a begin/end mark's
    /// phase: `save (critical) draft`, `edit draft`, `timer.start`, `work (begin)`.
    var viewName: String {
        var text = name
        if name == MarkName.save, isCritical { text = "save (critical)" }
        if let key { text += " " + key }
        if phase != .instant { text += " (\(phase))" }
        return text
    }
}
