/// Where a frame is and what it covers, from its header (or from the index written on clean close).
///
/// For an events frame, the events have ordinals `firstOrdinal ..< firstOrdinal + eventCount` and timestamps in
/// `firstTimestamp ... lastTimestamp` (nanoseconds on the trace's monotonic clock). For a checkpoint frame,
/// `eventCount` is 0 and the checkpoint's state covers every event with ordinal < `firstOrdinal`;
/// `firstTimestamp == lastTimestamp` is the timestamp of the last covered event (0 when none).
public struct FrameInfo: Sendable, Equatable {
    /// Byte offset of the frame's header in the file.
    public var offset: UInt64
    public var kind: FrameKind
    /// Position of the frame among all frames of the file (0, 1, 2, …, every kind counted).
    public var sequence: UInt64
    public var firstOrdinal: UInt64
    public var eventCount: UInt32
    public var firstTimestamp: UInt64
    public var lastTimestamp: UInt64
    /// Payload bytes before compression.
    public var rawLength: UInt32
    /// Payload bytes as stored in the file (after compression).
    public var compressedLength: UInt32

    public init(
        offset: UInt64, kind: FrameKind, sequence: UInt64, firstOrdinal: UInt64, eventCount: UInt32,
        firstTimestamp: UInt64, lastTimestamp: UInt64, rawLength: UInt32, compressedLength: UInt32
    ) {
        self.offset = offset
        self.kind = kind
        self.sequence = sequence
        self.firstOrdinal = firstOrdinal
        self.eventCount = eventCount
        self.firstTimestamp = firstTimestamp
        self.lastTimestamp = lastTimestamp
        self.rawLength = rawLength
        self.compressedLength = compressedLength
    }

    /// Bytes the frame takes in the file, header included (version 1.0 headers are 64 bytes).
    public var totalLength: UInt64 { UInt64(FrameHeader.length) + UInt64(compressedLength) }

    /// The offset just past this frame.
    public var endOffset: UInt64 { offset + totalLength }
}
