import TraceModel

/// Decodes one events frame one event at a time, straight from the frame's streams: no `[Event]` per frame, and
/// for the standard kinds no `Event` at all (see `EventRecord`): strings, controllers, container lists and mark
/// fields stay in the frame's tables, which a consumer reads by slot (`string(atSlot:)`, `controller(atSlot:)`,
/// `listSlot(_:)`, `field(_:)`).
///
/// Get one with `TraceReader.cursor(for:)`; keep it in a `var` and call `next()` until it returns `nil`. The
/// frame's controller table (`controller(atSlot:)`) grows as the frame names new controllers.
public struct FrameCursor {
    fileprivate var decoder: EventDecoder
    /// The frame being decoded.
    public let frame: FrameInfo
    private let path: String
    /// The last event `next()` returned when it was a record of kind `.other` (`nil` before any, and after
    /// `takeEvent()`).
    public var event: Event? { decoder.event }

    /// Moves `event` out of the cursor (it is `nil` afterwards) instead of copying it: for a consumer that
    /// handles each `.other` record's event once.
    public mutating func takeEvent() -> Event? {
        decoder.takeEvent()
    }

    init(decoder: EventDecoder, frame: FrameInfo, path: String) {
        self.decoder = decoder
        self.frame = frame
        self.path = path
    }

    /// The next event of the frame, or `nil` after the last one.
    ///
    /// - Throws: `TraceError` `.corruptFrame` with the file, the frame's offset and the ordinal of the event that
    ///   does not decode (the events before it were returned); also when the payload's event count or last
    ///   timestamp disagree with the frame header (thrown instead of returning `nil`).
    public mutating func next() throws -> EventRecord? {
        do {
            return try decoder.next()
        } catch {
            throw located(error)
        }
    }

    /// `next()` writing into `record` instead of returning it (no copy on the way out, for tight loops).
    ///
    /// - Returns: `false` after the last event (`record` is then unchanged). Throws as `next()`.
    @inline(__always)
    public mutating func next(into record: inout EventRecord) throws -> Bool {
        do {
            return try decoder.next(into: &record)
        } catch {
            throw located(error)
        }
    }

    /// Decodes up to `limit` of the frame's next events into `batch` (the columnar fast path: see `RecordBatch`).
    /// Decoding stops at the first event that does not decode: the events before it are in `batch`, and
    /// `batch.error` holds what `next()` would have thrown (the file, the frame's offset, the event's ordinal).
    /// `batch.isFinished` tells that the frame has no events left (or that decoding stopped at an error).
    public mutating func decode(into batch: inout RecordBatch, limit: Int = 1024) {
        do {
            try decoder.decode(into: &batch, limit: Swift.max(1, limit))
        } catch {
            batch.error = located(error)
            batch.isFinished = true
        }
    }

    private func located(_ error: any Error) -> any Error {
        guard var error = error as? TraceError else { return error }
        error.message = "events frame \(frame.sequence): \(error.message)"
        error.offset = frame.offset
        return error.in(file: path)
    }

    /// The next event of the frame as an `Event`, or `nil` after the last one. Throws as `next()`.
    public mutating func nextEvent() throws -> Event? {
        guard let record = try next() else { return nil }
        return event(of: record)
    }

    /// The controller at `slot` of the frame's controller table (`EventRecord.controllerSlot`, `parentSlot`).
    /// The slot must come from a record of this frame.
    public func controller(atSlot slot: UInt32) -> ControllerRef {
        decoder.controller(atSlot: slot)
    }

    /// The `Event` a record of this frame stands for: built from the record, or `event` for `.other` (the last
    /// `.other` record's event).
    public func event(of record: EventRecord) -> Event {
        decoder.event(of: record)
    }

    /// The payload of `event(of:)`, without the `Event` around it.
    public func payload(of record: EventRecord) -> EventPayload {
        decoder.payload(of: record)
    }

    /// The string at `slot` of the frame's string table (`EventRecord.stringSlot`, a field's `nameSlot` or string
    /// value). The slot must come from a record of this frame.
    public func string(atSlot slot: UInt32) -> String {
        decoder.string(atSlot: slot)
    }

    /// The serial of the controller at `slot` of the frame's controller table.
    public func serial(atSlot slot: UInt32) -> UInt32 {
        decoder.serial(atSlot: slot)
    }

