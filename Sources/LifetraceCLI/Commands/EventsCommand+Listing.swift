import Foundation
import Replay
import TraceLog
import TraceModel

extension EventsCommand {
    /// One listing of `lifetrace events` (everything but `--visible`): the events from `--from` to `--to` that
    /// pass the filter, printed as they are read, as text lines or JSON lines.
    ///
    /// Two ways of reading give the same bytes: `listEvents` decodes every event into an `Event`
    /// (`TraceInput.scan`) and tests it; `listRecords` reads a `.lifetrace` file's records in place
    /// (`FrameCursor.next(into:)`), tests a callback record on its controller table slots and builds an `Event`
    /// only for the callbacks it prints and for the kinds that have no record form.
    struct Listing {
        let format: String
        /// `--to`, nanoseconds after the first event (inclusive).
        let to: UInt64?
        let filter: EventFilter
        /// The mark attribution of the text format (`nil` for jsonl).
        var attribution: MarkAttribution?
        let output: CommandOutput
        /// Events printed so far.
        private(set) var listed = 0

        init(format: String, to: UInt64?, filter: EventFilter, attribution: MarkAttribution?, output: CommandOutput) {
            self.format = format
            self.to = to
            self.filter = filter
            self.attribution = attribution
            self.output = output
        }

        /// The reference listing: every event from `--from` on as an `Event`, through `TraceInput.scan`.
        ///
        /// - Returns: Where reading stopped early (`TraceInput.scan`).
        /// - Throws: `JSONLError` `.timeWentBackwards` (jsonl) for an event earlier than the previous one printed.
        mutating func listEvents(_ input: TraceInput, fromOffset from: UInt64?) throws -> TraceInput.Stop? {
            let output = output
            var writer = JSONLWriter { bytes in output.write(String(decoding: bytes, as: UTF8.self)) }
            // Stopped by --to, a JSON Lines input is read on for damage (a warning, exit 1), not when nobody reads.
            let stop = try input.scan(fromOffset: from, checkingRest: { !output.isStandardOutputClosed }) { ordinal, event, start in
                if output.isStandardOutputClosed { return false }  // `lifetrace events T | head`: nobody reads on
                let offset = event.timestamp >= start ? event.timestamp - start : 0
                if let to, offset > to { return false }
                let enclosing = attribution?.step(ordinal, event)
                guard filter.matches(event) else { return true }
                listed += 1
                if format == "jsonl" {
                    try writer.write(event)
                } else {
                    printText(event, ordinal: ordinal, offset: offset, enclosing: enclosing)
                }
                return true
            }
            try writer.finish()
            return stop
        }

        /// The same listing as `listEvents` for a `.lifetrace` file, from its records.
        ///
        /// Frames that end before `--from` are not read (`TraceReader.frameIndex(containing:)`); reading stops
        /// at the first event after `--to`. A callback record is tested on its controller's and parent's slots in
        /// the frame's controller table (each slot's answer computed once per frame) and on its callback (once
        /// per callback); other records are tested on their controllers' slots before their `Event` is built
        /// (`RecordMatcher`). JSON lines are made frame by frame, on as many threads as there are cores
        /// (`FrameLines`); the text format reads frames in order on this thread (mark attribution folds every
        /// event in order).
        ///
        /// - Returns: Where reading stopped early because a frame does not decode (the events before it were
        ///   listed), as `TraceInput.scan` reports it.
        /// - Throws: As `listEvents`.
        mutating func listRecords(_ reader: TraceReader, fromOffset from: UInt64?) throws -> TraceInput.Stop? {
            guard let start = reader.timeSpan?.lowerBound else { return nil }
            let lower = from.map { TraceInput.adding(start, $0) } ?? start
            guard let first = reader.frameIndex(containing: lower) else { return nil }
            if format == "jsonl" {
                return try listLines(reader, fromFrame: first, start: start, lower: lower)
            }
            var matcher = RecordMatcher(filter: filter)
            for position in first..<reader.frames.count {
                let frame = reader.frames[position]
                var cursor: FrameCursor
                do {
                    cursor = try reader.cursor(for: frame)
                } catch {
                    return Self.stop(reader, error, frame)
                }
                matcher.enterFrame()
                let end: FrameEnd
                do {
                    // Through a pointer, so that handing the cursor to the matcher copies nothing.
                    end = try withUnsafeMutablePointer(to: &cursor) { cursor in
                        try listText(cursor, &matcher, start: start, lower: lower)
                    }
                } catch let failure as FrameFailure {
                    return Self.stop(reader, failure.underlying, frame)
                }
                if end == .stopped { break }
            }
            return nil
        }

