import Foundation
import TraceModel

/// Reads JSON Lines in the schema of `JSONLSchema` (docs/JSONL.md) back into events, one line at a time.
///
/// A file is read in chunks, so memory stays bounded by the longest line, not the file size. The optional
/// header line is read when the reader is created. Blank lines are skipped; members the schema does not define
/// are ignored (so newer writers can add some).
///
/// Controllers: a controller given with `serial` and `type` is taken as is (`label` optional). One given only by
/// its display name (a hand-written file) is matched to a controller seen earlier under that name; otherwise
/// `Type#N` gives serial N and type `Type`, and any other name gets the next unused serial.
///
/// Every error is a `JSONLError` naming the file and the 1-based line: a line that is not JSON or not an
/// object, an unknown `event`, a missing or mistyped member, a `t_ns` earlier than the previous event's, a header
/// after the first line. The reader never traps on bad input.
///
/// Not `Sendable`: one reader belongs to one thread.
public struct JSONLReader {
    /// The path given to the reader, or the name given for in-memory bytes; used in errors.
    public let file: String
    /// The 1-based number of the last line read (0 before the first).
    public private(set) var lineNumber = 0
    /// The trace header carried by the first line (`{"lifetrace": {…}}`), or `nil` when the input has none.
    /// Members absent from the header line take defaults (see docs/JSONL.md).
    public private(set) var header: TraceHeader?

    /// The names of the members the header line's `lifetrace` object gives (`trace_id`, `producer`, …), so a
    /// caller can tell a member written in the file from a default `header` filled in; empty without a header.
    public private(set) var headerMemberNames: Set<String> = []
    /// Events returned so far.
    public private(set) var eventCount: UInt64 = 0

    private let source: JSONLLineSource
    private var pendingFirst: (line: Int, value: JSONLValue)?
    private var lastTimestamp: UInt64?
    private var controllersByName: [String: ControllerRef] = [:]
    /// The first controller seen with each serial, to refuse a serial reused for another type.
    private var controllersBySerial: [UInt32: ControllerRef] = [:]
    /// The serial a controller given by name only gets: one more than the largest seen; `nil` once 2^32 − 1 is used.
    private var nextSerial: UInt32? = 1

    /// A reader over `bytes` held in memory.
    ///
    /// - Parameter file: A name used in error messages (for example the path the bytes came from).
    /// - Throws: `JSONLError` if the first non-blank line is not JSON, or is a header with bad members
    ///   (`.badHeader`) or a newer schema version (`.unsupportedVersion`).
    public init(bytes: [UInt8], file: String = "") throws(JSONLError) {
        self.file = file
        source = JSONLLineSource(bytes: bytes)
        try readFirstLine()
    }

    /// A reader over the file at `path`, read in chunks.
    ///
    /// - Throws: `JSONLError` `.unreadable` if the file cannot be opened; as `init(bytes:file:)` for the first line.
    public init(path: String) throws(JSONLError) {
        try self.init(path: path, chunkSize: 1 << 20)
    }

    /// A reader over the file at `path` reading `chunkSize` bytes at a time (tests use small chunks).
    init(path: String, chunkSize: Int) throws(JSONLError) {
        file = path
        do {
            source = try JSONLLineSource(path: path, chunkSize: chunkSize)
        } catch {
            throw JSONLError(error.code, error.message, file: path, line: 0)
        }
        try readFirstLine()
    }

    /// Reads the next event.
    ///
    /// - Returns: The event, or `nil` at the end of the input.
    /// - Throws: `JSONLError` naming `file` and the line (see the type's documentation). After an error the
    ///   reader is positioned after the bad line; callers normally stop.
    public mutating func next() throws(JSONLError) -> Event? {
        if let pending = pendingFirst {
            pendingFirst = nil
            return try decodeEvent(pending.value, line: pending.line)
        }
        guard let (line, value) = try nextValue() else { return nil }
        if value[JSONLSchema.Key.header] != nil {
            throw JSONLError(.misplacedHeader, "a header object is allowed only on the first line", file: file, line: line)
        }
        return try decodeEvent(value, line: line)
    }

