import Dispatch
import TraceLog
import TraceModel

/// The JSON lines one events frame contributes to a `lifetrace events --format jsonl` listing, made from the
/// frame's records without reference to the other frames, so that frames can be made on several threads and
/// handed to the output in order (`EventsCommand.Listing.listLines`).
struct FrameLines: Sendable {
    /// The lines, one after another, each ending in a newline.
    var bytes: [UInt8] = []
    /// Where each line ends in `bytes`, and the time of its event (nanoseconds on the trace clock).
    var lineEnds: [Int] = []
    var lineTimes: [UInt64] = []
    /// Whether an event at or after `--from` was read after the last line (or at all, when there is none): the
    /// event at which a listing whose output closed would stop.
    var eventAfterLastLine = false
    /// Whether reading stopped at an event after `--to`.
    var pastTo = false
    /// Why the frame could not be read to its end (the lines cover the events before it).
    var failure: TraceError?

    /// Whether an event at or after `--from` was read.
    var readAnEvent: Bool { !lineEnds.isEmpty || eventAfterLastLine }

    /// The lines of each frame of `frames`, in order, several frames at a time (`concurrentPerform`: one thread
    /// per core).
    static func make(
        _ reader: TraceReader, frames range: Range<Int>, start: UInt64, lower: UInt64, to: UInt64?, filter: EventFilter
    ) -> [FrameLines] {
        let frames = Array(reader.frames[range])
        guard frames.count > 1 else {
            return frames.map { make(reader, $0, start: start, lower: lower, to: to, filter: filter) }
        }
        let results = Results(count: frames.count)
        DispatchQueue.concurrentPerform(iterations: frames.count) { position in
            results.store(make(reader, frames[position], start: start, lower: lower, to: to, filter: filter), at: position)
        }
        return results.take()
    }

    /// The lines of `frame`: its events at or after `lower` (nanoseconds on the trace clock) that pass `filter`,
    /// up to the first after `to` (nanoseconds after `start`), as `JSONLWriter` writes them.
    static func make(_ reader: TraceReader, _ frame: FrameInfo, start: UInt64, lower: UInt64, to: UInt64?, filter: EventFilter) -> FrameLines {
        var lines = FrameLines()
        var cursor: FrameCursor
        do {
            cursor = try reader.cursor(for: frame)
        } catch {
            lines.failure = traceError(error, reader, frame)
            return lines
        }
        var matcher = RecordMatcher(filter: filter)
        var pieces = CallbackLines()
        // Through a pointer, so that handing the cursor to the matcher and the line builder copies nothing.
        withUnsafeMutablePointer(to: &cursor) { cursor in
            var record = EventRecord(otherAt: 0, ordinal: 0)
            while true {
                do {
                    guard try cursor.pointee.next(into: &record) else { return }
                } catch {
                    lines.failure = traceError(error, reader, frame)
                    return
                }
                if record.timestamp < lower { continue }
                lines.eventAfterLastLine = true
                if let to, (record.timestamp >= start ? record.timestamp - start : 0) > to {
                    lines.pastTo = true
                    return
                }
                if record.kind == .callback {
                    guard matcher.matches(record, in: cursor) else { continue }
                    if !pieces.append(record, from: cursor, to: &lines.bytes) {
                        JSONLWriter.appendLine(for: cursor.pointee.event(of: record), to: &lines.bytes)
                    }
                } else {
                    // A `.other` record's event is taken out of the cursor; the other kinds are records until one
                    // may be printed.
                    let taken = record.kind == .other ? cursor.pointee.takeEvent() ?? cursor.pointee.event(of: record) : nil
                    if taken == nil, !matcher.mayMatch(record, in: cursor) { continue }
                    let event = taken ?? cursor.pointee.event(of: record)
                    guard filter.matches(event) else { continue }
                    JSONLWriter.appendLine(for: event, to: &lines.bytes)
                }
                lines.lineEnds.append(lines.bytes.count)
                lines.lineTimes.append(record.timestamp)
                lines.eventAfterLastLine = false
            }
        }
        return lines
    }

    /// `failure` (met opening or decoding `frame`) as the `TraceError` `EventIterator` reports.
    static func traceError(_ failure: any Error, _ reader: TraceReader, _ frame: FrameInfo) -> TraceError {
        failure as? TraceError ?? TraceError(.corruptFrame, "\(failure)", file: reader.path, offset: frame.offset)
    }

    /// One slot per frame, each written by one iteration of `concurrentPerform` (distinct memory, no lock).
    private final class Results: @unchecked Sendable {
        private let slots: UnsafeMutableBufferPointer<FrameLines>

        init(count: Int) {
            slots = .allocate(capacity: count)
            slots.initialize(repeating: FrameLines())
        }

        deinit {
            slots.deinitialize()
            slots.deallocate()
        }

        func store(_ lines: FrameLines, at position: Int) {
            slots[position] = lines
        }

        func take() -> [FrameLines] {
            Array(slots)
        }
    }
}
