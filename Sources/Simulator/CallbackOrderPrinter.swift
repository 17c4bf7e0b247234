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
        var stream = CallbackOrderStream(timeWidth: events.last.map { TimeText.seconds($0.timestamp).count } ?? 7)
        var stepIndex = 0
        for (index, event) in events.enumerated() {
            while stepIndex < steps.count, steps[stepIndex].eventIndex <= index {
                lines.append(header(steps[stepIndex]))
                stepIndex += 1
            }
            if let line = stream.line(for: event) { lines.append(line) }
        }
        while stepIndex < steps.count {
            lines.append(header(steps[stepIndex]))
            stepIndex += 1
        }
        return lines
    }

    /// `── line N: COMMAND`
    public static func header(_ marker: StepMarker) -> String {
        "── line \(marker.line): \(marker.text)"
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

/// The incremental form of `CallbackOrderPrinter.lines`: one event at a time, for output that must not wait
/// for (or hold) the whole trace.
public struct CallbackOrderStream: Sendable {
    private var depth = 0
    private let timeWidth: Int

    /// - Parameter timeWidth: The width the time column is padded to (`12.480 s` is 8).
    public init(timeWidth: Int = 10) {
        self.timeWidth = timeWidth
    }

    /// The line for `event`, or `nil` for an `end` (which closes a nesting level).
    public mutating func line(for event: Event) -> String? {
        if event.phase == .end {
            depth = max(0, depth - 1)
            return nil
        }
        let time = TimeText.seconds(event.timestamp)
        let padding = String(repeating: " ", count: max(0, timeWidth - time.count))
        let indent = String(repeating: "  ", count: depth)
        let text = CallbackOrderPrinter.text(of: event, nested: depth > 0)
        if event.phase == .begin { depth += 1 }
        return "\(padding)\(time)  \(indent)\(text)"
    }
}
