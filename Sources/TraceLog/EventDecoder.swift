import TraceModel

/// Decodes one frame's raw payload back into events (the inverse of `EventEncoder`).
///
/// Errors are `TraceError` `.corruptFrame` with the ordinal of the event that failed; the caller adds the
/// file and the frame's offset.
struct EventDecoder {
    private var input: ByteReader
    private var strings: [String] = []
    private var controllers: [ControllerRef] = []
    private var previousTimestamp: UInt64
    private var ordinal: UInt64

    init(payload: [UInt8], firstTimestamp: UInt64, firstOrdinal: UInt64) {
        self.input = ByteReader(payload)
        self.previousTimestamp = firstTimestamp
        self.ordinal = firstOrdinal
    }

    /// Decodes every event of the payload.
    ///
    /// - Parameters:
    ///   - expectedCount: The frame header's event count; the payload must hold exactly that many.
    ///   - lastTimestamp: The frame header's last timestamp; the last event must have it.
    static func decode(
        payload: [UInt8], firstTimestamp: UInt64, lastTimestamp: UInt64, firstOrdinal: UInt64, expectedCount: Int
    ) throws -> [Event] {
        var decoder = EventDecoder(payload: payload, firstTimestamp: firstTimestamp, firstOrdinal: firstOrdinal)
        var events: [Event] = []
        events.reserveCapacity(expectedCount)
        while !decoder.input.isAtEnd {
            guard events.count < expectedCount else {
                throw decoder.failure("payload holds more events than the frame header's \(expectedCount)")
            }
            events.append(try decoder.next())
        }
        guard events.count == expectedCount else {
            throw decoder.failure("payload holds \(events.count) events, the frame header says \(expectedCount)")
        }
        if let last = events.last, last.timestamp != lastTimestamp {
            throw decoder.failure("last event's timestamp \(last.timestamp) differs from the frame header's \(lastTimestamp)")
        }
        return events
    }

    private func failure(_ message: String) -> TraceError {
        TraceError(.corruptFrame, "event \(ordinal) (payload byte \(input.position)): \(message)", eventOrdinal: ordinal)
    }

    private mutating func next() throws -> Event {
        let tagByte = try require(input.readUInt8(), "event tag")
        let delta = try require(input.readVarint(), "timestamp delta")
        let (timestamp, overflow) = previousTimestamp.addingReportingOverflow(delta)
        guard !overflow else { throw failure("timestamp overflows 64 bits") }
        let payload: EventPayload
        switch tagByte & EventTag.kindMask {
        case EventTag.callback: payload = .callback(try readCallback())
        case EventTag.container: payload = .container(try readContainer())
        case EventTag.app:
            let transition = try readEnum(AppTransition.self, "app transition")
            let phase = try readEnum(Phase.self, "phase")
            payload = .app(AppEvent(transition, phase, scene: try readString()))
        case EventTag.swiftUI:
            let action = try readEnum(SwiftUIEvent.Action.self, "SwiftUI action")
            let view = try readRequiredString("SwiftUI view name")
            payload = .swiftUI(SwiftUIEvent(action, view: view, host: try readController()))
        case EventTag.mark: payload = .mark(try readMark())
        case EventTag.recorder:
            switch try require(input.readUInt8(), "recorder event kind") {
            case 0: payload = .recorder(.runStarted(process: try readRequiredString("process")))
            case 1: payload = .recorder(.eventsDropped(count: try require(input.readVarint(), "dropped count")))
            case 2: payload = .recorder(.note(try readRequiredString("note")))
            case let other: throw failure("unknown recorder event kind \(other)")
            }
        case EventTag.escape:
            let tag = try require(input.readUInt8(), "escaped kind")
            let length = try require(input.readVarint(), "escaped body length")
            guard length <= UInt64(input.remaining) else { throw failure("escaped body of \(length) bytes runs past the payload") }
            payload = .unknown(UnknownEvent(tag: tag, body: try require(input.readBytes(Int(length)), "escaped body")))
        case let other:
            throw failure("unknown event tag \(other) (a writer must escape kinds unknown to format 1.0)")
        }
        var source: EventSource?
        if tagByte & EventTag.hasSource != 0 {
            let presence = try require(input.readUInt8(), "source presence bits")
            guard presence & ~7 == 0 else { throw failure("reserved source presence bits set: \(presence)") }
            var value = EventSource()
            if presence & 1 != 0 { value.text = try readRequiredString("source text") }
            if presence & 2 != 0 { value.file = try readRequiredString("source file") }
            if presence & 4 != 0 {
                let line = try require(input.readVarint(), "source line")
                guard line <= UInt64(UInt32.max) else { throw failure("source line \(line) exceeds 32 bits") }
                value.line = UInt32(line)
            }
            source = value
        }
        previousTimestamp = timestamp
        ordinal += 1
        return Event(timestamp: timestamp, payload, source: source)
    }

    private mutating func readCallback() throws -> CallbackEvent {
        let callback = try readEnum(Callback.self, "callback")
        let bits = try require(input.readUInt8(), "callback flags")
        guard bits & 0x80 == 0 else { throw failure("reserved callback flag bit set: \(bits)") }
        let phase = try phase(bits & 3)
        let animated = try optionalBool((bits >> 2) & 3)
        let controller = try readRequiredController("callback controller")
        var parent: ParentArgument?
        switch (bits >> 4) & 3 {
        case 0: parent = nil
        case 1: parent = ParentArgument.none
        case 2: parent = .controller(try readRequiredController("parent controller"))
        default: throw failure("invalid parent presence 3")
        }
        var size: Size?
        if bits & (1 << 6) != 0 {
            let width = try require(input.readUInt64(), "size width")
            let height = try require(input.readUInt64(), "size height")
            size = Size(width: Double(bitPattern: width), height: Double(bitPattern: height))
        }
        return CallbackEvent(callback, phase, controller: controller, animated: animated, parent: parent, size: size)
    }

