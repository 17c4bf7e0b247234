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
    /// The current frame's remaining events, last first, so that `popLast()` moves each out without a copy.
    private var buffer: [Event] = []
    private var ordinal: UInt64 = 0
    /// The error of the frame that ended iteration early, or `nil`.
    public private(set) var error: TraceError?

    init(reader: TraceReader, frameIndex: Int) {
        self.reader = reader
        self.frameIndex = Swift.max(0, frameIndex)
    }

    public mutating func next() -> Element? {
        while buffer.isEmpty {
            guard error == nil, frameIndex < reader.frames.count else { return nil }
            let frame = reader.frames[frameIndex]
            frameIndex += 1
            do {
                buffer = try reader.decodeFrame(frame)
                buffer.reverse()
                ordinal = frame.firstOrdinal
            } catch let failure as TraceError {
                error = failure
                buffer = []
                return nil
            } catch {
                self.error = TraceError(.corruptFrame, "\(error)", file: reader.path, offset: frame.offset)
                return nil
            }
        }
        defer { ordinal += 1 }
        return (ordinal, buffer.removeLast())
    }
}
