import Foundation
import TraceModel

/// Writes events as JSON Lines in the schema of `JSONLSchema` (docs/JSONL.md): one object per event, each
/// line ending in `\n`, optionally preceded by a header line.
///
/// The writer builds lines by hand into a byte buffer (no Foundation JSON on this path) and hands the buffer to
/// `sink` whenever it grows past `flushThreshold` bytes, and on `finish()`. It refuses events whose timestamp is
/// earlier than the previous event's, because `JSONLReader` would refuse them.
///
/// Not `Sendable`: one writer belongs to one thread.
public struct JSONLWriter {
    private var buffer: [UInt8] = []
    private let flushThreshold: Int
    private let sink: ([UInt8]) throws -> Void
    private var lastTimestamp: UInt64?
    private var wroteAnything = false
    /// Number of event lines written so far (the header not counted).
    public private(set) var eventCount: UInt64 = 0
    /// Bytes handed to the sink or waiting in the buffer.
    public private(set) var byteCount: UInt64 = 0

    /// - Parameters:
    ///   - flushThreshold: Buffer size in bytes above which the buffer is passed to `sink`.
    ///   - sink: Receives the encoded bytes in order, in chunks of whole lines. Errors it throws propagate out of
    ///     `writeHeader`, `write` and `finish`.
    public init(flushThreshold: Int = 1 << 16, sink: @escaping ([UInt8]) throws -> Void) {
        self.flushThreshold = flushThreshold
        self.sink = sink
        buffer.reserveCapacity(flushThreshold + 1024)
    }