    private mutating func readContainer() throws -> ContainerEvent {
        let operation = try readEnum(ContainerOperation.self, "container operation")
        let bits = try require(input.readUInt8(), "container flags")
        guard bits & 0xC0 == 0 else { throw failure("reserved container flag bits set: \(bits)") }
        let phase = try phase(bits & 3)
        let animated = try optionalBool((bits >> 2) & 3)
        let container = try readController()
        let count = try require(input.readVarint(), "controller count")
        guard count <= UInt64(input.remaining) else { throw failure("controller count \(count) exceeds the payload") }
        var list: [ControllerRef] = []
        list.reserveCapacity(Int(count))
        for _ in 0..<count { list.append(try readRequiredController("container subject")) }
        var style: ModalPresentationStyle?
        if bits & (1 << 4) != 0 { style = try readEnum(ModalPresentationStyle.self, "presentation style") }
        var index: Int?
        if bits & (1 << 5) != 0 {
            let value = try require(input.readSignedVarint(), "tab index")
            guard let narrowed = Int(exactly: value) else { throw failure("tab index \(value) out of range") }
            index = narrowed
        }
        return ContainerEvent(
            operation, phase, container: container, controllers: list, animated: animated, style: style, index: index
        )
    }

    private mutating func readMark() throws -> MarkEvent {
        let name = try readRequiredString("mark name")
        let phase = try readEnum(Phase.self, "phase")
        let controller = try readController()
        let count = try require(input.readVarint(), "field count")
        guard count <= UInt64(input.remaining) else { throw failure("field count \(count) exceeds the payload") }
        var fields: [MarkField] = []
        fields.reserveCapacity(Int(count))
        for _ in 0..<count {
            let fieldName = try readRequiredString("field name")
            let value: FieldValue
            switch try require(input.readUInt8(), "field type") {
            case 0: value = .string(try readRequiredString("field value"))
            case 1: value = .int(try require(input.readSignedVarint(), "integer field"))
            case 2: value = .bool(false)
            case 3: value = .bool(true)
            case 4: value = .double(Double(bitPattern: try require(input.readUInt64(), "double field")))
            case let other: throw failure("unknown field type \(other)")
            }
            fields.append(MarkField(fieldName, value))
        }
        return MarkEvent(name, phase, controller: controller, fields: fields)
    }

    private func phase(_ raw: UInt8) throws -> Phase {
        guard let phase = Phase(rawValue: raw) else { throw failure("invalid phase \(raw)") }
        return phase
    }

    private func optionalBool(_ raw: UInt8) throws -> Bool? {
        switch raw {
        case 0: return nil
        case 1: return false
        case 2: return true
        default: throw failure("invalid optional boolean \(raw)")
        }
    }

    private mutating func readEnum<E: RawRepresentable>(_ type: E.Type, _ what: String) throws -> E where E.RawValue == UInt8 {
        let raw = try require(input.readUInt8(), what)
        guard let value = E(rawValue: raw) else { throw failure("unknown \(what) value \(raw)") }
        return value
    }

    private mutating func readString() throws -> String? {
        let reference = try require(input.readVarint(), "string reference")
        switch reference {
        case 0:
            return nil
        case 1:
            let length = try require(input.readVarint(), "string length")
            guard length <= UInt64(input.remaining),
                  let value = input.readString(byteCount: Int(length))
            else { throw failure("string of \(length) bytes runs past the payload") }
            strings.append(value)
            return value
        default:
            let index = reference - 2
            guard index < UInt64(strings.count) else {
                throw failure("string reference \(index) but only \(strings.count) strings defined in this frame")
            }
            return strings[Int(index)]
        }
    }

    private mutating func readRequiredString(_ what: String) throws -> String {
        guard let value = try readString() else { throw failure("missing \(what)") }
        return value
    }

    private mutating func readController() throws -> ControllerRef? {
        let reference = try require(input.readVarint(), "controller reference")
        switch reference {
        case 0:
            return nil
        case 1:
            let serial = try require(input.readVarint(), "controller serial")
            guard serial <= UInt64(UInt32.max) else { throw failure("controller serial \(serial) exceeds 32 bits") }
            let typeName = try readRequiredString("controller type name")
            let label = try readString()
            let controller = ControllerRef(serial: UInt32(serial), typeName: typeName, label: label)
            controllers.append(controller)
            return controller
        default:
            let index = reference - 2
            guard index < UInt64(controllers.count) else {
                throw failure("controller reference \(index) but only \(controllers.count) controllers defined in this frame")
            }
            return controllers[Int(index)]
        }
    }

    private mutating func readRequiredController(_ what: String) throws -> ControllerRef {
        guard let value = try readController() else { throw failure("missing \(what)") }
        return value
    }

    private func require<T>(_ value: T?, _ what: String) throws -> T {
        guard let value else { throw failure("payload ends inside the \(what)") }
        return value
    }
}