        private enum FrameEnd {
            case frameEnd
            /// Past `--to`, or nobody reads the output any more.
            case stopped
        }

        /// An error of `FrameCursor.next(into:)` (told apart from the errors of printing).
        private struct FrameFailure: Error {
            var underlying: any Error
        }

        /// Lists the events of one frame from `cursor` as text lines.
        private mutating func listText(
            _ cursor: UnsafeMutablePointer<FrameCursor>, _ matcher: inout RecordMatcher, start: UInt64, lower: UInt64
        ) throws -> FrameEnd {
            var record = EventRecord(otherAt: 0, ordinal: 0)
            while true {
                do {
                    guard try cursor.pointee.next(into: &record) else { return .frameEnd }
                } catch {
                    throw FrameFailure(underlying: error)
                }
                if record.timestamp < lower { continue }
                if output.isStandardOutputClosed { return .stopped }  // as `listEvents`
                let offset = record.timestamp >= start ? record.timestamp - start : 0
                if let to, offset > to { return .stopped }
                if record.kind == .callback {
                    if attribution != nil { _ = attribution!.step(record, event: nil, from: cursor.pointee) }
                    guard matcher.matches(record, in: cursor) else { continue }
                    listed += 1
                    output.line(EventsCommand.textLine(offset: offset, ordinal: record.ordinal, event: cursor.pointee.event(of: record)))
                } else {
                    // A `.other` record's event is taken out of the cursor; the other kinds are records until one
                    // may be printed.
                    let taken = record.kind == .other ? cursor.pointee.takeEvent() ?? cursor.pointee.event(of: record) : nil
                    let enclosing = attribution != nil ? attribution!.step(record, event: taken, from: cursor.pointee) : nil
                    if taken == nil, !matcher.mayMatch(record, in: cursor) { continue }
                    let event = taken ?? cursor.pointee.event(of: record)
                    guard filter.matches(event) else { continue }
                    listed += 1
                    printText(event, ordinal: record.ordinal, offset: offset, enclosing: enclosing)
                }
            }
        }

        /// The JSON Lines listing from the records of frames `first...`: each frame's lines are made on its own
        /// (`FrameLines`, several frames at a time on as many threads as there are cores), then handed to the
        /// output in order, as `listEvents` would have written them (the same chunks, the same check that time
        /// does not go backwards, the same stop when nobody reads the output any more).
        private mutating func listLines(_ reader: TraceReader, fromFrame first: Int, start: UInt64, lower: UInt64) throws -> TraceInput.Stop? {
            var lines = JSONLines(output: output)
            let frames = reader.frames
            let upper = to.map { TraceInput.adding(start, $0) }
            let batch = 4 * max(1, ProcessInfo.processInfo.activeProcessorCount)
            var closed = output.isStandardOutputClosed
            var next = first
            while next < frames.count {
                // The frames that may be needed: none after one whose first event is past --to (the listing
                // stops at that event, or where the frame fails to decode).
                var end = next
                while end < frames.count, end - next < (closed ? 1 : batch) {
                    end += 1
                    if let upper, frames[end - 1].eventCount > 0, frames[end - 1].firstTimestamp > upper { break }
                }
                let made = FrameLines.make(reader, frames: next..<end, start: start, lower: lower, to: to, filter: filter)
                for part in made {
                    if closed {
                        // `listEvents` stops at the next event it reads (or reports the frame that fails first).
                        if part.readAnEvent { return try lines.finishing(nil) }
                        if let failure = part.failure { return try lines.finishing(TraceInput.stop(reader, failure)) }
                        continue
                    }
                    var lineStart = 0
                    for (position, lineEnd) in part.lineEnds.enumerated() {
                        try lines.append(part.bytes[lineStart..<lineEnd], at: part.lineTimes[position])
                        lineStart = lineEnd
                        listed += 1
                        if lines.flushed {
                            closed = output.isStandardOutputClosed
                            if closed, position + 1 < part.lineEnds.count { return try lines.finishing(nil) }
                        }
                    }
                    if closed {
                        if part.eventAfterLastLine { return try lines.finishing(nil) }
                        if let failure = part.failure { return try lines.finishing(TraceInput.stop(reader, failure)) }
                        continue
                    }
                    if let failure = part.failure { return try lines.finishing(TraceInput.stop(reader, failure)) }
                    if part.pastTo { return try lines.finishing(nil) }
                }
                next = end
            }
            return try lines.finishing(nil)
        }

