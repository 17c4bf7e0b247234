import TraceModel

/// The events of a trace's valid prefix with their ordinals, decoded one event at a time (`FrameCursor`).
///
/// Iteration stops after the last event of the valid prefix, or at the first event that fails to decode (a
/// frame whose CRC or stream table is bad yields none of its events; one whose payload goes bad part-way yields
/// the events before the bad one); `error` then says why. (`for … in` iterates a copy: keep the iterator in a `var` and call `next()` to
/// read `error` afterwards.)
public struct EventIterator: Sequence, IteratorProtocol {
    public typealias Element = (ordinal: UInt64, event: Event)

    private let reader: TraceReader
    private var frameIndex: Int
    /// The current frame's cursor, `nil` between frames.
    private var cursor: FrameCursor?
    private var ordinal: UInt64 = 0
    /// The error of the frame that ended iteration early, or `nil`.
    public private(set) var error: TraceError?

    init(reader: TraceReader, frameIndex: Int) {
        self.reader = reader
        self.frameIndex = Swift.max(0, frameIndex)
    }

    public mutating func next() -> Element? {
        while true {
            if cursor != nil {
                do {
                    if let event = try cursor!.nextEvent() {
                        defer { ordinal += 1 }
                        return (ordinal, event)
                    }
                    cursor = nil
                } catch {
                    fail(error, reader.frames[frameIndex - 1])
                    return nil
                }
            }
            guard error == nil, frameIndex < reader.frames.count else { return nil }
            let frame = reader.frames[frameIndex]
            frameIndex += 1
            do {
                cursor = try reader.cursor(for: frame)
                ordinal = frame.firstOrdinal
            } catch {
                fail(error, frame)
                return nil
            }
        }
    }

    private mutating func fail(_ failure: any Error, _ frame: FrameInfo) {
        cursor = nil
        if let failure = failure as? TraceError {
            error = failure
        } else {
            error = TraceError(.corruptFrame, "\(failure)", file: reader.path, offset: frame.offset)
        }
    }
}
