import TraceModel

/// Encodes events into one frame's raw (uncompressed) payload, interning strings and controllers per frame.
///
/// The first use of a string or controller in a frame writes it in full and gives it the next table index;
/// later uses write the index. Tables start empty in every frame, so each frame decodes alone.
struct EventEncoder {
    private(set) var output = ByteWriter(capacity: 64 * 1024)
    private(set) var eventCount = 0
    private(set) var firstTimestamp: UInt64 = 0
    private(set) var lastTimestamp: UInt64 = 0
    private var strings: [String: UInt64] = [:]
    private var controllers: [ControllerRef: UInt64] = [:]

    var byteCount: Int { output.count }

    /// Starts a new frame: forgets the tables and the bytes.
    mutating func reset() {
        output.removeAll()
        eventCount = 0
        firstTimestamp = 0
        lastTimestamp = 0
        strings.removeAll(keepingCapacity: true)
        controllers.removeAll(keepingCapacity: true)
    }

    /// Appends `event`. The caller has checked that timestamps do not decrease.
    mutating func append(_ event: Event) {
        let delta: UInt64
        if eventCount == 0 {
            firstTimestamp = event.timestamp
            delta = 0
        } else {
            delta = event.timestamp - lastTimestamp
        }
        lastTimestamp = event.timestamp
        eventCount += 1
        let sourceBit: UInt8 = event.source == nil ? 0 : EventTag.hasSource
        switch event.payload {
        case .callback(let callback):
            output.writeUInt8(EventTag.callback | sourceBit)
            output.writeVarint(delta)
            writeCallback(callback)
        case .container(let container):
            output.writeUInt8(EventTag.container | sourceBit)
            output.writeVarint(delta)
            writeContainer(container)
        case .app(let app):
            output.writeUInt8(EventTag.app | sourceBit)
            output.writeVarint(delta)
            output.writeUInt8(app.transition.rawValue)
            output.writeUInt8(app.phase.rawValue)
            writeString(app.scene)
        case .swiftUI(let swiftUI):
            output.writeUInt8(EventTag.swiftUI | sourceBit)
            output.writeVarint(delta)
            output.writeUInt8(swiftUI.action.rawValue)
            writeString(swiftUI.view)
            writeController(swiftUI.host)
        case .mark(let mark):
            output.writeUInt8(EventTag.mark | sourceBit)
            output.writeVarint(delta)
            writeMark(mark)
        case .recorder(let recorder):
            output.writeUInt8(EventTag.recorder | sourceBit)
            output.writeVarint(delta)
            switch recorder {
            case .runStarted(let process):
                output.writeUInt8(0)
                writeString(process)
            case .eventsDropped(let count):
                output.writeUInt8(1)
                output.writeVarint(count)
            case .note(let text):
                output.writeUInt8(2)
                writeString(text)
            }
        case .unknown(let unknown):
            output.writeUInt8(EventTag.escape | sourceBit)
            output.writeVarint(delta)
            output.writeUInt8(unknown.tag)
            output.writeVarint(UInt64(unknown.body.count))
            output.writeBytes(unknown.body)
        }
        if let source = event.source {
            var presence: UInt8 = 0
            if source.text != nil { presence |= 1 }
            if source.file != nil { presence |= 2 }
            if source.line != nil { presence |= 4 }
            output.writeUInt8(presence)
            if let text = source.text { writeString(text) }
            if let file = source.file { writeString(file) }
            if let line = source.line { output.writeVarint(UInt64(line)) }
        }
    }

    private mutating func writeCallback(_ event: CallbackEvent) {
        output.writeUInt8(event.callback.rawValue)
        var bits = event.phase.rawValue
        bits |= Self.optionalBool(event.animated) << 2
        switch event.parent {
        case nil: break
        case .none?: bits |= 1 << 4
        case .controller?: bits |= 2 << 4
        }
        if event.size != nil { bits |= 1 << 6 }
        output.writeUInt8(bits)
        writeController(event.controller)
        if case .controller(let parent)? = event.parent { writeController(parent) }
        if let size = event.size {
            output.writeUInt64(size.width.bitPattern)
            output.writeUInt64(size.height.bitPattern)
        }
    }

    private mutating func writeContainer(_ event: ContainerEvent) {
        output.writeUInt8(event.operation.rawValue)
        var bits = event.phase.rawValue
        bits |= Self.optionalBool(event.animated) << 2
        if event.style != nil { bits |= 1 << 4 }
        if event.index != nil { bits |= 1 << 5 }
        output.writeUInt8(bits)
        writeController(event.container)
        output.writeVarint(UInt64(event.controllers.count))
        for controller in event.controllers { writeController(controller) }
        if let style = event.style { output.writeUInt8(style.rawValue) }
        if let index = event.index { output.writeSignedVarint(Int64(index)) }
    }

    private mutating func writeMark(_ event: MarkEvent) {
        writeString(event.name)
        output.writeUInt8(event.phase.rawValue)
        writeController(event.controller)
        output.writeVarint(UInt64(event.fields.count))
        for field in event.fields {
            writeString(field.name)
            switch field.value {
            case .string(let value):
                output.writeUInt8(0)
                writeString(value)
            case .int(let value):
                output.writeUInt8(1)
                output.writeSignedVarint(value)
            case .bool(let value):
                output.writeUInt8(value ? 3 : 2)
            case .double(let value):
                output.writeUInt8(4)
                output.writeUInt64(value.bitPattern)
            }
        }
    }

    /// 0 for `nil`, 1 for `false`, 2 for `true`.
    private static func optionalBool(_ value: Bool?) -> UInt8 {
        switch value {
        case nil: 0
        case false?: 1
        case true?: 2
        }
    }

    /// `varint 0` = nil; `varint 1, varint length, UTF-8` = a new string (gets the next index);
    /// `varint n ≥ 2` = string number `n - 2` of this frame.
    private mutating func writeString(_ value: String?) {
        guard let value else {
            output.writeUInt8(0)
            return
        }
        if let index = strings[value] {
            output.writeVarint(index + 2)
            return
        }
        strings[value] = UInt64(strings.count)
        output.writeUInt8(1)
        let utf8 = value.utf8
        output.writeVarint(UInt64(utf8.count))
        output.writeBytes(utf8)
    }

    /// `varint 0` = nil; `varint 1, varint serial, string typeName, string label` = a new controller (gets the
    /// next index); `varint n ≥ 2` = controller number `n - 2` of this frame.
    private mutating func writeController(_ value: ControllerRef?) {
        guard let value else {
            output.writeUInt8(0)
            return
        }
        if let index = controllers[value] {
            output.writeVarint(index + 2)
            return
        }
        controllers[value] = UInt64(controllers.count)
        output.writeUInt8(1)
        output.writeVarint(UInt64(value.serial))
        writeString(value.typeName)
        writeString(value.label)
    }
}