    /// Every remaining event, in order.
    ///
    /// - Throws: The first `JSONLError` met (events before it are dropped; use `next()` to keep them).
    public mutating func readAll() throws(JSONLError) -> [Event] {
        var events: [Event] = []
        while let event = try next() { events.append(event) }
        return events
    }

    // MARK: - Lines

    /// The next non-blank line, parsed, with its number.
    private mutating func nextValue() throws(JSONLError) -> (Int, JSONLValue)? {
        while true {
            lineNumber += 1
            let number = lineNumber
            let range: Range<Int>?
            do {
                range = try source.nextLine()
            } catch {
                throw JSONLError(error.code, error.message, file: file, line: number)
            }
            guard let range else {
                lineNumber -= 1
                return nil
            }
            let parsed = source.withBytes(range) { bytes -> Result<JSONLValue, JSONLSyntaxError>? in
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
                return Result { () throws(JSONLSyntaxError) in try JSONLParser.parse(bytes) }
            }
            switch parsed {
            case nil:
                continue
            case .failure(let error)?:
                throw JSONLError(.notJSON, "not JSON: \(error.message) at column \(error.column)", file: file, line: number)
            case .success(let value)?:
                guard case .object = value else {
                    throw JSONLError(.notAnObject, "expected a JSON object, found \(value.typeName)", file: file, line: number)
                }
                return (number, value)
            }
        }
    }

    private mutating func readFirstLine() throws(JSONLError) {
        guard let (line, value) = try nextValue() else { return }
        guard let header = value[JSONLSchema.Key.header] else {
            pendingFirst = (line, value)
            return
        }
        guard case .object = header else {
            throw JSONLError(.badHeader, "the header's \"lifetrace\" member must be an object", file: file, line: line)
        }
        if let version = header["version"] {
            guard case .number(let text) = version, let number = Int(text) else {
                throw JSONLError(.badHeader, "header \"version\" must be an integer", file: file, line: line)
            }
            if number > JSONLSchema.version {
                throw JSONLError(
                    .unsupportedVersion,
                    "schema version \(number) is newer than this reader's (\(JSONLSchema.version)); upgrade lifetrace",
                    file: file,
                    line: line
                )
            }
        }
        self.header = try JSONLSchema.traceHeader(from: header, file: file, line: line)
        if case .object(let members) = header {
            headerMemberNames = Set(members.map(\.key))
        }
    }

    // MARK: - Events

    private mutating func decodeEvent(_ object: JSONLValue, line: Int) throws(JSONLError) -> Event {
        var decoder = LineDecoder(object: object, file: file, line: line)
        let timestamp = try decoder.requiredUInt64(JSONLSchema.Key.time)
        if let lastTimestamp, timestamp < lastTimestamp {
            throw JSONLError(
                .timeWentBackwards,
                "time goes backwards: t_ns \(timestamp) after \(lastTimestamp) on an earlier line",
                file: file,
                line: line
            )
        }
        let name = try decoder.requiredString(JSONLSchema.Key.event)
        let phaseName = try decoder.requiredString(JSONLSchema.Key.phase)
        guard let phase = Phase(name: phaseName) else {
            throw decoder.bad(JSONLSchema.Key.phase, "must be begin, end or instant; got \"\(phaseName)\"")
        }
        let kind = try resolveKind(eventName: name, decoder: decoder)
        let payload = try decodePayload(kind: kind, name: name, phase: phase, decoder: &decoder)
        let source = try decodeSource(decoder: decoder)
        lastTimestamp = timestamp
        eventCount += 1
        return Event(timestamp: timestamp, payload, source: source)
    }

