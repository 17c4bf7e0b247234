import TraceModel

/// Builds instant-only traces the way the console importer does (one event per log line, marks after the
/// callback line they follow), from lines such as:
///
///     5.903777 NoteEditorViewController viewWillDisappear
///     5.904102 NoteEditorViewController save key=draft critical=true
///     10.214475 app didEnterBackground scene=main
///     9.381 StoryViewController didMove(toParent:) nil
///     3.499 StoryViewController didMove(toParent:) UINavigationController
struct InstantLog {
    private(set) var events: [Event] = []
    private var serials: [String: UInt32] = [:]

    init(_ text: String) {
        for (index, raw) in text.split(separator: "\n").enumerated() {
            let words = raw.split(separator: " ").map(String.init)
            guard words.count >= 3, let seconds = Double(words[0]) else { continue }
            let timestamp = UInt64((seconds * 1e9).rounded())
            let source = EventSource(text: String(raw), file: "case.log", line: UInt32(index + 1))
            if words[1] == "app" {
                var scene: String?
                if words.count > 3, words[3].hasPrefix("scene=") { scene = String(words[3].dropFirst(6)) }
                events.append(Event(timestamp: timestamp, .app(AppEvent(AppTransition(name: words[2])!, scene: scene)), source: source))
                continue
            }
            let controller = ref(words[1])
            if let callback = Callback(name: words[2]) {
                var parent: ParentArgument?
                if words.count > 3 { parent = words[3] == "nil" ? ParentArgument.none : .controller(ref(words[3])) }
                events.append(Event(timestamp: timestamp, .callback(CallbackEvent(callback, .instant, controller: controller, parent: parent)), source: source))
            } else if let operation = ContainerOperation(name: words[2]) {
                events.append(Event(timestamp: timestamp, .container(ContainerEvent(operation, container: words.count > 3 ? ref(words[3]) : nil, controllers: [controller])), source: source))
            } else {
                let fields = words.dropFirst(3).map { word -> MarkField in
                    let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
                    return MarkField(parts[0], FieldValue(parsing: parts.count > 1 ? parts[1] : ""))
                }
                events.append(Event(timestamp: timestamp, .mark(MarkEvent(words[2], controller: controller, fields: fields)), source: source))
            }
        }
    }

    private mutating func ref(_ name: String) -> ControllerRef {
        var typeName = name
        var label: String?
        if let open = name.firstIndex(of: "<"), name.hasSuffix(">") {
            typeName = String(name[..<open])
            label = String(name[name.index(after: open)..<name.index(before: name.endIndex)])
        }
        if let serial = serials[name] { return ControllerRef(serial: serial, typeName: typeName, label: label) }
        let serial = UInt32(serials.count + 1)
        serials[name] = serial
        return ControllerRef(serial: serial, typeName: typeName, label: label)
    }
}
