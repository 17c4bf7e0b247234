import TraceModel

/// Encodes events into one frame's raw (uncompressed) payload, interning strings and controllers per frame.
///
/// The first use of a string or controller in a frame writes it in full and gives it the next table index;
/// later uses write the index; a source line's text is written in full every time. Tables start empty in every
/// frame, so each frame decodes alone.
///
/// Fields go to five streams by type (docs/FORMAT.md §5) — kinds and flags, timestamp deltas, controller
/// references, other integers, literal bytes — so that deflate sees long runs of alike data: the repetitive
/// kinds and references compress far better when the noisy low bits of timestamps are not interleaved.
struct EventEncoder {
    /// Tags, enum values, flag bytes.
    private var ops = ByteWriter(capacity: 8 * 1024)
    /// One timestamp delta per event, turned into the times stream by `payload()` (`TimeDeltaCodec`).
    private var deltas: [UInt64] = []
    /// An estimate of the times stream's bytes so far (one token byte per delta, its bits below the top three).
    private var timeBits = 0
    /// The times stream's layout: split (format 2.0), or planes when appending to a format 1.x file.
    let timeLayout: TimeDeltaCodec.Layout
    /// Controller references (varints).
    private var refs = ByteWriter(capacity: 8 * 1024)
    /// Every other integer: string references and lengths, counts, serials, integer values, lines.
    private var values = ByteWriter(capacity: 8 * 1024)
    /// String UTF-8 bytes, doubles, escaped bodies.
    private var literals = ByteWriter(capacity: 16 * 1024)
    private(set) var eventCount = 0
    private(set) var firstTimestamp: UInt64 = 0
    private(set) var lastTimestamp: UInt64 = 0
    private var strings: [String: UInt64] = [:]
    /// Strings in the frame's table, those written without interning included.
    private var stringCount: UInt64 = 0
    /// The frame's controller table, and for each serial the position of its latest entry (looking up a serial
    /// is much cheaper than hashing a type name on every reference).
    private var controllerTable: [ControllerRef] = []
    private var controllerBySerial: [UInt32: Int] = [:]

    /// Raw bytes so far (the stream lengths' varints not counted).
    var byteCount: Int { ops.count + timeBits / 8 + 16 + refs.count + values.count + literals.count }

    init(timeLayout: TimeDeltaCodec.Layout = .split) {
        self.timeLayout = timeLayout
    }

    /// The frame's raw payload: `varint 5`, the five stream lengths as varints, then the streams in order; and
    /// where the compressor should start deflate blocks of their own: every stream gets its own Huffman codes,
    /// the times stream's tokens are compressed `.filtered` and its stored bits `.stored` (they are noise).
    func payload() -> (bytes: [UInt8], blocks: [Deflater.Block]) {
        let times = TimeDeltaCodec.encode(deltas, layout: timeLayout)
        var output = ByteWriter(capacity: byteCount + 32)
        let streams = [ops, times.bytes, refs, values, literals]
        output.writeVarint(UInt64(streams.count))
        for stream in streams { output.writeVarint(UInt64(stream.count)) }
        var blocks: [Deflater.Block] = []
        for (index, stream) in streams.enumerated() {
            if index == 1, let stored = times.storedBitsOffset {
                if stored >= Self.minimumBlockBytes {
                    blocks.append(Deflater.Block(start: output.count, method: .filtered))
                }
                if stream.count - stored >= Self.minimumBlockBytes {
                    blocks.append(Deflater.Block(start: output.count + stored, method: .stored))
                }
            } else if index > 0, stream.count >= Self.minimumBlockBytes || (blocks.last.map { $0.method != .standard } ?? false) {
                blocks.append(Deflater.Block(start: output.count, method: .standard))
            }
            output.writeBytes(stream.bytes)
        }
        return (output.bytes, blocks)
    }

    /// A stretch shorter than this shares the previous deflate block: a block of its own costs a few bytes of
    /// headers and code tables, which only a longer stretch earns back (small frames: a recorder flushing
    /// every second at a few events per second).
    static let minimumBlockBytes = 256

