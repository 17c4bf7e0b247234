extension Event {
    /// A one-line description of what happened, without the time: for example
    /// `NoteEditorViewController#2 viewWillDisappear begin animated=true` or
    /// `mark save key=draft critical=true @ NoteEditorViewController#2`. Control characters in names and values are
    /// written out (`String.controlCharactersEscaped`), so the summary is always one line.
    public var summary: String {
        switch payload {
        case .callback(let event):
            var text = "\(event.controller.displayName) \(event.callback.name)"
            if event.phase != .instant { text += " \(event.phase)" }
            if let animated = event.animated { text += " animated=\(animated)" }
            switch event.parent {
            case .none?: text += " parent=nil"
            case .controller(let parent)?: text += " parent=\(parent.displayName)"
            case nil: break
            }
            if let size = event.size { text += " size=\(size.width)x\(size.height)" }
            return text
        case .container(let event):
            var text = event.operation.name
            if event.phase != .instant { text += " \(event.phase)" }
            if let container = event.container { text += " container=\(container.displayName)" }
            if !event.controllers.isEmpty {
                text += " " + event.controllers.map(\.displayName).joined(separator: ",")
            }
            if let animated = event.animated { text += " animated=\(animated)" }
            if let style = event.style { text += " style=\(style.name)" }
            if let index = event.index { text += " index=\(index)" }
            return text
        case .app(let event):
            var text = event.delegateMethodName
            if event.phase != .instant { text += " \(event.phase)" }
            if let scene = event.scene { text += " scene=\(scene.controlCharactersEscaped)" }
            return text
        case .swiftUI(let event):
            var text = "\(event.view.controlCharactersEscaped).\(event.action)"
            if let host = event.host { text += " host=\(host.displayName)" }
            return text
        case .mark(let event):
            var text = "mark \(event.name.controlCharactersEscaped)"
            if event.phase != .instant { text += " \(event.phase)" }
            for field in event.fields { text += " \(field.name.controlCharactersEscaped)=\("\(field.value)".controlCharactersEscaped)" }
            if let controller = event.controller { text += " @ \(controller.displayName)" }
            return text
        case .recorder(let event):
            switch event {
            case .runStarted(let process): return "recorder run started \(process.controlCharactersEscaped)"
            case .eventsDropped(let count): return "recorder dropped \(count) events"
            case .note(let text): return "note \(text.controlCharactersEscaped)"
            }
        case .unknown(let event):
            return "unknown event tag \(event.tag) (\(event.body.count) bytes)"
        }
    }
}