    private func resolveKind(eventName name: String, decoder: LineDecoder) throws(JSONLError) -> JSONLSchema.Kind {
        let candidates = JSONLSchema.kinds(forEventName: name)
        if let kindName = try decoder.optionalString(JSONLSchema.Key.kind) {
            guard let kind = JSONLSchema.Kind(rawValue: kindName) else {
                throw JSONLError(.unknownEvent, "unknown kind \"\(kindName)\"", file: file, line: decoder.line)
            }
            guard candidates.contains(kind) else {
                // Name what the event is, or that the kind has no such event ("unknown unknown event" read badly).
                let message = candidates.isEmpty
                    ? "kind \"\(kind)\" has no event \"\(name)\"\(kind == .unknown ? " (its event is \"unknown\")" : "")"
                    : "event \"\(name)\" is of kind \(candidates.map { "\"\($0)\"" }.joined(separator: " or ")), not \"\(kind)\""
                throw JSONLError(.unknownEvent, message, file: file, line: decoder.line)
            }
            return kind
        }
        guard let first = candidates.first else {
            throw JSONLError(.unknownEvent, "unknown event \"\(name)\"", file: file, line: decoder.line)
        }
        // `didReceiveMemoryWarning` is both a callback and an app transition: a controller decides.
        if candidates.count > 1, decoder.object[JSONLSchema.Key.controller] == nil, candidates.contains(.app) {
            return .app
        }
        return first
    }

    private mutating func decodePayload(
        kind: JSONLSchema.Kind,
        name: String,
        phase: Phase,
        decoder: inout LineDecoder
    ) throws(JSONLError) -> EventPayload {
        typealias Key = JSONLSchema.Key
        switch kind {
        case .callback:
            guard let callback = Callback(name: name) else { throw decoder.unknownEvent(name) }
            guard let controller = try subject(decoder) else { throw decoder.missing(Key.controller) }
            var parent: ParentArgument?
            switch decoder.object[Key.parent] {
            case nil: parent = nil
            case .null?: parent = ParentArgument.none
            case let value?: parent = .controller(try ref(value, member: Key.parent, decoder: decoder))
            }
            var size: Size?
            if let value = decoder.object[Key.size] {
                guard case .object = value, let width = value[Key.width], let height = value[Key.height] else {
                    throw decoder.bad(Key.size, "must be an object with width and height")
                }
                size = Size(
                    width: try decoder.double(width, member: "size.width"),
                    height: try decoder.double(height, member: "size.height")
                )
            }
            return .callback(CallbackEvent(
                callback, phase, controller: controller,
                animated: try decoder.optionalBool(Key.animated), parent: parent, size: size
            ))
        case .container:
            guard let operation = ContainerOperation(name: name) else { throw decoder.unknownEvent(name) }
            var container: ControllerRef?
            if let value = decoder.object[Key.container], value != .null {
                container = try ref(value, member: Key.container, decoder: decoder)
            }
            guard let list = decoder.object[Key.controllers] else { throw decoder.missing(Key.controllers) }
            guard case .array(let elements) = list else { throw decoder.bad(Key.controllers, "must be an array") }
            var controllers: [ControllerRef] = []
            controllers.reserveCapacity(elements.count)
            for element in elements {
                controllers.append(try ref(element, member: Key.controllers, decoder: decoder))
            }
            var style: ModalPresentationStyle?
            if let styleName = try decoder.optionalString(Key.style) {
                guard let value = ModalPresentationStyle(name: styleName) else {
                    throw decoder.bad(Key.style, "unknown modal presentation style \"\(styleName)\"")
                }
                style = value
            }
            var index: Int?
            if let value = try decoder.optionalInt64(Key.index) {
                guard let fitting = Int(exactly: value) else { throw decoder.bad(Key.index, "out of range") }
                index = fitting
            }
            return .container(ContainerEvent(
                operation, phase, container: container, controllers: controllers,
                animated: try decoder.optionalBool(Key.animated), style: style, index: index
            ))
        case .app:
            guard let transition = AppTransition(name: name) else { throw decoder.unknownEvent(name) }
            return .app(AppEvent(transition, phase, scene: try decoder.optionalString(Key.scene)))
        case .swiftUI:
            guard let action = SwiftUIEvent.Action(name: name) else { throw decoder.unknownEvent(name) }
            try decoder.requireInstant(phase)
            let view = try decoder.requiredString(Key.view)
            return .swiftUI(SwiftUIEvent(action, view: view, host: try subject(decoder)))
        case .mark:
            guard name == "mark" else { throw decoder.unknownEvent(name) }
            let markName = try decoder.requiredString(Key.name)
            var fields: [MarkField] = []
            switch decoder.object[Key.fields] {
            case nil, .null?: break
            case .object(let members)?:
                fields.reserveCapacity(members.count)
                for member in members {
                    fields.append(MarkField(member.key, try decoder.fieldValue(member.value, name: member.key)))
                }
            case _?: throw decoder.bad(Key.fields, "must be an object")
            }
            return .mark(MarkEvent(markName, phase, controller: try subject(decoder), fields: fields))
        case .recorder:
            try decoder.requireInstant(phase)
            switch name {
            case "runStarted": return .recorder(.runStarted(process: try decoder.requiredString(Key.process)))
            case "eventsDropped": return .recorder(.eventsDropped(count: try decoder.requiredUInt64(Key.count)))
            case "note": return .recorder(.note(try decoder.requiredString(Key.text)))
            default: throw decoder.unknownEvent(name)
            }
        case .unknown:
            guard name == "unknown" else { throw decoder.unknownEvent(name) }
            try decoder.requireInstant(phase)
            let tag = try decoder.requiredUInt64(Key.tag)
            guard let tagByte = UInt8(exactly: tag) else { throw decoder.bad(Key.tag, "must be 0…255") }
            let text = try decoder.requiredString(Key.body)
            guard let body = Data(base64Encoded: text) else { throw decoder.bad(Key.body, "is not base64") }
            return .unknown(UnknownEvent(tag: tagByte, body: Array(body)))
        }
    }

    private func decodeSource(decoder: LineDecoder) throws(JSONLError) -> EventSource? {
        guard let value = decoder.object[JSONLSchema.Key.source], value != .null else { return nil }
        guard case .object = value else { throw decoder.bad(JSONLSchema.Key.source, "must be an object") }
        let inner = LineDecoder(object: value, file: file, line: decoder.line, prefix: "source.")
        var line: UInt32?
        if let number = try inner.optionalUInt64(JSONLSchema.Key.line) {
            guard let fitting = UInt32(exactly: number) else { throw inner.bad(JSONLSchema.Key.line, "out of range") }
            line = fitting
        }
        return EventSource(
            text: try inner.optionalString(JSONLSchema.Key.text),
            file: try inner.optionalString(JSONLSchema.Key.file),
            line: line
        )
    }

    // MARK: - Controllers

    /// The event's own controller from the top-level `controller`, `serial`, `type` and `label` members.
    private mutating func subject(_ decoder: LineDecoder) throws(JSONLError) -> ControllerRef? {
        typealias Key = JSONLSchema.Key
        let name = try decoder.optionalString(Key.controller)
        let serial = try decoder.optionalSerial(Key.serial)
        let type = try decoder.optionalString(Key.type)
        let label = try decoder.optionalString(Key.label)
        if name == nil, serial == nil, type == nil { return nil }
        return try resolve(name: name, serial: serial, type: type, label: label, member: Key.controller, decoder: decoder)
    }

    /// A controller given as a display-name string or as `{"name", "serial", "type", "label"}`.
    private mutating func ref(_ value: JSONLValue, member: String, decoder: LineDecoder) throws(JSONLError) -> ControllerRef {
        typealias Key = JSONLSchema.Key
        switch value {
        case .string(let name):
            return try resolve(name: name, serial: nil, type: nil, label: nil, member: member, decoder: decoder)
        case .object:
            let inner = LineDecoder(object: value, file: file, line: decoder.line, prefix: "\(member).")
            return try resolve(
                name: try inner.optionalString(Key.name),
                serial: try inner.optionalSerial(Key.serial),
                type: try inner.optionalString(Key.type),
                label: try inner.optionalString(Key.label),
                member: member,
                decoder: decoder
            )
        default:
            throw decoder.bad(member, "must be a controller name or an object with serial and type, not \(value.typeName)")
        }
    }

    private mutating func resolve(
        name: String?,
        serial: UInt32?,
        type: String?,
        label: String?,
        member: String,
        decoder: LineDecoder
    ) throws(JSONLError) -> ControllerRef {
        var ref: ControllerRef
        if let fitting = serial {
            guard let typeName = type ?? name.map({ Self.parseDisplayName($0).type }) else {
                throw decoder.missing(JSONLSchema.Key.type)
            }
            ref = ControllerRef(serial: fitting, typeName: typeName, label: label)
        } else if let name {
            if let known = controllersByName[name] { return known }
            let parsed = Self.parseDisplayName(name)
            if parsed.serial == 0 {
                throw decoder.bad(member, "\"\(name)\" names serial 0, but serials start at 1 (give \"serial\" and \"type\", or a name Type#N with N ≥ 1)")
            }
            guard let serial = parsed.serial ?? nextSerial else {
                throw decoder.bad(member, "\"\(name)\" needs a new serial, but serial 4294967295 (2^32 − 1, the largest) is taken; give \"serial\" and \"type\"")
            }
            ref = ControllerRef(serial: serial, typeName: type ?? parsed.type, label: label ?? parsed.label)
        } else {
            throw decoder.bad(member, "names no controller: give \"\(member)\" or \"serial\" and \"type\"")
        }
        if let earlier = controllersBySerial[ref.serial], earlier.typeName != ref.typeName {
            throw decoder.bad(member, "serial \(ref.serial) already names \(earlier.displayName) (a different type, \(ref.typeName)); one serial is one controller")
        }
        controllersBySerial[ref.serial] = ref
        controllersByName[ref.displayName] = ref
        if let name, name != ref.displayName, controllersByName[name] == nil { controllersByName[name] = ref }
        // After the largest serial there is none left for a controller given by name only (`nil`), rather than 0.
        if let next = nextSerial, ref.serial >= next { nextSerial = ref.serial == .max ? nil : ref.serial + 1 }
        return ref
    }

    /// Splits `Type#12` into (`Type`, 12, nil) and `Type<label>` into (`Type`, nil, `label`); anything else is a
    /// type name without serial.
    static func parseDisplayName(_ name: String) -> (type: String, serial: UInt32?, label: String?) {
        if let hash = name.lastIndex(of: "#"), let serial = UInt32(name[name.index(after: hash)...]) {
            return (String(name[..<hash]), serial, nil)
        }
        if name.hasSuffix(">"), let open = name.firstIndex(of: "<") {
            let label = name[name.index(after: open)..<name.index(before: name.endIndex)]
            return (String(name[..<open]), nil, String(label))
        }
        return (name, nil, nil)
    }
}

