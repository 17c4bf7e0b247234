import TraceModel

/// Decodes one frame's raw payload back into events (the inverse of `EventEncoder`).
///
/// Errors are `TraceError` `.corruptFrame` with the ordinal of the event that failed; the caller adds the
/// file and the frame's offset.
struct EventDecoder {
    /// The payload's bytes, which the stream readers point into.
    private let storage: StreamReader.Storage
    private var ops: StreamReader
    /// The events' timestamps (in `storage`), from the times stream's deltas (`TimeDeltaCodec`) added up once
    /// per frame: `timeCount` of them (the header's event count), of which the first `validTimes` fit in 64 bits
    /// (an event whose sum overflows fails when it is decoded, as it did when each delta was added in turn).
    private let times: UnsafeMutablePointer<UInt64>
    private let timeCount: Int
    private let validTimes: Int
    /// The next event's index in `times`.
    private var deltaPosition = 0
    private var refs: StreamReader
    private var values: StreamReader
    private var literals: StreamReader
    private var strings: [String] = []
    /// Each string's `KnownName` raw value, `unclassified` until asked (`knownCode(ofSlot:)`).
    private var stringCodes: [UInt8] = []
    private static let unclassified: UInt8 = 0xFE
    /// The controllers of the frame's container records, as controller table slots (`EventRecord.listStart`).
    private var listTable = TableBuffer<UInt32>()
    /// The fields of the frame's mark records (`EventRecord.listStart`).
    private var fieldTable = TableBuffer<MarkFieldRecord>()
    /// The container lists and mark fields as arrays (for tests and checks; readers use `listSlot(_:)`, `field(_:)`).
    var listSlots: [UInt32] { listTable.array }
    var fields: [MarkFieldRecord] { fieldTable.array }

    /// Entry `index` of the frame's container lists.
    @inline(__always)
    func listSlot(_ index: UInt32) -> UInt32 { listTable[Int(index)] }
    /// Entry `index` of the frame's mark fields.
    @inline(__always)
    func field(_ index: UInt32) -> MarkFieldRecord { fieldTable[Int(index)] }

    /// Copies the list table when this decoder shares it with a copy of itself, before appending to it.
    @inline(__always)
    private mutating func uniqueLists() {
        if !isKnownUniquelyReferenced(&listTable) { listTable = listTable.copy() }
    }