    /// Starts a new frame: forgets the tables and the bytes.
    mutating func reset() {
        ops.removeAll()
        deltas.removeAll(keepingCapacity: true)
        timeBits = 0
        refs.removeAll()
        values.removeAll()
        literals.removeAll()
        eventCount = 0
        firstTimestamp = 0
        lastTimestamp = 0
        strings.removeAll(keepingCapacity: true)
        stringCount = 0
        controllerTable.removeAll(keepingCapacity: true)
        controllerBySerial.removeAll(keepingCapacity: true)
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
        deltas.append(delta)
        timeBits += 8 + TimeDeltaCodec.storedBitCount(delta, significant: TimeDeltaCodec.significantBits)
        eventCount += 1
        let sourceBit: UInt8 = event.source == nil ? 0 : EventTag.hasSource
        switch event.payload {
        case .callback(let callback):
            ops.writeUInt8(EventTag.callback | sourceBit)
            writeCallback(callback)
        case .container(let container):
            ops.writeUInt8(EventTag.container | sourceBit)
            writeContainer(container)
        case .app(let app):
            ops.writeUInt8(EventTag.app | sourceBit)
            ops.writeUInt8(app.transition.rawValue)
            ops.writeUInt8(app.phase.rawValue)
            writeString(app.scene)
        case .swiftUI(let swiftUI):
            ops.writeUInt8(EventTag.swiftUI | sourceBit)
            ops.writeUInt8(swiftUI.action.rawValue)
            writeString(swiftUI.view)
            writeController(swiftUI.host)
        case .mark(let mark):
            ops.writeUInt8(EventTag.mark | sourceBit)
            writeMark(mark)
        case .recorder(let recorder):
            ops.writeUInt8(EventTag.recorder | sourceBit)
            switch recorder {
            case .runStarted(let process):
                ops.writeUInt8(0)
                writeString(process)
            case .eventsDropped(let count):
                ops.writeUInt8(1)
                values.writeVarint(count)
            case .note(let text):
                ops.writeUInt8(2)
                writeString(text)
            }
        case .unknown(let unknown):
            ops.writeUInt8(EventTag.escape | sourceBit)
            ops.writeUInt8(unknown.tag)
            values.writeVarint(UInt64(unknown.body.count))
            literals.writeBytes(unknown.body)
        }
        if let source = event.source {
            var presence: UInt8 = 0
            if source.text != nil { presence |= 1 }
            if source.file != nil { presence |= 2 }
            if source.line != nil { presence |= 4 }
            ops.writeUInt8(presence)
            // A source line is written in full every time: lines rarely repeat within a frame, and looking each
            // one up (hashing a whole line) cost more than the rare repeat saves.
            if let text = source.text { writeString(text, interned: false) }
            if let file = source.file { writeString(file) }
            if let line = source.line { values.writeVarint(UInt64(line)) }
        }
    }

    private mutating func writeCallback(_ event: CallbackEvent) {
        ops.writeUInt8(event.callback.rawValue)
        var bits = event.phase.rawValue
        bits |= Self.optionalBool(event.animated) << 2
        switch event.parent {
        case nil: break
        case .none?: bits |= 1 << 4
        case .controller?: bits |= 2 << 4
        }
        if event.size != nil { bits |= 1 << 6 }
        ops.writeUInt8(bits)
        writeController(event.controller)
        if case .controller(let parent)? = event.parent { writeController(parent) }
        if let size = event.size {
            literals.writeUInt64(size.width.bitPattern)
            literals.writeUInt64(size.height.bitPattern)
        }
    }

    private mutating func writeContainer(_ event: ContainerEvent) {
        ops.writeUInt8(event.operation.rawValue)
        var bits = event.phase.rawValue
        bits |= Self.optionalBool(event.animated) << 2
        if event.style != nil { bits |= 1 << 4 }
        if event.index != nil { bits |= 1 << 5 }
        ops.writeUInt8(bits)
        writeController(event.container)
        values.writeVarint(UInt64(event.controllers.count))
        for controller in event.controllers { writeController(controller) }
        if let style = event.style { ops.writeUInt8(style.rawValue) }
        if let index = event.index { values.writeSignedVarint(Int64(index)) }
    }

    private mutating func writeMark(_ event: MarkEvent) {
        writeString(event.name)
        ops.writeUInt8(event.phase.rawValue)
        writeController(event.controller)
        values.writeVarint(UInt64(event.fields.count))
        for field in event.fields {
            writeString(field.name)
            switch field.value {
            case .string(let value):
                ops.writeUInt8(0)
                writeString(value)
            case .int(let value):
                ops.writeUInt8(1)
                values.writeSignedVarint(value)
            case .bool(let value):
                ops.writeUInt8(value ? 3 : 2)
            case .double(let value):
                ops.writeUInt8(4)
                literals.writeUInt64(value.bitPattern)
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

    /// In the values stream: `varint 0` = nil; `varint 1, varint length` = a new string whose UTF-8 bytes go to
    /// the literals stream (it gets the next index); `varint n ≥ 2` = string number `n - 2` of this frame.
    /// Not `interned`: always written as a new string, and not found by later uses.
    private mutating func writeString(_ value: String?, interned: Bool = true) {
        guard let value else {
            values.writeVarint(0)
            return
        }
        if interned {
            if let index = strings[value] {
                values.writeVarint(index + 2)
                return
            }
            strings[value] = stringCount
        }
        stringCount += 1
        values.writeVarint(1)
        let utf8 = value.utf8
        values.writeVarint(UInt64(utf8.count))
        literals.writeBytes(utf8)
    }

    /// In the refs stream: `varint 0` = nil; `varint 1` = a new controller (gets the next index), whose serial
    /// follows in the values stream, then its type name and label as strings; `varint n ≥ 2` = controller
    /// number `n - 2` of this frame.
    private mutating func writeController(_ value: ControllerRef?) {
        guard let value else {
            refs.writeVarint(0)
            return
        }
        if let index = controllerBySerial[value.serial], controllerTable[index] == value {
            refs.writeVarint(UInt64(index) + 2)
            return
        }
        // New, or the same serial with another type name or label (never from the recorder): a new entry.
        controllerBySerial[value.serial] = controllerTable.count
        controllerTable.append(value)
        refs.writeVarint(1)
        values.writeVarint(UInt64(value.serial))
        writeString(value.typeName)
        writeString(value.label)
    }
}