        private func printText(_ event: Event, ordinal: UInt64, offset: UInt64, enclosing: ActiveCallback?) {
            output.line(EventsCommand.textLine(offset: offset, ordinal: ordinal, event: event) + (attribution?.suffix(enclosing) ?? ""))
        }

        /// The stop `TraceInput.scan` reports for `failure`, met opening or decoding events frame `frame`.
        private static func stop(_ reader: TraceReader, _ failure: any Error, _ frame: FrameInfo) -> TraceInput.Stop {
            TraceInput.stop(reader, FrameLines.traceError(failure, reader, frame))
        }
    }
}

/// `EventFilter` for callback records: the answer for a controller is computed once per slot of the frame's
/// controller table, the `--kind` answer once per callback.
struct RecordMatcher {
    let filter: EventFilter
    /// Per slot of the current frame's controller table: 0 not asked yet, 1 not named, 2 named by `--controller`.
    private var slots: [UInt8] = []
    /// Per `Callback` raw value: 0 not asked yet, 1 rejected, 2 passed by `--kind`.
    private var callbacks = [UInt8](repeating: 0, count: 256)

    init(filter: EventFilter) {
        self.filter = filter
    }

    /// Forgets the slots (call when a new frame starts: slots are per frame).
    mutating func enterFrame() {
        slots.removeAll(keepingCapacity: true)
    }

    /// `filter.matches(cursor.event(of: record))` for a callback record of `cursor`'s frame.
    mutating func matches(_ record: EventRecord, in cursor: UnsafeMutablePointer<FrameCursor>) -> Bool {
        if filter.selectsControllers {
            guard names(record.controllerSlot, cursor)
                || (record.parent == .controller && names(record.parentSlot, cursor))
            else { return false }
        }
        let raw = Int(record.callback.rawValue)
        if callbacks[raw] == 0 {
            let payload = EventPayload.callback(
                CallbackEvent(record.callback, record.phase, controller: cursor.pointee.controller(atSlot: record.controllerSlot)))
            callbacks[raw] = filter.matchesKind(of: payload) ? 2 : 1
        }
        return callbacks[raw] == 2
    }

    /// For a container, app, SwiftUI or mark record of `cursor`'s frame: `false` when `filter.matches` is sure
    /// to reject its event because it names none of the `--controller` names (its container, controllers, host
    /// or controller), `true` when the event must be built and asked.
    mutating func mayMatch(_ record: EventRecord, in cursor: UnsafeMutablePointer<FrameCursor>) -> Bool {
        guard filter.selectsControllers else { return true }
        switch record.kind {
        case .container:
            if record.hasController, names(record.controllerSlot, cursor) { return true }
            var index = record.listStart
            while index < record.listStart + record.listCount {
                if names(cursor.pointee.listSlot(index), cursor) { return true }
                index += 1
            }
            return false
        case .mark, .swiftUI:
            return record.hasController && names(record.controllerSlot, cursor)
        case .app:
            return false
        case .callback, .other:
            return true
        }
    }

    private mutating func names(_ slot: UInt32, _ cursor: UnsafeMutablePointer<FrameCursor>) -> Bool {
        let index = Int(slot)
        if index >= slots.count {
            slots.append(contentsOf: repeatElement(0, count: index + 1 - slots.count))
        }
        if slots[index] == 0 {
            slots[index] = filter.matches(cursor.pointee.controller(atSlot: slot)) ? 2 : 1
        }
        return slots[index] == 2
    }
}

