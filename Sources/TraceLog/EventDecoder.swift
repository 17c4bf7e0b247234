import TraceModel

/// Decodes one frame's raw payload back into events (the inverse of `EventEncoder`).
///
/// Errors are `TraceError` `.corruptFrame` with the ordinal of the event that failed; the caller adds the
/// file and the frame's offset.
struct EventDecoder {
    /// The payload's bytes, which the stream readers point into.
    private let storage: StreamReader.Storage
    private var ops: StreamReader
    /// The timestamp deltas, from the times stream (`TimeDeltaCodec`).
    private var deltas: [UInt64] = []
    private var deltaPosition = 0
    private var refs: StreamReader
    private var values: StreamReader
    private var literals: StreamReader
    private var strings: [String] = []
    /// The frame's controller table (first sight writes the controller in full), and each entry's serial.
    private(set) var controllers: [ControllerRef] = []
    private var serials: [UInt32] = []
    /// The last event `next()` returned as an `.other` record (until taken with `takeEvent()`).
    private(set) var event: Event?

    /// Moves `event` out (leaving `nil`), without copying it.
    mutating func takeEvent() -> Event? {
        var taken: Event?
        swap(&taken, &event)
        return taken
    }
    private var previousTimestamp: UInt64
    private var ordinal: UInt64
    /// The frame header's event count and last timestamp, checked when the payload ends.
    private let expectedCount: Int
    private let lastTimestamp: UInt64
    private var decodedCount = 0

    /// Splits `payload` into its streams (`varint count, count × varint length, streams`).
    ///
    /// - Throws: `.corruptFrame` when the stream table is malformed or the lengths do not add up to the payload.
    init(payload: [UInt8], firstTimestamp: UInt64, lastTimestamp: UInt64, firstOrdinal: UInt64, eventCount: Int) throws {
        self.previousTimestamp = firstTimestamp
        self.ordinal = firstOrdinal
        self.expectedCount = eventCount
        self.lastTimestamp = lastTimestamp
        var table = ByteReader(payload)
        guard let count = table.readVarint(), count == 5 else {
            throw TraceError(.corruptFrame, "events payload does not start with its 5 stream lengths", eventOrdinal: firstOrdinal)
        }
        var lengths: [Int] = []
        for _ in 0..<count {
            guard let length = table.readVarint(), length <= UInt64(payload.count) else {
                throw TraceError(.corruptFrame, "events payload stream table is malformed", eventOrdinal: firstOrdinal)
            }
            lengths.append(Int(length))
        }
        guard lengths.reduce(0, +) == table.remaining else {
            throw TraceError(
                .corruptFrame, "events payload streams add up to \(lengths.reduce(0, +)) bytes, the payload has \(table.remaining)",
                eventOrdinal: firstOrdinal
            )
        }
        var start = table.position
        var readers: [ByteReader] = []
        for length in lengths {
            readers.append(ByteReader(payload, from: start, to: start + length))
            start += length
        }
        let storage = StreamReader.Storage(payload)
        self.storage = storage
        func stream(_ index: Int) -> StreamReader { StreamReader(storage, from: readers[index].position, to: readers[index].end) }
        ops = stream(0)
        deltas = try Self.readDeltas(readers[1], count: eventCount, firstOrdinal: firstOrdinal)
        refs = stream(2)
        values = stream(3)
        literals = stream(4)
    }

    /// Reads the times stream (either layout, `TimeDeltaCodec`) back into deltas.
    private static func readDeltas(_ stream: ByteReader, count: Int, firstOrdinal: UInt64) throws -> [UInt64] {
        try TimeDeltaCodec.decode(stream, count: count, firstOrdinal: firstOrdinal)
    }

    private var isAtEnd: Bool {
        ops.isAtEnd && deltaPosition == deltas.count && refs.isAtEnd && values.isAtEnd && literals.isAtEnd
    }

    /// Decodes every event of the payload.
    ///
    /// - Parameters:
    ///   - expectedCount: The frame header's event count; the payload must hold exactly that many.
    ///   - lastTimestamp: The frame header's last timestamp; the last event must have it.
    static func decode(
        payload: [UInt8], firstTimestamp: UInt64, lastTimestamp: UInt64, firstOrdinal: UInt64, expectedCount: Int
    ) throws -> [Event] {
        var decoder = try EventDecoder(
            payload: payload, firstTimestamp: firstTimestamp, lastTimestamp: lastTimestamp, firstOrdinal: firstOrdinal,
            eventCount: expectedCount
        )
        var events: [Event] = []
        events.reserveCapacity(expectedCount)
        while let event = try decoder.nextEvent() { events.append(event) }
        return events
    }