    /// Copies the field table when this decoder shares it with a copy of itself, before appending to it.
    @inline(__always)
    private mutating func uniqueFields() {
        if !isKnownUniquelyReferenced(&fieldTable) { fieldTable = fieldTable.copy() }
    }
    /// The frame's controller table (first sight writes the controller in full), and each entry's serial.
    /// Each entry's type name and label as string table slots (`typeSlot | labelSlot << 32`, `EventRecord.noString`
    /// for no label): the `ControllerRef` is built when asked for (`controller(atSlot:)`), not when the frame names it.
    private var controllerNames: [UInt64] = []
    /// The frame's controller table so far, built (for tests and checks).
    var controllers: [ControllerRef] { (0..<serials.count).map { controller(atSlot: UInt32($0)) } }
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
        try self.init(
            storage: StreamReader.Storage(payload), firstTimestamp: firstTimestamp, lastTimestamp: lastTimestamp, firstOrdinal: firstOrdinal,
            eventCount: eventCount
        )
    }

    /// `init(payload:…)` over a payload already in `storage` (`TraceReader.payloadStorage(of:)` inflates it there).
    init(storage: StreamReader.Storage, firstTimestamp: UInt64, lastTimestamp: UInt64, firstOrdinal: UInt64, eventCount: Int) throws {
        self.previousTimestamp = firstTimestamp
        self.ordinal = firstOrdinal
        self.expectedCount = eventCount
        self.lastTimestamp = lastTimestamp
        self.storage = storage
        let payloadCount = storage.count
        var table = StreamReader(storage, from: 0, to: payloadCount)
        guard let count = table.readVarint(), count == 5 else {
            throw TraceError(.corruptFrame, "events payload does not start with its 5 stream lengths", eventOrdinal: firstOrdinal)
        }
        var lengths = (0, 0, 0, 0, 0)
        var total = 0
        for index in 0..<5 {
            guard let length = table.readVarint(), length <= UInt64(payloadCount) else {
                throw TraceError(.corruptFrame, "events payload stream table is malformed", eventOrdinal: firstOrdinal)
            }
            switch index {
            case 0: lengths.0 = Int(length)
            case 1: lengths.1 = Int(length)
            case 2: lengths.2 = Int(length)
            case 3: lengths.3 = Int(length)
            default: lengths.4 = Int(length)
            }
            total += Int(length)
        }
        guard total == table.remaining else {
            throw TraceError(
                .corruptFrame, "events payload streams add up to \(total) bytes, the payload has \(table.remaining)", eventOrdinal: firstOrdinal
            )
        }
        // Every event takes its tag byte in ops: a count the stream cannot hold is refused before the times buffer
        // (8 bytes per announced event) is allocated.
        guard eventCount <= lengths.0 else {
            throw TraceError(
                .corruptFrame,
                "frame header announces \(eventCount) events but its ops stream holds \(lengths.0) bytes (one tag byte per event)",
                eventOrdinal: firstOrdinal
            )
        }
        let opsStart = table.position
        let timesStart = opsStart + lengths.0
        let refsStart = timesStart + lengths.1
        let valuesStart = refsStart + lengths.2
        let literalsStart = valuesStart + lengths.3
        ops = StreamReader(storage, from: opsStart, to: timesStart)
        refs = StreamReader(storage, from: refsStart, to: valuesStart)
        values = StreamReader(storage, from: valuesStart, to: literalsStart)
        literals = StreamReader(storage, from: literalsStart, to: literalsStart + lengths.4)
        let times = storage.allocateTimes(eventCount)
        // The deltas added up to timestamps as they are read; `valid` ends at the first sum that overflows.
        let valid = try TimeDeltaCodec.decodeTimestamps(
            UnsafePointer(storage.base), from: timesStart, to: refsStart, count: eventCount, firstOrdinal: firstOrdinal,
            first: firstTimestamp, into: times)
        self.times = times
        self.timeCount = eventCount
        self.validTimes = valid
    }

    private var isAtEnd: Bool {
        ops.isAtEnd && deltaPosition == timeCount && refs.isAtEnd && values.isAtEnd && literals.isAtEnd
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
        return event(of: record)
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

    /// Decodes up to `limit` events into `batch` (reset first): callbacks without a source or size argument whose
    /// controllers the frame already named are read inline, straight from the streams (`fastRun`); marks,
    /// container operations, app and SwiftUI events whose strings and controllers the frame already named too
    /// (`fastRecord`); every other event goes through `next(into:)` (same checks, same errors). The batch's
    /// timestamps are this frame's times buffer (each event takes the next one). `batch.isFinished` is set when
    /// the frame's end was reached and checked.
    ///
    /// - Throws: What `next(into:)` throws; the entries before the failing event stay in `batch`.
    mutating func decode(into batch: inout RecordBatch, limit: Int) throws {
        batch.reset(firstOrdinal: ordinal)
        let columns = batch.storage
        columns.reserve(limit)
        columns.setTimes(UnsafePointer(times) + deltaPosition, owner: storage)
        let words = columns.words
        let parents = columns.parents
        var record = EventRecord(otherAt: 0, ordinal: 0)
        // The rows the inline paths may fill: no more events than the header's count, only events whose times fit in
        // 64 bits (every row, whichever path reads it, takes one event and one time; the first failure ends the batch).
        let inlineEnd = Swift.max(0, Swift.min(limit, expectedCount - decodedCount, validTimes - deltaPosition))
        var produced = 0
        var failure: (any Error)?
        // The batch's records, written in place into the array's storage (no copy on their way into it): one per
        // row at most, and no more rows than the events the frame has left (the general reader refuses more).
        let capacity = Swift.max(1, Swift.min(limit, expectedCount - decodedCount))
        batch.records = [EventRecord](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            let rows = buffer.baseAddress!
            var recordCount = 0
            defer { initialized = recordCount }
            do {
                while produced < limit {
                    // The callback run only where a callback starts (entering it costs more than this test).
                    if ops.position < ops.end, ops.base[ops.position] == EventTag.callback {
                        produced = fastRun(words: words, parents: parents, from: produced, end: inlineEnd)
                        if produced >= limit { break }
                    }
                    // Every row takes one of the frame's events left, so `recordCount ≤ produced < inlineEnd ≤ capacity`.
                    if produced < inlineEnd, fastRecord(into: &rows[recordCount]) {
                        words[produced] = RecordBatch.recordBit | UInt64(recordCount)
                        recordCount += 1
                        produced += 1
                        continue
                    }
                    guard try next(into: &record) else {
                        batch.isFinished = true
                        return
                    }
                    if record.kind == .callback {
                        let animated: UInt8 = record.animated.map { $0 ? 2 : 1 } ?? 0
                        let bits = record.phase.rawValue | animated << 2 | record.parent.rawValue << 4
                        var slot = UInt64(record.controllerSlot)
                        if slot >= RecordBatch.wideSlot {
                            columns.wideSlots[produced] = record.controllerSlot
                            slot = RecordBatch.wideSlot
                        }
                        words[produced] = RecordBatch.callbackWord(
                            serial: record.controller, slot: slot, codeAndFlags: UInt16(record.callback.rawValue) | UInt16(bits) << 8)
                        if record.parent == .controller {
                            parents[produced] = UInt64(record.parentSerial) | UInt64(record.parentSlot) << 32
                        }
                    } else {
                        // Within `capacity`: `next(into:)` decoded an event the frame had left.
                        words[produced] = RecordBatch.recordBit | UInt64(recordCount)
                        if record.kind == .other, let event = takeEvent() { batch.events.append(event, at: recordCount) }
                        (rows + recordCount).initialize(to: record)
                        recordCount += 1
                    }
                    produced += 1
                }
            } catch {
                failure = error
            }
        }
        batch.count = produced
        if let failure { throw failure }
    }

    /// `fastRun`'s read of a controller reference at `next` (before `end`, at least one byte there): a varint of 1
    /// or 2 bytes naming table entry n as n + 2. Returns the slot, with `next` past the reference, or `nil` (`next`
    /// undefined) when the reference is longer, cut off by `end`, or names no entry below `known` (references 0 and
    /// 1 wrap around to huge slots; a 2-byte reference's slot fits in 16 bits).
    @inline(__always)
    private static func shortSlot(_ next: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>, known: UInt) -> UInt? {
        var reference = UInt(next[0])
        next += 1
        if reference >= 0x80 {
            guard next < end, next[0] < 0x80 else { return nil }
            reference = (reference & 0x7F) | UInt(next[0]) << 7
            next += 1
        }
        let slot = reference &- 2
        return slot < known ? slot : nil
    }

    /// Reads consecutive callbacks without source or size, with valid bytes and times, into the batch's columns
    /// from row `start` up to row `end`; stops before the first other event (nothing of it consumed: the caller
    /// decodes it the general way, which reports any problem). Returns the row after the last one written.
    ///
    /// Per callback it writes one word (`RecordBatch.callbackWord`: serial, slot, and the code and flags bytes as
    /// stored, which hold the phase, animated and parent presence), and a parent controller's row of `parents`.
    /// Callbacks whose controllers the frame already named are read in a tight loop; a callback that names a
    /// controller for the first time in the frame (with strings the frame already named) is read by
    /// `firstSight`, without leaving the run.
    @inline(__always)
    private mutating func fastRun(words: UnsafeMutablePointer<UInt64>, parents: UnsafeMutablePointer<UInt64>, from start: Int, end: Int) -> Int {
        guard start < end, ops.position <= ops.end &- 3 else { return start }
        // Moving pointers (few live values, so the loop keeps them in registers).
        let opsStart = ops.base + ops.position
        // The last position where a whole callback (tag, code, flags) still fits in the ops stream.
        let opsLast = ops.base + (ops.end - 3)
        let refsStart = refs.base + refs.position
        let refsEnd = refs.base + refs.end
        let outStart = words + start
        let outEnd = words + end
        var op = opsStart
        var ref = refsStart
        var out = outStart
        var valuesAt = values.position
        while true {
            let known = UInt(bitPattern: serials.count)
            // `true` when the loop stopped at a callback it does not read (a first sight, or anything else).
            let stopped = serials.withUnsafeBufferPointer { serialBuffer -> Bool in
                guard let serialBase = serialBuffer.baseAddress else { return true }
                while out < outEnd, op <= opsLast, op[0] == EventTag.callback {
                    // The code and the flags byte (little-endian: code | flags << 8).
                    let codeAndFlags = UInt16(littleEndian: UnsafeRawPointer(op + 1).loadUnaligned(as: UInt16.self))
                    // A known callback (code ≤ 15); no reserved bit, no size (flag bits 6, 7); no 2-bit field of the
                    // flags (phase, animated, parent presence) holding 3.
                    guard codeAndFlags < 0x4000, codeAndFlags & 0xFF <= 15, codeAndFlags & (codeAndFlags >> 1) & 0x1500 == 0, ref < refsEnd else {
                        return true
                    }
                    // The controller reference.
                    var next = ref
                    guard let slot = Self.shortSlot(&next, refsEnd, known: known) else { return true }
                    // Parent presence 2: a controller (presence 1, `nil`, needs nothing more than the flags).
                    if codeAndFlags & 0x2000 != 0 {
                        guard next < refsEnd, let parentSlot = Self.shortSlot(&next, refsEnd, known: known) else { return true }
                        parents[out - words] = UInt64(serialBase[Int(parentSlot)]) | UInt64(parentSlot) << 32
                    }
                    op += 3
                    ref = next
                    out.pointee = RecordBatch.callbackWord(serial: serialBase[Int(slot)], slot: UInt64(slot), codeAndFlags: codeAndFlags)
                    out += 1
                }
                return false
            }
            guard stopped, out < outEnd, op <= opsLast, op[0] == EventTag.callback,
                  let next = firstSight(op, ref, refsEnd, &valuesAt, out, parents + (out - words))
            else { break }
            ref = next
            op += 3
            out += 1
        }
        let produced = out - outStart
        guard produced > 0 else { return start }
        ops.position &+= op - opsStart
        refs.position &+= ref - refsStart
        values.position = valuesAt
        deltaPosition &+= produced
        previousTimestamp = times[deltaPosition &- 1]
        ordinal &+= UInt64(truncatingIfNeeded: produced)
        decodedCount &+= produced
        return start &+ produced
    }

    /// `fastRun`'s reading of the callback at `op` (tag checked, at least 3 ops bytes there) when the tight loop
    /// does not take it: a callback without source or size whose controller (or parent) the frame names for the
    /// first time, with strings the frame already named, read as `readCallbackRecord` reads it. Appends the new
    /// controllers to the frame's table and writes the callback's word (and parent row) only when the whole
    /// callback reads, and returns the refs stream's position after it; returns `nil` with nothing changed
    /// otherwise (the general reader then decodes it).
    @inline(never)
    private mutating func firstSight(
        _ op: UnsafePointer<UInt8>, _ ref: UnsafePointer<UInt8>, _ refsEnd: UnsafePointer<UInt8>, _ valuesAt: inout Int,
        _ out: UnsafeMutablePointer<UInt64>, _ parentRow: UnsafeMutablePointer<UInt64>
    ) -> UnsafePointer<UInt8>? {
        let codeAndFlags = UInt16(littleEndian: UnsafeRawPointer(op + 1).loadUnaligned(as: UInt16.self))
        guard codeAndFlags < 0x4000, codeAndFlags & 0xFF <= 15, codeAndFlags & (codeAndFlags >> 1) & 0x1500 == 0 else { return nil }
        var refsAt = ref - refs.base
        var valuesNext = valuesAt
        let table = serials.count
        // Up to two controllers named for the first time (the callback's and its parent), not yet in the table.
        var newSerials: (UInt32, UInt32) = (0, 0)
        var newNames: (UInt64, UInt64) = (0, 0)
        var added = 0
        // A required controller reference: an existing slot (a new one counts from `table`), or `nil`.
        func reference() -> Int? {
            guard let reference = Self.varint(refs, &refsAt) else { return nil }
            if reference == 1 {
                guard let serial = Self.varint(values, &valuesNext), serial <= UInt64(UInt32.max),
                      let type = Self.existingSlot(values, &valuesNext, known: strings.count), type >= 0,
                      let label = Self.existingSlot(values, &valuesNext, known: strings.count)
                else { return nil }
                let names = UInt64(type) | UInt64(label >= 0 ? UInt32(truncatingIfNeeded: label) : EventRecord.noString) << 32
                if added == 0 {
                    newSerials.0 = UInt32(truncatingIfNeeded: serial)
                    newNames.0 = names
                } else {
                    newSerials.1 = UInt32(truncatingIfNeeded: serial)
                    newNames.1 = names
                }
                added += 1
                return table + added - 1
            }
            guard reference >= 2, reference - 2 < UInt64(table + added) else { return nil }
            return Int(reference - 2)
        }
        func serial(_ slot: Int) -> UInt32 {
            slot < table ? serials[slot] : slot == table ? newSerials.0 : newSerials.1
        }
        // The controller's slot must fit the word's 16-bit field (a wider one goes the general way).
        guard let slot = reference(), slot < Int(RecordBatch.wideSlot) else { return nil }
        var parent: UInt64?
        if codeAndFlags & 0x2000 != 0 {
            guard let parentSlot = reference() else { return nil }
            parent = UInt64(serial(parentSlot)) | UInt64(parentSlot) << 32
        }
        let word = RecordBatch.callbackWord(serial: serial(slot), slot: UInt64(slot), codeAndFlags: codeAndFlags)
        if added > 0 {
            serials.append(newSerials.0)
            controllerNames.append(newNames.0)
            if added > 1 {
                serials.append(newSerials.1)
                controllerNames.append(newNames.1)
            }
        }
        if let parent { parentRow.pointee = parent }
        out.pointee = word
        valuesAt = valuesNext
        return refs.base + refsAt
    }

    /// Reads the next event inline when it is a mark, a container operation, an app or a SwiftUI event without a
    /// source whose strings and controllers the frame already named, with valid bytes and time (`fastMark`,
    /// `fastContainer`, `fastAppOrSwiftUI`): the record
    /// `next(into:)` would give, without its checks' error paths. Returns `false` with nothing consumed for any
    /// other event (the caller decodes it the general way, which reports any problem).
    @inline(__always)
    private mutating func fastRecord(into record: inout EventRecord) -> Bool {
        guard decodedCount < expectedCount, deltaPosition < validTimes, ops.position < ops.end else { return false }
        let tag = ops.base[ops.position]
        let timestamp = times[deltaPosition]
        if tag == EventTag.mark {
            guard shortMark(timestamp, into: &record) || fastMark(timestamp, into: &record) else { return false }
        } else if tag == EventTag.container {
            guard shortContainer(timestamp, into: &record) || fastContainer(timestamp, into: &record) else { return false }
        } else if tag == EventTag.app || tag == EventTag.swiftUI {
            guard fastAppOrSwiftUI(tag, timestamp, into: &record) else { return false }
        } else {
            return false
        }
        deltaPosition += 1
        previousTimestamp = timestamp
        ordinal += 1
        decodedCount += 1
        return true
    }

    /// A varint of `stream`'s bytes at `position` (advanced past it), or `nil` when it does not fit.
    @inline(__always)
    private static func varint(_ stream: StreamReader, _ position: inout Int) -> UInt64? {
        guard position < stream.end else { return nil }
        let first = stream.base[position]
        if first < 0x80 {
            position += 1
            return UInt64(first)
        }
        guard let (value, next) = Varint.read(stream.base, at: position, end: stream.end) else { return nil }
        position = next
        return value
    }

    /// A reference (string or controller, `n + 2`) at `position` of `stream` to an entry of a table of `known`:
    /// the slot, `-1` for "absent" (0), or `nil` for anything else (a new entry, an unknown one, bad bytes).
    @inline(__always)
    private static func existingSlot(_ stream: StreamReader, _ position: inout Int, known: Int) -> Int? {
        guard let reference = varint(stream, &position) else { return nil }
        if reference == 0 { return -1 }
        guard reference >= 2, reference - 2 < UInt64(known) else { return nil }
        return Int(reference - 2)
    }

    /// A reference of one or two varint bytes (`n + 2` to one of `known` entries, or 0 for none) at `position`
    /// (before `end`) of the payload at `base`: the slot, -1 for none, or `Int.min` for anything else (a longer
    /// varint, a new or unknown entry, the stream's end); `position` moves past it only when it reads.
    @inline(__always)
    private static func byteSlot(_ base: UnsafePointer<UInt8>, _ position: inout Int, _ end: Int, known: Int) -> Int {
        guard position < end else { return Int.min }
        var reference = Int(base[position])
        var length = 1
        if reference >= 0x80 {
            guard position &+ 1 < end, base[position &+ 1] < 0x80 else { return Int.min }
            reference = (reference & 0x7F) | Int(base[position &+ 1]) << 7
            length = 2
        }
        if reference == 0 {
            position &+= length
            return -1
        }
        // 1 (a new entry) fails here too.
        guard reference >= 2, reference &- 2 < known else { return Int.min }
        position &+= length
        return reference &- 2
    }

    /// `fastMark` for the common mark: every varint one byte (references, the field count, integer values), every
    /// string and the controller already named in the frame, every name already classified
    /// (`knownCode(ofSlot:)`). Reads through one pointer (all streams are in the same payload) with positions in
    /// registers; `false` with nothing changed for any other mark (`fastMark` then tries it).
    @inline(never)
    private mutating func shortMark(_ timestamp: UInt64, into record: inout EventRecord) -> Bool {
        let base = ops.base
        var opsAt = ops.position &+ 1
        var valuesAt = values.position
        var refsAt = refs.position
        var literalsAt = literals.position
        let opsEnd = ops.end
        let valuesEnd = values.end
        let stringCount = strings.count
        let name = Self.byteSlot(base, &valuesAt, valuesEnd, known: stringCount)
        guard name >= 0, opsAt < opsEnd, valuesAt < valuesEnd else { return false }
        let phaseCode = base[opsAt]
        opsAt &+= 1
        guard phaseCode <= 2 else { return false }
        let controllerSlot = Self.byteSlot(base, &refsAt, refs.end, known: serials.count)
        let count = Int(base[valuesAt])
        valuesAt &+= 1
        guard controllerSlot != Int.min, count < 0x80, count <= opsEnd &- opsAt else { return false }
        let nameCode = stringCodes[name]
        guard nameCode != Self.unclassified else { return false }
        uniqueFields()
        fieldTable.reserve(extra: count)
        let fieldStart = fieldTable.count
        var out = fieldTable.base + fieldStart
        for _ in 0..<count {
            let fieldName = Self.byteSlot(base, &valuesAt, valuesEnd, known: stringCount)
            guard fieldName >= 0 else { return false }
            let fieldCode = stringCodes[fieldName]
            guard fieldCode != Self.unclassified else { return false }
            let typeCode = base[opsAt]
            opsAt &+= 1
            let type: MarkFieldRecord.ValueType
            let bits: UInt64
            switch typeCode {
            case 0:
                let value = Self.byteSlot(base, &valuesAt, valuesEnd, known: stringCount)
                guard value >= 0 else { return false }
                type = .string
                bits = UInt64(truncatingIfNeeded: value)
            case 1:
                guard valuesAt < valuesEnd, base[valuesAt] < 0x80 else { return false }
                type = .int
                bits = UInt64(bitPattern: Varint.zigZagDecoded(UInt64(base[valuesAt])))
                valuesAt &+= 1
            case 2, 3:
                type = .bool
                bits = UInt64(typeCode &- 2)
            case 4:
                guard literals.end &- literalsAt >= 8 else { return false }
                bits = UInt64(littleEndian: UnsafeRawPointer(base + literalsAt).loadUnaligned(as: UInt64.self))
                literalsAt &+= 8
                type = .double
            default:
                return false
            }
            out.initialize(to: MarkFieldRecord(nameSlot: UInt32(truncatingIfNeeded: fieldName), nameCode: fieldCode, type: type, bits: bits))
            out += 1
        }
        fieldTable.commit(count)
        record = EventRecord(
            kind: .mark, timestamp: timestamp, ordinal: ordinal, phase: Phase(rawValue: phaseCode) ?? .instant, controllerSlot: controllerSlot,
            serials: serials, code: nameCode, stringSlot: UInt32(truncatingIfNeeded: name), listStart: fieldStart, listCount: count
        )
        ops.position = opsAt
        values.position = valuesAt
        refs.position = refsAt
        literals.position = literalsAt
        return true
    }

    /// The body of a mark (tag already checked, at `ops.position`) as `readMarkRecord` reads it, when every string
    /// and the controller are entries the frame already named and every byte is valid; commits the streams and
    /// `fields` only then.
    private mutating func fastMark(_ timestamp: UInt64, into record: inout EventRecord) -> Bool {
        var opsAt = ops.position + 1
        var valuesAt = values.position
        var refsAt = refs.position
        var literalsAt = literals.position
        let stringCount = strings.count
        guard let name = Self.existingSlot(values, &valuesAt, known: stringCount), name >= 0 else { return false }
        guard opsAt < ops.end else { return false }
        let phaseCode = ops.base[opsAt]
        opsAt += 1
        guard let phase = Phase(rawValue: phaseCode) else { return false }
        guard let controllerSlot = Self.existingSlot(refs, &refsAt, known: serials.count) else { return false }
        guard let count = Self.varint(values, &valuesAt), count <= UInt64(ops.end - opsAt) else { return false }
        // The fields are written after the table's last one and counted only when the whole mark reads.
        uniqueFields()
        fieldTable.reserve(extra: Int(count))
        let fieldStart = fieldTable.count
        var out = fieldTable.base + fieldStart
        for _ in 0..<Int(count) {
            guard let fieldName = Self.existingSlot(values, &valuesAt, known: stringCount), fieldName >= 0, opsAt < ops.end else {
                return false
            }
            let typeCode = ops.base[opsAt]
            opsAt += 1
            let type: MarkFieldRecord.ValueType
            let bits: UInt64
            switch typeCode {
            case 0:
                guard let value = Self.existingSlot(values, &valuesAt, known: stringCount), value >= 0 else { return false }
                type = .string
                bits = UInt64(value)
            case 1:
                guard let raw = Self.varint(values, &valuesAt) else { return false }
                type = .int
                bits = UInt64(bitPattern: Varint.zigZagDecoded(raw))
            case 2:
                type = .bool
                bits = 0
            case 3:
                type = .bool
                bits = 1
            case 4:
                guard literals.end - literalsAt >= 8 else { return false }
                bits = UInt64(littleEndian: UnsafeRawPointer(literals.base + literalsAt).loadUnaligned(as: UInt64.self))
                literalsAt += 8
                type = .double
            default:
                return false
            }
            let nameSlot = UInt32(truncatingIfNeeded: fieldName)
            out.initialize(to: MarkFieldRecord(nameSlot: nameSlot, nameCode: knownCode(ofSlot: nameSlot), type: type, bits: bits))
            out += 1
        }
        fieldTable.commit(Int(count))
        let nameSlot = UInt32(truncatingIfNeeded: name)
        record = EventRecord(
            kind: .mark, timestamp: timestamp, ordinal: ordinal, phase: phase, controllerSlot: controllerSlot, serials: serials,
            code: knownCode(ofSlot: nameSlot), stringSlot: nameSlot, listStart: fieldStart, listCount: Int(count)
        )
        ops.position = opsAt
        values.position = valuesAt
        refs.position = refsAt
        literals.position = literalsAt
        return true
    }

    /// The body of an app or SwiftUI event (`tag`, at `ops.position`) as `readRecordBody` reads it, when its string
    /// (scene, view name) and host are entries the frame already named (or absent where allowed) and every byte is
    /// valid; commits the streams only then.
    private mutating func fastAppOrSwiftUI(_ tag: UInt8, _ timestamp: UInt64, into record: inout EventRecord) -> Bool {
        let opsAt = ops.position + 1
        var valuesAt = values.position
        var refsAt = refs.position
        guard opsAt < ops.end else { return false }
        let code = ops.base[opsAt]
        if tag == EventTag.app {
            guard opsAt + 1 < ops.end, AppTransition(rawValue: code) != nil, let phase = Phase(rawValue: ops.base[opsAt + 1]),
                  let scene = Self.existingSlot(values, &valuesAt, known: strings.count)
            else { return false }
            record = EventRecord(otherAt: timestamp, ordinal: ordinal)
            record.kind = .app
            record.code = code
            record.phase = phase
            record.stringSlot = scene >= 0 ? UInt32(truncatingIfNeeded: scene) : EventRecord.noString
            ops.position = opsAt + 2
            values.position = valuesAt
            return true
        }
        guard SwiftUIEvent.Action(rawValue: code) != nil, let view = Self.existingSlot(values, &valuesAt, known: strings.count), view >= 0,
              let host = Self.existingSlot(refs, &refsAt, known: serials.count)
        else { return false }
        record = EventRecord(otherAt: timestamp, ordinal: ordinal)
        record.kind = .swiftUI
        record.code = code
        record.stringSlot = UInt32(truncatingIfNeeded: view)
        if host >= 0 {
            setController(UInt32(truncatingIfNeeded: host), on: &record)
        }
        ops.position = opsAt + 1
        values.position = valuesAt
        refs.position = refsAt
        return true
    }

    /// `fastContainer` for the common container operation: references of one or two varint bytes to controllers
    /// the frame already named, a one-byte controller count and tab index; read through one pointer with
    /// positions in registers, as `shortMark`. `false` with nothing changed for any other operation
    /// (`fastContainer` then tries it).
    @inline(never)
    private mutating func shortContainer(_ timestamp: UInt64, into record: inout EventRecord) -> Bool {
        let base = ops.base
        var opsAt = ops.position &+ 1
        var valuesAt = values.position
        var refsAt = refs.position
        let opsEnd = ops.end
        let refsEnd = refs.end
        guard opsEnd &- opsAt >= 2, valuesAt < values.end else { return false }
        let operation = base[opsAt]
        let bits = base[opsAt &+ 1]
        opsAt &+= 2
        // A known operation (0 … 16); no reserved bit; no 2-bit field (phase, animated) holding 3.
        guard operation <= 16, bits & 0xC0 == 0, bits & (bits >> 1) & 0x05 == 0 else { return false }
        let known = serials.count
        let containerSlot = Self.byteSlot(base, &refsAt, refsEnd, known: known)
        let count = Int(base[valuesAt])
        valuesAt &+= 1
        guard containerSlot != Int.min, count < 0x80, count <= refsEnd &- refsAt else { return false }
        uniqueLists()
        listTable.reserve(extra: count)
        let listStart = listTable.count
        var out = listTable.base + listStart
        for _ in 0..<count {
            let slot = Self.byteSlot(base, &refsAt, refsEnd, known: known)
            guard slot >= 0 else { return false }
            out.initialize(to: UInt32(truncatingIfNeeded: slot))
            out += 1
        }
        var style = EventRecord.noStyle
        if bits & (1 << 4) != 0 {
            guard opsAt < opsEnd, base[opsAt] <= 8 else { return false }
            style = base[opsAt]
            opsAt &+= 1
        }
        var index: Int64?
        if bits & (1 << 5) != 0 {
            guard valuesAt < values.end, base[valuesAt] < 0x80 else { return false }
            index = Varint.zigZagDecoded(UInt64(base[valuesAt]))
            valuesAt &+= 1
        }
        listTable.commit(count)
        let animatedCode = (bits >> 2) & 3
        record = EventRecord(
            kind: .container, timestamp: timestamp, ordinal: ordinal, phase: Phase(rawValue: bits & 3) ?? .instant,
            animated: animatedCode == 0 ? nil : animatedCode == 2, controllerSlot: containerSlot, serials: serials, code: operation,
            listStart: listStart, listCount: count, style: style, index: index
        )
        ops.position = opsAt
        values.position = valuesAt
        refs.position = refsAt
        return true
    }

    /// The body of a container operation (tag already checked, at `ops.position`) as `readContainerRecord` reads
    /// it, when the container and every controller are entries the frame already named and every byte is valid;
    /// commits the streams and `listSlots` only then.
    private mutating func fastContainer(_ timestamp: UInt64, into record: inout EventRecord) -> Bool {
        var opsAt = ops.position + 1
        var valuesAt = values.position
        var refsAt = refs.position
        guard opsAt + 2 <= ops.end else { return false }
        let operation = ops.base[opsAt]
        let bits = ops.base[opsAt + 1]
        opsAt += 2
        // A known operation; no reserved bit; no 2-bit field (phase, animated) holding 3; phase not 3 either.
        guard ContainerOperation(rawValue: operation) != nil, bits & 0xC0 == 0, bits & 3 != 3, (bits >> 2) & 3 != 3 else { return false }
        let known = serials.count
        guard let containerSlot = Self.existingSlot(refs, &refsAt, known: known) else { return false }
        guard let count = Self.varint(values, &valuesAt), count <= UInt64(refs.end - refsAt) else { return false }
        // The list is written after the table's last entry and counted only when the whole operation reads.
        uniqueLists()
        listTable.reserve(extra: Int(count))
        let listStart = listTable.count
        var out = listTable.base + listStart
        for _ in 0..<Int(count) {
            guard let slot = Self.existingSlot(refs, &refsAt, known: known), slot >= 0 else { return false }
            out.initialize(to: UInt32(truncatingIfNeeded: slot))
            out += 1
        }
        var style = EventRecord.noStyle
        if bits & (1 << 4) != 0 {
            guard opsAt < ops.end, ModalPresentationStyle(rawValue: ops.base[opsAt]) != nil else { return false }
            style = ops.base[opsAt]
            opsAt += 1
        }
        var index: Int64?
        if bits & (1 << 5) != 0 {
            guard let raw = Self.varint(values, &valuesAt) else { return false }
            index = Varint.zigZagDecoded(raw)
        }
        listTable.commit(Int(count))
        let animated: Bool?
        switch (bits >> 2) & 3 {
        case 1: animated = false
        case 2: animated = true
        default: animated = nil
        }
        record = EventRecord(
            kind: .container, timestamp: timestamp, ordinal: ordinal, phase: Phase(rawValue: bits & 3) ?? .instant, animated: animated,
            controllerSlot: containerSlot, serials: serials, code: operation, listStart: listStart, listCount: Int(count), style: style,
            index: index
        )
        ops.position = opsAt
        values.position = valuesAt
        refs.position = refsAt
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
    @inline(__always)
    func controller(atSlot slot: UInt32) -> ControllerRef {
        let names = controllerNames[Int(slot)]
        let labelSlot = UInt32(truncatingIfNeeded: names >> 32)
        return ControllerRef(
            serial: serials[Int(slot)], typeName: strings[Int(UInt32(truncatingIfNeeded: names))],
            label: labelSlot == EventRecord.noString ? nil : strings[Int(labelSlot)]
        )
    }

    /// The string at `slot` of the frame's string table.
    @inline(__always)
    func string(atSlot slot: UInt32) -> String {
        strings[Int(slot)]
    }

    /// The serial of the controller at `slot` of the frame's controller table.
    @inline(__always)
    func serial(atSlot slot: UInt32) -> UInt32 {
        serials[Int(slot)]
    }

    /// How many strings and controllers the frame's tables hold so far.
    var stringCount: Int { strings.count }
    var controllerCount: Int { serials.count }

    /// A field of a mark record as a `FieldValue`.
    func value(of field: MarkFieldRecord) -> FieldValue {
        switch field.type {
        case .string: .string(strings[Int(field.bits)])
        case .int: .int(Int64(bitPattern: field.bits))
        case .bool: .bool(field.bits != 0)
        case .double: .double(Double(bitPattern: field.bits))
        }
    }

    /// The `Event` a record of this frame stands for (for `.other`, the last one decoded).
    func event(of record: EventRecord) -> Event {
        if record.kind == .other { return event ?? Event(timestamp: record.timestamp, .unknown(UnknownEvent(tag: 0, body: []))) }
        return Event(timestamp: record.timestamp, payload(of: record))
    }

    /// The payload of `event(of:)`.
    func payload(of record: EventRecord) -> EventPayload {
        let payload: EventPayload
        switch record.kind {
        case .callback:
            let parent: ParentArgument?
            switch record.parent {
            case .absent: parent = nil
            case .none: parent = ParentArgument.none
            case .controller: parent = .controller(controller(atSlot: record.parentSlot))
            }
            payload = .callback(CallbackEvent(
                record.callback, record.phase, controller: controller(atSlot: record.controllerSlot), animated: record.animated, parent: parent
            ))
        case .container:
            let start = Int(record.listStart)
            let list = listTable.elements(from: start, count: Int(record.listCount)).map { controller(atSlot: $0) }
            payload = .container(ContainerEvent(
                ContainerOperation(rawValue: record.code) ?? .setRoot, record.phase,
                container: record.hasController ? controller(atSlot: record.controllerSlot) : nil, controllers: list,
                animated: record.animated, style: record.presentationStyle, index: record.hasIndex ? Int(record.index) : nil
            ))
        case .app:
            payload = .app(AppEvent(
                AppTransition(rawValue: record.code) ?? .didFinishLaunching, record.phase,
                scene: record.stringSlot == EventRecord.noString ? nil : strings[Int(record.stringSlot)]
            ))
        case .swiftUI:
            payload = .swiftUI(SwiftUIEvent(
                SwiftUIEvent.Action(rawValue: record.code) ?? .onAppear, view: strings[Int(record.stringSlot)],
                host: record.hasController ? controller(atSlot: record.controllerSlot) : nil
            ))
        case .mark:
            let start = Int(record.listStart)
            let list = fieldTable.elements(from: start, count: Int(record.listCount)).map { MarkField(strings[Int($0.nameSlot)], value(of: $0)) }
            payload = .mark(MarkEvent(
                strings[Int(record.stringSlot)], record.phase,
                controller: record.hasController ? controller(atSlot: record.controllerSlot) : nil, fields: list
            ))
        case .other:
            payload = event?.payload ?? .unknown(UnknownEvent(tag: 0, body: []))
        }
        return payload
    }

    private func failure(_ message: String) -> TraceError {
        TraceError(.corruptFrame, "event \(ordinal): \(message)", eventOrdinal: ordinal)
    }

    private mutating func decodeOne(into record: inout EventRecord) throws {
        guard let tagByte = ops.readUInt8() else { throw truncated("event tag") }
        guard deltaPosition < timeCount else { throw failure("payload ends inside the timestamp deltas") }
        let position = deltaPosition
        deltaPosition += 1
        guard position < validTimes else { throw failure("timestamp overflows 64 bits") }
        let timestamp = times[position]
        if tagByte == EventTag.callback {
            // The common case: a callback without a source, read as a record (no strings, no refcounting).
            var size: Size?
            try readCallbackRecord(timestamp, into: &record, size: &size)
            previousTimestamp = timestamp
            ordinal += 1
            guard let size else { return }
            // The event built once, with its size (not built without it, then copied to set the size).
            let parent: ParentArgument?
            switch record.parent {
            case .absent: parent = nil
            case .none: parent = ParentArgument.none
            case .controller: parent = .controller(controller(atSlot: record.parentSlot))
            }
            event = Event(timestamp: timestamp, .callback(CallbackEvent(
                record.callback, record.phase, controller: controller(atSlot: record.controllerSlot), animated: record.animated, parent: parent,
                size: size
            )))
            record.kind = .other
            return
        }
        switch tagByte {
        case EventTag.container, EventTag.app, EventTag.swiftUI, EventTag.mark:
            record = EventRecord(otherAt: timestamp, ordinal: ordinal)
            try readRecordBody(tagByte, into: &record)
        default:
            try decodeEvent(tagByte, timestamp, into: &record)
            return
        }
        previousTimestamp = timestamp
        ordinal += 1
    }

    /// An event that has no record form (`.other`): decoded into `event`.
    private mutating func decodeEvent(_ tagByte: UInt8, _ timestamp: UInt64, into record: inout EventRecord) throws {
        let payload: EventPayload
        switch tagByte & EventTag.kindMask {
        case EventTag.callback: payload = .callback(try readCallback())
        case EventTag.container, EventTag.app, EventTag.swiftUI, EventTag.mark:
            // The same readers as the records (the event then has a source).
            var body = EventRecord(otherAt: timestamp, ordinal: ordinal)
            try readRecordBody(tagByte & EventTag.kindMask, into: &body)
            payload = event(of: body).payload
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
        record = EventRecord(otherAt: timestamp, ordinal: ordinal - 1)
    }

    /// The body of a container, app, SwiftUI or mark event (kind `tag`) as a record.
    private mutating func readRecordBody(_ tag: UInt8, into record: inout EventRecord) throws {
        switch tag {
        case EventTag.container:
            try readContainerRecord(into: &record)
        case EventTag.app:
            record.kind = .app
            record.code = try readEnum(AppTransition.self, "app transition").rawValue
            record.phase = try readEnum(Phase.self, "phase")
            record.stringSlot = try readStringSlot()
        case EventTag.swiftUI:
            record.kind = .swiftUI
            record.code = try readEnum(SwiftUIEvent.Action.self, "SwiftUI action").rawValue
            record.stringSlot = try readRequiredStringSlot("SwiftUI view name")
            try readOptionalController(into: &record)
        default:
            try readMarkRecord(into: &record)
        }
    }

    /// An optional controller slot of a record's body: when present, the record names that controller.
    private mutating func readOptionalController(into record: inout EventRecord) throws {
        guard let slot = try readControllerSlot() else { return }
        setController(slot, on: &record)
    }

    /// Names the controller at frame-table `slot` (an existing slot) as `record`'s controller.
    @inline(__always)
    private func setController(_ slot: UInt32, on record: inout EventRecord) {
        record.hasController = true
        record.controllerSlot = slot
        record.controller = serials[Int(slot)]
    }

    /// A container operation's body as a record: the container and the controllers as table slots.
    private mutating func readContainerRecord(into record: inout EventRecord) throws {
        record.kind = .container
        record.code = try readEnum(ContainerOperation.self, "container operation").rawValue
        let bits = try Self.need(ops.readUInt8(), "container flags", ordinal)
        guard bits & 0xC0 == 0 else { throw failure("reserved container flag bits set: \(bits)") }
        record.phase = try phase(bits & 3)
        record.animated = try optionalBool((bits >> 2) & 3)
        try readOptionalController(into: &record)
        let count = try Self.need(values.readVarint(), "controller count", ordinal)
        guard count <= UInt64(refs.remaining) else { throw failure("controller count \(count) exceeds the payload") }
        uniqueLists()
        record.listStart = UInt32(listTable.count)
        record.listCount = UInt32(count)
        for _ in 0..<count {
            guard let slot = try readControllerSlot() else { throw failure("missing container subject") }
            listTable.append(slot)
        }
        if bits & (1 << 4) != 0 { record.style = try readEnum(ModalPresentationStyle.self, "presentation style").rawValue }
        if bits & (1 << 5) != 0 {
            let value = try Self.need(values.readSignedVarint(), "tab index", ordinal)
            guard Int(exactly: value) != nil else { throw failure("tab index \(value) out of range") }
            record.hasIndex = true
            record.index = value
        }
    }

    /// A mark's body as a record: name and field names as string slots (with their `KnownName`), the fields in
    /// `fields`.
    private mutating func readMarkRecord(into record: inout EventRecord) throws {
        record.kind = .mark
        let name = try readRequiredStringSlot("mark name")
        record.stringSlot = name
        record.code = knownCode(ofSlot: name)
        record.phase = try readEnum(Phase.self, "phase")
        try readOptionalController(into: &record)
        let count = try Self.need(values.readVarint(), "field count", ordinal)
        guard count <= UInt64(ops.remaining) else { throw failure("field count \(count) exceeds the payload") }
        uniqueFields()
        record.listStart = UInt32(fieldTable.count)
        record.listCount = UInt32(count)
        for _ in 0..<count {
            let fieldName = try readRequiredStringSlot("field name")
            let nameCode = knownCode(ofSlot: fieldName)
            let type: MarkFieldRecord.ValueType
            let bits: UInt64
            switch try Self.need(ops.readUInt8(), "field type", ordinal) {
            case 0:
                type = .string
                bits = UInt64(try readRequiredStringSlot("field value"))
            case 1:
                type = .int
                bits = UInt64(bitPattern: try Self.need(values.readSignedVarint(), "integer field", ordinal))
            case 2:
                type = .bool
                bits = 0
            case 3:
                type = .bool
                bits = 1
            case 4:
                type = .double
                bits = try Self.need(literals.readUInt64(), "double field", ordinal)
            case let other: throw failure("unknown field type \(other)")
            }
            fieldTable.append(MarkFieldRecord(nameSlot: fieldName, nameCode: nameCode, type: type, bits: bits))
        }
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
        record.hasController = true
        record.code = 0
        record.stringSlot = EventRecord.noString
        record.listStart = 0
        record.listCount = 0
        record.style = EventRecord.noStyle
        record.hasIndex = false
        record.index = 0
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
        let slot = try readStringSlot()
        return slot == EventRecord.noString ? nil : strings[Int(slot)]
    }

    /// Reads a string reference; returns its slot in the frame's string table (adding it on first sight), or
    /// `EventRecord.noString` for "absent".
    private mutating func readStringSlot() throws -> UInt32 {
        let reference = try Self.need(values.readVarint(), "string reference", ordinal)
        switch reference {
        case 0:
            return EventRecord.noString
        case 1:
            let length = try Self.need(values.readVarint(), "string length", ordinal)
            guard length <= UInt64(literals.remaining),
                  let value = literals.readString(byteCount: Int(length))
            else { throw failure("string of \(length) bytes runs past the payload") }
            strings.append(value)
            stringCodes.append(Self.unclassified)
            return UInt32(strings.count - 1)
        default:
            let index = reference - 2
            guard index < UInt64(strings.count) else {
                throw failure("string reference \(index) but only \(strings.count) strings defined in this frame")
            }
            return UInt32(index)
        }
    }

    private mutating func readRequiredStringSlot(_ what: String) throws -> UInt32 {
        let slot = try readStringSlot()
        guard slot != EventRecord.noString else { throw failure("missing \(what)") }
        return slot
    }

    /// The `KnownName` raw value of the string at `slot`, classified on first request.
    @inline(__always)
    private mutating func knownCode(ofSlot slot: UInt32) -> UInt8 {
        let code = stringCodes[Int(slot)]
        if code != Self.unclassified { return code }
        return classify(slot)
    }

    /// Classifies the string at `slot` (`knownCode(ofSlot:)`'s first request).
    @inline(never)
    private mutating func classify(_ slot: UInt32) -> UInt8 {
        let classified = KnownName(strings[Int(slot)]).rawValue
        stringCodes[Int(slot)] = classified
        return classified
    }

    private mutating func readRequiredString(_ what: String) throws -> String {
        guard let value = try readString() else { throw failure("missing \(what)") }
        return value
    }

    private mutating func readController() throws -> ControllerRef? {
        guard let slot = try readControllerSlot() else { return nil }
        return controller(atSlot: slot)
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
            let typeSlot = try readRequiredStringSlot("controller type name")
            let labelSlot = try readStringSlot()
            controllerNames.append(UInt64(typeSlot) | UInt64(labelSlot) << 32)
            serials.append(UInt32(serial))
            return UInt32(serials.count - 1)
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

    /// `require` for the record readers: the same error, with the field named by a `StaticString` (no `String`
    /// built unless it fails).
    @inline(__always)
    private static func need<T>(_ value: T?, _ what: StaticString, _ ordinal: UInt64) throws -> T {
        guard let value else {
            throw TraceError(.corruptFrame, "event \(ordinal): payload ends inside the \(what)", eventOrdinal: ordinal)
        }
        return value
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