    /// Writes the header line `{"lifetrace": header}`. Allowed only before any event.
    ///
    /// - Throws: `JSONLError` with code `.misplacedHeader` if something was written already; the sink's errors.
    mutating func writeHeader(_ header: JSONLValue) throws {
        guard !wroteAnything else {
            throw JSONLError(.misplacedHeader, "the header must be the first line", file: "", line: 0)
        }
        let start = buffer.count
        buffer.append(contentsOf: #"{"lifetrace":"#.utf8)
        Self.appendValue(header, to: &buffer)
        buffer.append(contentsOf: "}\n".utf8)
        byteCount += UInt64(buffer.count - start)
        wroteAnything = true
        try flushIfNeeded()
    }

    /// Writes one event line.
    ///
    /// - Throws: `JSONLError` with code `.timeWentBackwards` (naming both timestamps) if `event.timestamp` is
    ///   earlier than the previous event's; the sink's errors.
    public mutating func write(_ event: Event) throws {
        if let lastTimestamp, event.timestamp < lastTimestamp {
            throw JSONLError(
                .timeWentBackwards,
                "time goes backwards: t_ns \(event.timestamp) after \(lastTimestamp)",
                file: "",
                line: Int(eventCount) + 1
            )
        }
        lastTimestamp = event.timestamp
        let start = buffer.count
        Self.appendLine(for: event, to: &buffer)
        byteCount += UInt64(buffer.count - start)
        eventCount += 1
        wroteAnything = true
        try flushIfNeeded()
    }

    /// Hands any buffered bytes to the sink. Call once after the last event.
    public mutating func finish() throws {
        if !buffer.isEmpty {
            try sink(buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    private mutating func flushIfNeeded() throws {
        if buffer.count >= flushThreshold { try finish() }
    }

    // MARK: - Encoding

    /// The JSON line for `event`, without the trailing newline.
    public static func line(for event: Event) -> String {
        var bytes: [UInt8] = []
        appendLine(for: event, to: &bytes)
        bytes.removeLast()
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the JSON line for `event`, newline included, to `bytes`.
    public static func appendLine(for event: Event, to bytes: inout [UInt8]) {
        typealias Key = JSONLSchema.Key
        bytes.append(contentsOf: #"{"t_ns":"#.utf8)
        appendUnsigned(event.timestamp, to: &bytes)
        appendKey(Key.event, to: &bytes)
        appendString(JSONLSchema.eventName(of: event.payload), to: &bytes)
        appendKey(Key.phase, to: &bytes)
        appendString(event.phase.description, to: &bytes)
        appendKey(Key.kind, to: &bytes)
        appendString(JSONLSchema.Kind(of: event.payload).rawValue, to: &bytes)

        switch event.payload {
        case .callback(let callback):
            appendSubject(callback.controller, to: &bytes)
            if let animated = callback.animated {
                appendKey(Key.animated, to: &bytes)
                appendBool(animated, to: &bytes)
            }
            switch callback.parent {
            case nil: break
            case .none?:
                appendKey(Key.parent, to: &bytes)
                bytes.append(contentsOf: "null".utf8)
            case .controller(let parent)?:
                appendKey(Key.parent, to: &bytes)
                appendRef(parent, to: &bytes)
            }
            if let size = callback.size {
                appendKey(Key.size, to: &bytes)
                bytes.append(contentsOf: #"{"width":"#.utf8)
                appendDouble(size.width, to: &bytes)
                appendKey(Key.height, to: &bytes)
                appendDouble(size.height, to: &bytes)
                bytes.append(UInt8(ascii: "}"))
            }
        case .container(let container):
            if let subject = event.controller {
                appendKey(Key.controller, to: &bytes)
                appendDisplayName(subject, to: &bytes)
            }
            if let parent = container.container {
                appendKey(Key.container, to: &bytes)
                appendRef(parent, to: &bytes)
            }
            appendKey(Key.controllers, to: &bytes)
            bytes.append(UInt8(ascii: "["))
            for (position, ref) in container.controllers.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                appendRef(ref, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
            if let animated = container.animated {
                appendKey(Key.animated, to: &bytes)
                appendBool(animated, to: &bytes)
            }
            if let style = container.style {
                appendKey(Key.style, to: &bytes)
                appendString(style.name, to: &bytes)
            }
            if let index = container.index {
                appendKey(Key.index, to: &bytes)
                appendSigned(Int64(index), to: &bytes)
            }
        case .app(let app):
            if let scene = app.scene {
                appendKey(Key.scene, to: &bytes)
                appendString(scene, to: &bytes)
            }
        case .swiftUI(let swiftUI):
            if let host = swiftUI.host { appendSubject(host, to: &bytes) }
            appendKey(Key.view, to: &bytes)
            appendString(swiftUI.view, to: &bytes)
        case .mark(let mark):
            if let controller = mark.controller { appendSubject(controller, to: &bytes) }
            appendKey(Key.name, to: &bytes)
            appendString(mark.name, to: &bytes)
            appendKey(Key.fields, to: &bytes)
            bytes.append(UInt8(ascii: "{"))
            for (position, field) in mark.fields.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                appendString(field.name, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                switch field.value {
                case .string(let value): appendString(value, to: &bytes)
                case .int(let value): appendSigned(value, to: &bytes)
                case .bool(let value): appendBool(value, to: &bytes)
                case .double(let value): appendDouble(value, to: &bytes)
                }
            }
            bytes.append(UInt8(ascii: "}"))
        case .recorder(.runStarted(let process)):
            appendKey(Key.process, to: &bytes)
            appendString(process, to: &bytes)
        case .recorder(.eventsDropped(let count)):
            appendKey(Key.count, to: &bytes)
            appendUnsigned(count, to: &bytes)
        case .recorder(.note(let text)):
            appendKey(Key.text, to: &bytes)
            appendString(text, to: &bytes)
        case .unknown(let unknown):
            appendKey(Key.tag, to: &bytes)
            appendUnsigned(UInt64(unknown.tag), to: &bytes)
            appendKey(Key.body, to: &bytes)
            appendString(Data(unknown.body).base64EncodedString(), to: &bytes)
        }

        if let source = event.source {
            appendKey(Key.source, to: &bytes)
            bytes.append(UInt8(ascii: "{"))
            var first = true
            func separator(_ bytes: inout [UInt8]) {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
            }
            if let text = source.text {
                separator(&bytes)
                appendString(Key.text, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                appendString(text, to: &bytes)
            }
            if let file = source.file {
                separator(&bytes)
                appendString(Key.file, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                appendString(file, to: &bytes)
            }
            if let line = source.line {
                separator(&bytes)
                appendString(Key.line, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                appendUnsigned(UInt64(line), to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(contentsOf: "}\n".utf8)
    }

    /// `,"controller":"Name#3","serial":3,"type":"Name"` (+ `,"label":…`).
    private static func appendSubject(_ ref: ControllerRef, to bytes: inout [UInt8]) {
        appendKey(JSONLSchema.Key.controller, to: &bytes)
        appendDisplayName(ref, to: &bytes)
        appendKey(JSONLSchema.Key.serial, to: &bytes)
        appendUnsigned(UInt64(ref.serial), to: &bytes)
        appendKey(JSONLSchema.Key.type, to: &bytes)
        appendString(ref.typeName, to: &bytes)
        if let label = ref.label {
            appendKey(JSONLSchema.Key.label, to: &bytes)
            appendString(label, to: &bytes)
        }
    }

    /// `"Name#3"`: `ref.displayName` as a JSON string. For a controller without a label whose type name needs
    /// no escaping (no byte that may begin a control character `displayName` writes out, no `"` or `\`), the
    /// bytes are written straight from the type name and the serial, without building the name: this runs for
    /// every controller of every exported or listed event. The bytes are the same as `appendString(ref.displayName)`.
    static func appendDisplayName(_ ref: ControllerRef, to bytes: inout [UInt8]) {
        if ref.label == nil {
            var typeName = ref.typeName
            let written = typeName.withUTF8 { utf8 -> Bool in
                for byte in utf8
                where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || byte == 0xC2 || byte == 0xE2 {
                    return false
                }
                bytes.append(UInt8(ascii: "\""))
                bytes.append(contentsOf: utf8)
                return true
            }
            if written {
                bytes.append(UInt8(ascii: "#"))
                appendUnsigned(UInt64(ref.serial), to: &bytes)
                bytes.append(UInt8(ascii: "\""))
                return
            }
        }
        appendString(ref.displayName, to: &bytes)
    }

    /// `{"name":"Name#3","serial":3,"type":"Name"}` (+ `"label"`).
    private static func appendRef(_ ref: ControllerRef, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"name":"#.utf8)
        appendDisplayName(ref, to: &bytes)
        appendKey(JSONLSchema.Key.serial, to: &bytes)
        appendUnsigned(UInt64(ref.serial), to: &bytes)
        appendKey(JSONLSchema.Key.type, to: &bytes)
        appendString(ref.typeName, to: &bytes)
        if let label = ref.label {
            appendKey(JSONLSchema.Key.label, to: &bytes)
            appendString(label, to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// `,"key":`
    private static func appendKey(_ key: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: ","))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: key.utf8)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    private static func appendBool(_ value: Bool, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    static func appendUnsigned(_ value: UInt64, to bytes: inout [UInt8]) {
        if value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)  // 32 bytes of scratch: 20 digits fit
        withUnsafeMutableBytes(of: &digits) { scratch in
            var remaining = value
            var position = scratch.count
            while remaining > 0 {
                position -= 1
                scratch[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[position...]))
        }
    }

    static func appendSigned(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendUnsigned(value.magnitude, to: &bytes)
        } else {
            appendUnsigned(UInt64(value), to: &bytes)
        }
    }

    /// A finite double in its shortest round-trip form, always with a `.` or an exponent so that a reader tells
    /// it from an integer (`3.0`, `1e+20`); a non-finite one as `{"double":"NaN"}`, `"Infinity"`, `"-Infinity"`.
    static func appendDouble(_ value: Double, to bytes: inout [UInt8]) {
        if value.isFinite {
            let text = value.description
            bytes.append(contentsOf: text.utf8)
            if JSONLValue.isIntegerText(text) { bytes.append(contentsOf: ".0".utf8) }
        } else {
            bytes.append(contentsOf: #"{"double":"#.utf8)
            appendString(value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity", to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\t`, … or `\u00XX`, everything else
    /// (non-ASCII included) as UTF-8.
    static func appendString(_ value: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            for position in 0..<utf8.count {
                let byte = utf8[position]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                if runStart < position {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
                }
                runStart = position + 1
                bytes.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
                case 0x0A: bytes.append(UInt8(ascii: "n"))
                case 0x0D: bytes.append(UInt8(ascii: "r"))
                case 0x09: bytes.append(UInt8(ascii: "t"))
                case 0x08: bytes.append(UInt8(ascii: "b"))
                case 0x0C: bytes.append(UInt8(ascii: "f"))
                default:
                    bytes.append(contentsOf: "u00".utf8)
                    bytes.append(hexDigits[Int(byte >> 4)])
                    bytes.append(hexDigits[Int(byte & 0x0F)])
                }
            }
            if runStart < utf8.count {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends any `JSONLValue` (used for the header).
    static func appendValue(_ value: JSONLValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let flag): appendBool(flag, to: &bytes)
        case .number(let text): bytes.append(contentsOf: text.utf8)
        case .string(let text): appendString(text, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                appendValue(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (position, member) in members.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                appendString(member.key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                appendValue(member.value, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }
}