    /// The next event as an `Event`, or `nil` after the last one (the frame's end was checked).
    mutating func nextEvent() throws -> Event? {
        guard let record = try next() else { return nil }
        return record.kind == .callback ? event(of: record) : event
    }

    /// The next event, or `nil` after the last one: a `.callback` record, or an `.other` record whose event is
    /// then in `event`. At the end checks that the payload holds exactly the frame header's event count, nothing
    /// after it, and that the last timestamp is the header's.
    ///
    /// - Throws: `TraceError` `.corruptFrame` with the ordinal of the event that failed.
    mutating func next() throws -> EventRecord? {
        var record = EventRecord(otherAt: 0, ordinal: 0)
        return try next(into: &record) ? record : nil
    }

    /// `next()` writing into `record` (no copy of the record on the way out); `false` after the last event.
    @inline(__always)
    mutating func next(into record: inout EventRecord) throws -> Bool {
        if ops.isAtEnd {
            try checkEnd()
            return false
        }
        guard decodedCount < expectedCount else {
            throw failure("payload holds more events than the frame header's \(expectedCount)")
        }
        try decodeOne(into: &record)
        decodedCount += 1
        return true
    }

    private func checkEnd() throws {
        guard isAtEnd else { throw failure("payload streams hold bytes after the last event") }
        guard decodedCount == expectedCount else {
            throw failure("payload holds \(decodedCount) events, the frame header says \(expectedCount)")
        }
        if decodedCount > 0, previousTimestamp != lastTimestamp {
            throw failure("last event's timestamp \(previousTimestamp) differs from the frame header's \(lastTimestamp)")
        }
    }

    /// The controller of entry `slot` of the frame's controller table (`EventRecord.controllerSlot`).
    func controller(atSlot slot: UInt32) -> ControllerRef {
        controllers[Int(slot)]
    }

    /// The `Event` a record stands for.
    func event(of record: EventRecord) -> Event {
        let parent: ParentArgument?
        switch record.parent {
        case .absent: parent = nil
        case .none: parent = ParentArgument.none
        case .controller: parent = .controller(controllers[Int(record.parentSlot)])
        }
        let callback = CallbackEvent(
            record.callback, record.phase, controller: controllers[Int(record.controllerSlot)], animated: record.animated, parent: parent
        )
        return Event(timestamp: record.timestamp, .callback(callback))
    }

    private func failure(_ message: String) -> TraceError {
        TraceError(.corruptFrame, "event \(ordinal): \(message)", eventOrdinal: ordinal)
    }