/// The JSON line of a callback record, put together from pieces of the lines `JSONLWriter` writes (so the bytes
/// are the writer's): `{"t_ns":` and the time, then `,"event":…,"phase":…,"kind":"callback"` (per callback and
/// phase), the controller's `,"controller":…,"serial":…,"type":…` (per slot of the frame's controller table),
/// `,"animated":…`, `,"parent":…` (null, or per slot), and `}` and a newline. Each piece is cut from a whole
/// line the writer wrote for a callback event made for the purpose (the piece that one more argument adds to a
/// line) and checked to be where it is expected; when a check fails (a writer laid out differently), `isExact`
/// is false and lines are written whole from the event instead.
struct CallbackLines {
    fileprivate static let prefix = Array(#"{"t_ns":0"#.utf8)
    fileprivate static let suffix = Array("}\n".utf8)
    fileprivate static let probe = ControllerRef(serial: 1, typeName: "T")

    /// The pieces that do not depend on a frame, cut once per process.
    private struct Fixed: Sendable {
        /// Per callback and phase (`callback << 2 | phase`): `,"event":…,"phase":…,"kind":"callback"`.
        var heads = [[UInt8]](repeating: [], count: 256 * 4)
        /// The line of an `init` instant of `probe` with nothing optional.
        var bare: [UInt8] = []
        var animatedTrue: [UInt8] = []
        var animatedFalse: [UInt8] = []
        var parentNone: [UInt8] = []
        var isExact = true

        init() {
            for callback in Callback.allCases {
                for phase in Phase.allCases {
                    heads[Int(callback.rawValue) << 2 | Int(phase.rawValue)] = cutHead(callback, phase)
                }
            }
            bare = CallbackLines.line(.initialize, .instant, CallbackLines.probe)
            animatedTrue = added(CallbackLines.line(.initialize, .instant, CallbackLines.probe, animated: true))
            animatedFalse = added(CallbackLines.line(.initialize, .instant, CallbackLines.probe, animated: false))
            parentNone = added(CallbackLines.line(.initialize, .instant, CallbackLines.probe, parent: ParentArgument.none))
        }

        private mutating func added(_ line: [UInt8]) -> [UInt8] {
            guard let piece = CallbackLines.piece(added: line, to: bare) else {
                isExact = false
                return []
            }
            return piece
        }

        /// What comes before `,"controller":` in a callback's line without the time.
        private mutating func cutHead(_ callback: Callback, _ phase: Phase) -> [UInt8] {
            let line = CallbackLines.line(callback, phase, CallbackLines.probe)
            let marker = Array(#","controller":"#.utf8)
            guard line.starts(with: CallbackLines.prefix),
                  let at = CallbackLines.firstRange(of: marker, in: line, from: CallbackLines.prefix.count)
            else {
                isExact = false
                return []
            }
            return Array(line[CallbackLines.prefix.count..<at])
        }
    }

    private static let fixed = Fixed()

    /// Whether every piece cut so far was where expected.
    private(set) var isExact = Self.fixed.isExact
    /// Per slot of the current frame's controller table.
    private var subjects: [[UInt8]?] = []
    private var parents: [[UInt8]?] = []

    mutating func enterFrame() {
        subjects.removeAll(keepingCapacity: true)
        parents.removeAll(keepingCapacity: true)
    }

    /// Appends the line of callback record `record` of `cursor`'s frame (newline included) to `bytes`; returns
    /// `false`, appending nothing, when the pieces are not exact.
    mutating func append(_ record: EventRecord, from cursor: UnsafeMutablePointer<FrameCursor>, to bytes: inout [UInt8]) -> Bool {
        guard isExact else { return false }
        let subject = subject(record.controllerSlot, cursor)
        var parent: [UInt8] = []
        switch record.parent {
        case .absent: break
        case .none: parent = Self.fixed.parentNone
        case .controller: parent = parentPiece(record.parentSlot, cursor)
        }
        guard isExact else { return false }
        bytes.append(contentsOf: #"{"t_ns":"#.utf8)
        JSONLines.appendDecimal(record.timestamp, to: &bytes)
        bytes.append(contentsOf: Self.fixed.heads[Int(record.callback.rawValue) << 2 | Int(record.phase.rawValue)])
        bytes.append(contentsOf: subject)
        switch record.animated {
        case nil: break
        case true?: bytes.append(contentsOf: Self.fixed.animatedTrue)
        case false?: bytes.append(contentsOf: Self.fixed.animatedFalse)
        }
        bytes.append(contentsOf: parent)
        bytes.append(contentsOf: Self.suffix)
        return true
    }

    private mutating func subject(_ slot: UInt32, _ cursor: UnsafeMutablePointer<FrameCursor>) -> [UInt8] {
        let index = Int(slot)
        if index >= subjects.count { subjects.append(contentsOf: repeatElement(nil, count: index + 1 - subjects.count)) }
        if let known = subjects[index] { return known }
        let head = Self.fixed.heads[Int(Callback.initialize.rawValue) << 2 | Int(Phase.instant.rawValue)]
        let line = Self.line(.initialize, .instant, cursor.pointee.controller(atSlot: slot))
        let start = Self.prefix.count + head.count
        guard line.starts(with: Self.prefix + head), line.count >= start + Self.suffix.count,
              line.suffix(Self.suffix.count).elementsEqual(Self.suffix)
        else {
            isExact = false
            return []
        }
        let piece = Array(line[start..<(line.count - Self.suffix.count)])
        subjects[index] = piece
        return piece
    }

    private mutating func parentPiece(_ slot: UInt32, _ cursor: UnsafeMutablePointer<FrameCursor>) -> [UInt8] {
        let index = Int(slot)
        if index >= parents.count { parents.append(contentsOf: repeatElement(nil, count: index + 1 - parents.count)) }
        if let known = parents[index] { return known }
        let withParent = Self.line(.initialize, .instant, Self.probe, parent: .controller(cursor.pointee.controller(atSlot: slot)))
        guard let piece = Self.piece(added: withParent, to: Self.fixed.bare) else {
            isExact = false
            return []
        }
        parents[index] = piece
        return piece
    }

    /// The JSON line `JSONLWriter` writes for a callback event at time 0.
    fileprivate static func line(
        _ callback: Callback, _ phase: Phase, _ controller: ControllerRef, animated: Bool? = nil, parent: ParentArgument? = nil
    ) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONLWriter.appendLine(for: Event(timestamp: 0, .callback(CallbackEvent(callback, phase, controller: controller, animated: animated, parent: parent))), to: &bytes)
        return bytes
    }

    /// What `line` adds before the final `}` and newline of `bare`, when `line` is `bare` with a piece inserted
    /// there; `nil` otherwise.
    fileprivate static func piece(added line: [UInt8], to bare: [UInt8]) -> [UInt8]? {
        let kept = bare.count - suffix.count
        guard bare.count >= suffix.count, line.count > bare.count, bare.suffix(suffix.count).elementsEqual(suffix),
              line.prefix(kept).elementsEqual(bare.prefix(kept)), line.suffix(suffix.count).elementsEqual(suffix)
        else { return nil }
        return Array(line[kept..<(line.count - suffix.count)])
    }

    fileprivate static func firstRange(of marker: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= marker.count else { return nil }
        var position = start
        while position + marker.count <= bytes.count {
            if bytes[position..<(position + marker.count)].elementsEqual(marker) { return position }
            position += 1
        }
        return nil
    }
}

/// The JSON lines of a listing, buffered and handed to the output exactly as `JSONLWriter` with its default
/// threshold does (whole lines, each time the buffer reaches 64 KiB, and at `finish()`), with its check that time
/// does not go backwards.
struct JSONLines {
    let output: CommandOutput
    private var buffer: [UInt8] = []
    private var lastTimestamp: UInt64?
    private var count = 0
    /// Whether the last line appended handed the buffer to the output.
    private(set) var flushed = false
    private static let flushThreshold = 1 << 16

    init(output: CommandOutput) {
        self.output = output
        buffer.reserveCapacity(Self.flushThreshold + 1024)
    }

    /// Appends one line made earlier (newline included) for an event at `timestamp`.
    ///
    /// - Throws: As `JSONLWriter.write(_:)`.
    mutating func append(_ line: ArraySlice<UInt8>, at timestamp: UInt64) throws {
        try check(timestamp)
        buffer.append(contentsOf: line)
        try endLine()
    }

    /// Appends `event`'s line (`JSONLWriter.appendLine(for:to:)`).
    ///
    /// - Throws: As `JSONLWriter.write(_:)`.
    mutating func append(_ event: Event) throws {
        try check(event.timestamp)
        JSONLWriter.appendLine(for: event, to: &buffer)
        try endLine()
    }

    /// `finish()`, then `stop`.
    mutating func finishing(_ stop: TraceInput.Stop?) throws -> TraceInput.Stop? {
        try finish()
        return stop
    }

    /// Hands what is buffered to the output.
    mutating func finish() throws {
        if !buffer.isEmpty {
            output.write(String(decoding: buffer, as: UTF8.self))
            buffer.removeAll(keepingCapacity: true)
        }
    }

    private mutating func check(_ timestamp: UInt64) throws {
        if let lastTimestamp, timestamp < lastTimestamp {
            throw JSONLError(
                .timeWentBackwards, "time goes backwards: t_ns \(timestamp) after \(lastTimestamp)", file: "", line: count + 1)
        }
        lastTimestamp = timestamp
    }

    private mutating func endLine() throws {
        count += 1
        flushed = buffer.count >= Self.flushThreshold
        if flushed { try finish() }
    }

    /// `value` in decimal, as `JSONLWriter` writes an unsigned number.
    static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: 20 digits fit
        withUnsafeMutableBytes(of: &digits) { scratch in
            var remaining = value
            var position = scratch.count
            repeat {
                position -= 1
                scratch[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            } while remaining > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[position...]))
        }
    }
}