/// Typed access to the members of one line's object, with errors naming the member and the line.
struct LineDecoder {
    let object: JSONLValue
    let file: String
    let line: Int
    var prefix = ""

    func missing(_ key: String) -> JSONLError {
        JSONLError(.missingField, "missing \"\(prefix)\(key)\"", file: file, line: line)
    }

    func bad(_ key: String, _ problem: String) -> JSONLError {
        JSONLError(.badField, "\"\(prefix)\(key)\" \(problem)", file: file, line: line)
    }

    func unknownEvent(_ name: String) -> JSONLError {
        JSONLError(.unknownEvent, "unknown event \"\(name)\"", file: file, line: line)
    }

    func requireInstant(_ phase: Phase) throws(JSONLError) {
        guard phase == .instant else { throw bad(JSONLSchema.Key.phase, "must be instant for this event") }
    }

    func requiredString(_ key: String) throws(JSONLError) -> String {
        guard let value = try optionalString(key) else { throw missing(key) }
        return value
    }

    func optionalString(_ key: String) throws(JSONLError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        case let value?: throw bad(key, "must be a string, not \(value.typeName)")
        }
    }

    func optionalBool(_ key: String) throws(JSONLError) -> Bool? {
        switch object[key] {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        case let value?: throw bad(key, "must be true or false, not \(value.typeName)")
        }
    }

    func requiredUInt64(_ key: String) throws(JSONLError) -> UInt64 {
        guard let value = try optionalUInt64(key) else { throw missing(key) }
        return value
    }

    func optionalUInt64(_ key: String) throws(JSONLError) -> UInt64? {
        switch object[key] {
        case nil, .null?: return nil
        case .number(let text)?:
            guard JSONLValue.isIntegerText(text), let value = UInt64(text) else {
                throw bad(key, "must be a non-negative integer below 2^64; got \(text)")
            }
            return value
        case let value?: throw bad(key, "must be a non-negative integer, not \(value.typeName)")
        }
    }

    /// A controller serial: an integer in 1 … 2^32 − 1 (serials start at 1, `ControllerRef.serial`; the trace
    /// format stores 32 bits, docs/FORMAT.md §5).
    func optionalSerial(_ key: String) throws(JSONLError) -> UInt32? {
        switch object[key] {
        case nil, .null?: return nil
        case .number(let text)?:
            guard JSONLValue.isIntegerText(text), let value = UInt32(text), value >= 1 else {
                throw bad(key, "must be a controller serial, an integer from 1 to 4294967295 (2^32 − 1; serials start at 1); got \(text)")
            }
            return value
        case let value?: throw bad(key, "must be a controller serial (an integer), not \(value.typeName)")
        }
    }

    func optionalInt64(_ key: String) throws(JSONLError) -> Int64? {
        switch object[key] {
        case nil, .null?: return nil
        case .number(let text)?:
            guard JSONLValue.isIntegerText(text), let value = Int64(text) else {
                throw bad(key, "must be a 64-bit integer; got \(text)")
            }
            return value
        case let value?: throw bad(key, "must be an integer, not \(value.typeName)")
        }
    }

    /// A number, or `{"double": "NaN" | "Infinity" | "-Infinity" | number}`.
    func double(_ value: JSONLValue, member: String) throws(JSONLError) -> Double {
        switch value {
        case .number(let text):
            guard let number = Double(text) else { throw bad(member, "is not a number: \(text)") }
            return number
        case .object:
            switch value[JSONLSchema.Key.double] {
            case .string("NaN")?: return .nan
            case .string("Infinity")?: return .infinity
            case .string("-Infinity")?: return -.infinity
            case .number(let text)?:
                guard let number = Double(text) else { throw bad(member, "is not a number: \(text)") }
                return number
            default: throw bad(member, "must be a number or {\"double\": \"NaN\"|\"Infinity\"|\"-Infinity\"}")
            }
        default:
            throw bad(member, "must be a number, not \(value.typeName)")
        }
    }

    /// A mark field: string, boolean, integer (no `.` or exponent) or double (with one, or the `{"double": …}`
    /// form).
    func fieldValue(_ value: JSONLValue, name: String) throws(JSONLError) -> FieldValue {
        switch value {
        case .string(let text): return .string(text)
        case .bool(let flag): return .bool(flag)
        case .number(let text) where JSONLValue.isIntegerText(text):
            guard let integer = Int64(text) else { throw bad("fields.\(name)", "integer out of 64-bit range: \(text)") }
            return .int(integer)
        case .number, .object: return .double(try double(value, member: "fields.\(name)"))
        case .null, .array: throw bad("fields.\(name)", "must be a string, number or boolean, not \(value.typeName)")
        }
    }
}