    private mutating func decodeOne(into record: inout EventRecord) throws {
        guard let tagByte = ops.readUInt8() else { throw truncated("event tag") }
        guard deltaPosition < deltas.count else { throw failure("payload ends inside the timestamp deltas") }
        let delta = deltas[deltaPosition]
        deltaPosition += 1
        let (timestamp, overflow) = previousTimestamp.addingReportingOverflow(delta)
        guard !overflow else { throw failure("timestamp overflows 64 bits") }
        if tagByte == EventTag.callback {
            // The common case: a callback without a source, read as a record (no strings, no refcounting).
            var size: Size?
            try readCallbackRecord(timestamp, into: &record, size: &size)
            previousTimestamp = timestamp
            ordinal += 1
            guard let size else { return }
            var event = event(of: record)
            if case .callback(var callback) = event.payload {
                callback.size = size
                event.payload = .callback(callback)
            }
            self.event = event
            record.kind = .other
            return
        }
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
            switch try Self.require(ops.readUInt8(), "recorder event kind", ordinal) {
            case 0: payload = .recorder(.runStarted(process: try readRequiredString("process")))
            case 1: payload = .recorder(.eventsDropped(count: try Self.require(values.readVarint(), "dropped count", ordinal)))
            case 2: payload = .recorder(.note(try readRequiredString("note")))
            case let other: throw failure("unknown recorder event kind \(other)")
            }
        case EventTag.escape:
            let tag = try Self.require(ops.readUInt8(), "escaped kind", ordinal)
            let length = try Self.require(values.readVarint(), "escaped body length", ordinal)
            guard length <= UInt64(literals.remaining) else { throw failure("escaped body of \(length) bytes runs past the payload") }
            payload = .unknown(UnknownEvent(tag: tag, body: try Self.require(literals.readBytes(Int(length)), "escaped body", ordinal)))
        case let other:
            throw failure("unknown event tag \(other) (a writer must escape kinds unknown to format 1.0 and 2.0)")
        }
        var source: EventSource?
        if tagByte & EventTag.hasSource != 0 {
            let presence = try Self.require(ops.readUInt8(), "source presence bits", ordinal)
            guard presence & ~7 == 0 else { throw failure("reserved source presence bits set: \(presence)") }
            var value = EventSource()
            if presence & 1 != 0 { value.text = try readRequiredString("source text") }
            if presence & 2 != 0 { value.file = try readRequiredString("source file") }
            if presence & 4 != 0 {
                let line = try Self.require(values.readVarint(), "source line", ordinal)
                guard line <= UInt64(UInt32.max) else { throw failure("source line \(line) exceeds 32 bits") }
                value.line = UInt32(line)
            }
            source = value
        }
        previousTimestamp = timestamp
        ordinal += 1
        event = Event(timestamp: timestamp, payload, source: source)
        record.kind = .other
        record.timestamp = timestamp
        record.ordinal = ordinal - 1
    }

    /// A callback's body as a record (controller and parent as serials and table slots) and its size argument.
    private mutating func readCallbackRecord(_ timestamp: UInt64, into record: inout EventRecord, size: inout Size?) throws {
        guard let raw = ops.readUInt8() else { throw truncated("callback") }
        guard let callback = Callback(rawValue: raw) else { throw failure("unknown callback value \(raw)") }
        guard let bits = ops.readUInt8() else { throw truncated("callback flags") }
        guard bits & 0x80 == 0 else { throw failure("reserved callback flag bit set: \(bits)") }
        // Read inline, not through `phase(_:)`/`optionalBool(_:)`: calling a non-mutating method here would copy
        // the whole decoder.
        guard let phase = Phase(rawValue: bits & 3) else { throw failure("invalid phase \(bits & 3)") }
        let animated: Bool?
        switch (bits >> 2) & 3 {
        case 0: animated = nil
        case 1: animated = false
        case 2: animated = true
        default: throw failure("invalid optional boolean 3")
        }
        guard let slot = try readControllerSlot() else { throw failure("missing callback controller") }
        record.kind = .callback
        record.timestamp = timestamp
        record.ordinal = ordinal
        record.callback = callback
        record.phase = phase
        record.animated = animated
        record.controller = serials[Int(slot)]
        record.controllerSlot = slot
        record.parent = .absent
        record.parentSerial = 0
        record.parentSlot = 0
        switch (bits >> 4) & 3 {
        case 0: break
        case 1: record.parent = .none
        case 2:
            guard let parentSlot = try readControllerSlot() else { throw failure("missing parent controller") }
            record.parent = .controller
            record.parentSerial = serials[Int(parentSlot)]
            record.parentSlot = parentSlot
        default: throw failure("invalid parent presence 3")
        }
        if bits & (1 << 6) != 0 {
            let width = try Self.require(literals.readUInt64(), "size width", ordinal)
            let height = try Self.require(literals.readUInt64(), "size height", ordinal)
            size = Size(width: Double(bitPattern: width), height: Double(bitPattern: height))
        }
    }

    private mutating func readCallback() throws -> CallbackEvent {
        let callback = try readEnum(Callback.self, "callback")
        let bits = try Self.require(ops.readUInt8(), "callback flags", ordinal)
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
            let width = try Self.require(literals.readUInt64(), "size width", ordinal)
            let height = try Self.require(literals.readUInt64(), "size height", ordinal)
            size = Size(width: Double(bitPattern: width), height: Double(bitPattern: height))
        }
        return CallbackEvent(callback, phase, controller: controller, animated: animated, parent: parent, size: size)
    }

    private mutating func readContainer() throws -> ContainerEvent {
        let operation = try readEnum(ContainerOperation.self, "container operation")
        let bits = try Self.require(ops.readUInt8(), "container flags", ordinal)
        guard bits & 0xC0 == 0 else { throw failure("reserved container flag bits set: \(bits)") }
        let phase = try phase(bits & 3)
        let animated = try optionalBool((bits >> 2) & 3)
        let container = try readController()
        let count = try Self.require(values.readVarint(), "controller count", ordinal)
        guard count <= UInt64(refs.remaining) else { throw failure("controller count \(count) exceeds the payload") }
        var list: [ControllerRef] = []
        list.reserveCapacity(Int(count))
        for _ in 0..<count { list.append(try readRequiredController("container subject")) }
        var style: ModalPresentationStyle?
        if bits & (1 << 4) != 0 { style = try readEnum(ModalPresentationStyle.self, "presentation style") }
        var index: Int?
        if bits & (1 << 5) != 0 {
            let value = try Self.require(values.readSignedVarint(), "tab index", ordinal)
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
        let count = try Self.require(values.readVarint(), "field count", ordinal)
        guard count <= UInt64(ops.remaining) else { throw failure("field count \(count) exceeds the payload") }
        var fields: [MarkField] = []
        fields.reserveCapacity(Int(count))
        for _ in 0..<count {
            let fieldName = try readRequiredString("field name")
            let value: FieldValue
            switch try Self.require(ops.readUInt8(), "field type", ordinal) {
            case 0: value = .string(try readRequiredString("field value"))
            case 1: value = .int(try Self.require(values.readSignedVarint(), "integer field", ordinal))
            case 2: value = .bool(false)
            case 3: value = .bool(true)
            case 4: value = .double(Double(bitPattern: try Self.require(literals.readUInt64(), "double field", ordinal)))
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
        let raw = try Self.require(ops.readUInt8(), what, ordinal)
        guard let value = E(rawValue: raw) else { throw failure("unknown \(what) value \(raw)") }
        return value
    }

    private mutating func readString() throws -> String? {
        let reference = try Self.require(values.readVarint(), "string reference", ordinal)
        switch reference {
        case 0:
            return nil
        case 1:
            let length = try Self.require(values.readVarint(), "string length", ordinal)
            guard length <= UInt64(literals.remaining),
                  let value = literals.readString(byteCount: Int(length))
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
        guard let slot = try readControllerSlot() else { return nil }
        return controllers[Int(slot)]
    }

    /// Reads a controller reference; returns its slot in the frame's table (adding it on first sight), or `nil`
    /// for "no controller".
    private mutating func readControllerSlot() throws -> UInt32? {
        guard let reference = refs.readVarint() else { throw truncated("controller reference") }
        switch reference {
        case 0:
            return nil
        case 1:
            let serial = try Self.require(values.readVarint(), "controller serial", ordinal)
            guard serial <= UInt64(UInt32.max) else { throw failure("controller serial \(serial) exceeds 32 bits") }
            let typeName = try readRequiredString("controller type name")
            let label = try readString()
            controllers.append(ControllerRef(serial: UInt32(serial), typeName: typeName, label: label))
            serials.append(UInt32(serial))
            return UInt32(controllers.count - 1)
        default:
            let index = reference - 2
            guard index < UInt64(serials.count) else {
                throw failure("controller reference \(index) but only \(serials.count) controllers defined in this frame")
            }
            return UInt32(index)
        }
    }

    private mutating func readRequiredController(_ what: String) throws -> ControllerRef {
        guard let value = try readController() else { throw failure("missing \(what)") }
        return value
    }

    /// The error for a stream that ends inside `what`.
    private func truncated(_ what: StaticString) -> TraceError {
        TraceError(.corruptFrame, "event \(ordinal): payload ends inside the \(what)", eventOrdinal: ordinal)
    }

    /// Static, so that `try Self.require(ops.readUInt8(), …)` does not borrow `self` while a stream mutates
    /// (which would make the compiler copy the whole decoder on every field).
    private static func require<T>(_ value: T?, _ what: String, _ ordinal: UInt64) throws -> T {
        guard let value else {
            throw TraceError(.corruptFrame, "event \(ordinal): payload ends inside the \(what)", eventOrdinal: ordinal)
        }
        return value
    }
}
