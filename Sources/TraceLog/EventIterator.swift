import TraceModel

/// The events of a trace's valid prefix with their ordinals, decoded one frame at a time.
///
/// Iteration stops after the last event of the valid prefix, or before the first event of a frame that fails to
/// decode; `error` then says why. (`for … in` iterates a copy: keep the iterator in a `var` and call `next()` to
/// read `error` afterwards.)
public struct EventIterator: Sequence, IteratorProtocol {
    public typealias Element = (ordinal: UInt64, event: Event)

    private let reader: TraceReader
    private var frameIndex: Int
    private var buffer: [Event] = []
    private var position = 0
    private var ordinal: UInt64 = 0
    /// The error of the frame that ended iteration early, or `nil`.
    public private(set) var error: TraceError?

    init(reader: TraceReader, frameIndex: Int) {
        self.reader = reader
        self.frameIndex = Swift.max(0, frameIndex)
    }

    public mutating func next() -> Element? {
        while position >= buffer.count {
            guard error == nil, frameIndex < reader.frames.count else { return nil }
            let frame = reader.frames[frameIndex]
            frameIndex += 1
            do {
                buffer = try reader.decodeFrame(frame)
                position = 0
                ordinal = frame.firstOrdinal
            } catch let failure as TraceError {
                error = failure
                buffer = []
                position = 0
                return nil
            } catch {
                self.error = TraceError(.corruptFrame, "\(error)", file: reader.path, offset: frame.offset)
                return nil
            }
        }
        defer {
            position += 1
            ordinal += 1
        }
        return (ordinal, buffer[position])
    }
}