    /// Entry `index` of the frame's container lists: a controller table slot (`EventRecord.listStart` …
    /// `listStart + listCount - 1` of a `.container` record).
    public func listSlot(_ index: UInt32) -> UInt32 {
        decoder.listSlot(index)
    }

    /// Entry `index` of the frame's mark fields (`EventRecord.listStart` … `listStart + listCount - 1` of a
    /// `.mark` record).
    public func field(_ index: UInt32) -> MarkFieldRecord {
        decoder.field(index)
    }

    /// A mark field's value as a `FieldValue` (builds a `String` for a string value).
    public func value(of field: MarkFieldRecord) -> FieldValue {
        decoder.value(of: field)
    }

    /// How many strings the frame's string table holds so far (slots are `0 ..< stringCount`).
    public var stringCount: Int { decoder.stringCount }
    /// How many controllers the frame's controller table holds so far (slots are `0 ..< controllerCount`).
    public var controllerCount: Int { decoder.controllerCount }
}

/// The frame tables read through a pointer to the cursor, without copying the cursor (calling a `FrameCursor`
/// method through `pointer.pointee` copies the whole cursor, decoder included, on every call): for a fold that
/// holds the cursor by pointer while it runs.
extension UnsafePointer where Pointee == FrameCursor {
    /// `FrameCursor.string(atSlot:)`.
    public func string(atSlot slot: UInt32) -> String { pointee.decoder.string(atSlot: slot) }
    /// `FrameCursor.serial(atSlot:)`.
    public func serial(atSlot slot: UInt32) -> UInt32 { pointee.decoder.serial(atSlot: slot) }
    /// `FrameCursor.listSlot(_:)`.
    public func listSlot(_ index: UInt32) -> UInt32 { pointee.decoder.listSlot(index) }
    /// `FrameCursor.field(_:)`.
    public func field(_ index: UInt32) -> MarkFieldRecord { pointee.decoder.field(index) }
    /// `FrameCursor.value(of:)`.
    public func value(of field: MarkFieldRecord) -> FieldValue { pointee.decoder.value(of: field) }
    /// The value of the first of the mark fields `start ..< start + count` (`EventRecord.listStart`, `listCount` of
    /// a `.mark` record) whose name has the code `nameCode` (`KnownName` raw value), or `nil`: `field(_:)` and
    /// `value(of:)` in one call (the audit reads a mark's `id`, `key` or `critical` field at most marks it looks at).
    public func firstFieldValue(named nameCode: UInt8, start: UInt32, count: UInt32) -> FieldValue? {
        var index = start
        let end = start &+ count
        while index < end {
            let field = pointee.decoder.field(index)
            if field.nameCode == nameCode { return pointee.decoder.value(of: field) }
            index &+= 1
        }
        return nil
    }
    /// `FrameCursor.controller(atSlot:)`.
    public func controller(atSlot slot: UInt32) -> ControllerRef {
        // In place: `pointee.decoder.controller(atSlot:)` copied the whole decoder per call (as `event(of:)` did).
        UnsafeMutablePointer(mutating: self).pointee.decoder.borrowedController(atSlot: slot)
    }
    /// `FrameCursor.event(of:)`.
    public func event(of record: EventRecord) -> Event {
        // In place: `pointee.decoder.event(of:)` copied the whole decoder per call.
        UnsafeMutablePointer(mutating: self).pointee.decoder.borrowedEvent(of: record)
    }
    /// `FrameCursor.payload(of:)`.
    public func payload(of record: EventRecord) -> EventPayload {
        UnsafeMutablePointer(mutating: self).pointee.decoder.borrowedPayload(of: record)
    }
}

extension EventDecoder {
    /// `event(of:)`, mutating only so that a call through a pointer borrows the decoder instead of copying it.
    fileprivate mutating func borrowedEvent(of record: EventRecord) -> Event {
        event(of: record)
    }

    /// `payload(of:)`, mutating for the same reason.
    fileprivate mutating func borrowedPayload(of record: EventRecord) -> EventPayload {
        payload(of: record)
    }

    /// `controller(atSlot:)`, mutating for the same reason.
    fileprivate mutating func borrowedController(atSlot slot: UInt32) -> ControllerRef {
        controller(atSlot: slot)
    }
}
