// Event → JSON line, for the peers that read JSON lines (gzip -6, SQLite, DuckDB) until TraceLog's JSONL export
// is available to the harness. Fields follow the export's schema: `t_ns`, `event`, `phase`, `controller`, then
// the kind's fields.

import TraceModel

enum JSONLines {
    /// Appends `event` as one JSON object and a newline to `output`.
    static func append(_ event: Event, to output: inout [UInt8]) {
        output.append(contentsOf: #"{"t_ns":"#.utf8)
        output.append(contentsOf: String(event.timestamp).utf8)
        func string(_ key: String, _ value: String) {
            output.append(contentsOf: ",\"\(key)\":\"".utf8)
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    output.append(UInt8(ascii: "\\"))
                    output.append(byte)
                case 0..<0x20:
                    output.append(contentsOf: "\\u00".utf8)
                    output.append(contentsOf: (byte < 0x10 ? "0" : "").utf8)
                    output.append(contentsOf: String(byte, radix: 16).utf8)
                default:
                    output.append(byte)
                }
            }
            output.append(UInt8(ascii: "\""))
        }
        func raw(_ key: String, _ value: String) {
            output.append(contentsOf: ",\"\(key)\":\(value)".utf8)
        }
        switch event.payload {
        case .callback(let callback):
            string("event", callback.callback.name)
            string("phase", callback.phase.description)
            string("controller", callback.controller.displayName)
            if let animated = callback.animated { raw("animated", animated ? "true" : "false") }
            if let parent = callback.parent {
                if let controller = parent.controller { string("parent", controller.displayName) } else { raw("parent", "null") }
            }
        case .container(let container):
            string("event", container.operation.description)
            string("phase", container.phase.description)
            if let controller = event.controller { string("controller", controller.displayName) }
            if let owner = container.container { string("container", owner.displayName) }
            output.append(contentsOf: #","controllers":["#.utf8)
            for (index, controller) in container.controllers.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                output.append(contentsOf: "\"\(controller.displayName)\"".utf8)
            }
            output.append(UInt8(ascii: "]"))
            if let animated = container.animated { raw("animated", animated ? "true" : "false") }
        case .app(let app):
            string("event", app.transition.name)
            string("phase", app.phase.description)
            if let scene = app.scene { string("scene", scene) }
        case .mark(let mark):
            string("event", mark.name)
            string("phase", mark.phase.description)
            if let controller = mark.controller { string("controller", controller.displayName) }
            for field in mark.fields {
                switch field.value {
                case .string(let value): string(field.name, value)
                case .int(let value): raw(field.name, String(value))
                case .bool(let value): raw(field.name, value ? "true" : "false")
                case .double(let value): raw(field.name, String(value))
                }
            }
        case .swiftUI(let swiftUI):
            string("event", swiftUI.action.description)
            string("phase", "instant")
            if let host = swiftUI.host { string("controller", host.displayName) }
            string("view", swiftUI.view)
        case .recorder(let recorder):
            string("event", "recorder")
            string("phase", "instant")
            string("detail", "\(recorder)")
        case .unknown(let unknown):
            string("event", "unknown")
            string("phase", "instant")
            raw("tag", String(unknown.tag))
        }
        output.append(contentsOf: "}\n".utf8)
    }
}
