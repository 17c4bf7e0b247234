import TraceModel

/// Formats events as the callback order people read: one line per callback (or mark, container operation,
/// app transition, SwiftUI action), indented by nesting, with the time in seconds.
///
/// ```
/// ── line 14: begin-swipe-back nav
///    5.900 s  ▸ interactiveTransitionBegin container=UINavigationController#1 …
///    5.900 s  NoteEditorViewController#3.viewWillDisappear(animated: true)
///    5.900 s    • save key=draft critical=true
/// ```
///
/// Begin events open a level, end events close it and print nothing; instants print at the current level.
public enum CallbackOrderPrinter {
    /// - Parameters:
    ///   - events: Events in recorded order.
    ///   - steps: Optional scenario step markers; each prints a `── line N: COMMAND` header before its events.
    /// - Returns: The lines, without newlines.
    public static func lines(_ events: [Event], steps: [StepMarker] = []) -> [String] {
        var lines: [String] = []
        var depth = 0
        var stepIndex = 0
        let width = events.last.map { TimeText.seconds($0.timestamp).count } ?? 7
        func header(_ marker: StepMarker) {
            lines.append("── line \(marker.line): \(marker.text)")
        }
        for (index, event) in events.enumerated() {
            while stepIndex < steps.count, steps[stepIndex].eventIndex <= index {
                header(steps[stepIndex])
                stepIndex += 1
            }
            if event.phase == .end {
                depth = max(0, depth - 1)
                continue
            }
            let time = TimeText.seconds(event.timestamp)
            let padding = String(repeating: " ", count: max(0, width - time.count))
            let indent = String(repeating: "  ", count: depth)
            lines.append("\(padding)\(time)  \(indent)\(text(of: event, nested: depth > 0))")
            if event.phase == .begin { depth += 1 }
        }
        while stepIndex < steps.count {
            header(steps[stepIndex])
            stepIndex += 1
        }
        return lines
    }

    /// The text of one event: `Type#n.callback(arguments)`, `• mark fields`, `▸ container operation`,
    /// `◆ app transition`, `◇ SwiftUI action`.
    public static func text(of event: Event, nested: Bool) -> String {
        switch event.payload {
        case .callback(let callback):
            let name = callback.controller.displayName
            switch callback.callback {
            case .initialize, .deinitialize:
                return "\(name).\(callback.callback.name)"
            case .willMoveToParent, .didMoveToParent:
                let base = callback.callback == .willMoveToParent ? "willMove" : "didMove"
                let parent = callback.parent?.controller?.displayName ?? "nil"
                return "\(name).\(base)(toParent: \(parent))"
            case .viewWillTransition:
                let size = callback.size.map { "\(number($0.width))x\(number($0.height))" } ?? "?"
                return "\(name).viewWillTransition(to: \(size))"
            default:
                if let animated = callback.animated {
                    return "\(name).\(callback.callback.name)(animated: \(animated))"
                }
                return "\(name).\(callback.callback.name)()"
            }
        case .mark(let mark):
            var text = "• \(mark.name)"
            for field in mark.fields { text += " \(field.name)=\(field.value)" }
            if !nested, let controller = mark.controller { text += " (in \(controller.displayName))" }
            return text
        case .container:
            return "▸ " + event.summary
        case .app(let app):
            var text = "◆ " + app.delegateMethodName
            if let scene = app.scene { text += " scene=\(scene)" }
            return text
        case .swiftUI:
            return "◇ " + event.summary
        case .recorder, .unknown:
            return event.summary
        }
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
