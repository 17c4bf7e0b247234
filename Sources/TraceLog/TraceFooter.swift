/// The fixed 32-byte footer that ends a cleanly closed file (docs/FORMAT.md §7).
struct TraceFooter: Equatable {
    /// `LTFOOTER`.
    static let magic: [UInt8] = Array("LTFOOTER".utf8)
    static let length = 32

    /// Offset of the index frame.
    var indexOffset: UInt64
    /// Events in the file.
    var eventCount: UInt64
    /// Entries in the index (every frame before the index frame).
    var frameCount: UInt32

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.length)
        writer.writeBytes(Self.magic)
        writer.writeUInt64(indexOffset)
        writer.writeUInt64(eventCount)
        writer.writeUInt32(frameCount)
        writer.writeUInt32(CRC32.checksum(writer.bytes))
        return writer.bytes
    }

    /// Parses exactly 32 bytes; `nil` when the magic or the CRC does not match.
    static func decode(_ bytes: [UInt8]) -> TraceFooter? {
        guard bytes.count == length, Array(bytes[0..<8]) == magic,
              bytes.getUInt32(at: 28) == CRC32.checksum(bytes[0..<28])
        else { return nil }
        return TraceFooter(indexOffset: bytes.getUInt64(at: 8), eventCount: bytes.getUInt64(at: 16), frameCount: bytes.getUInt32(at: 24))
    }
}

/// The index frame's payload: one entry per frame before it (docs/FORMAT.md §7).
enum FrameIndexCodec {
    static func encode(_ frames: [FrameInfo]) -> [UInt8] {
        var writer = ByteWriter(capacity: frames.count * 16 + 8)
        writer.writeVarint(UInt64(frames.count))
        var previousOffset: UInt64 = 0
        for frame in frames {
            writer.writeUInt8(frame.kind.rawValue)
            writer.writeVarint(frame.offset - previousOffset)
            previousOffset = frame.offset
            writer.writeVarint(frame.sequence)
            writer.writeVarint(frame.firstOrdinal)
            writer.writeVarint(UInt64(frame.eventCount))
            writer.writeVarint(frame.firstTimestamp)
            writer.writeVarint(frame.lastTimestamp - frame.firstTimestamp)
            writer.writeVarint(UInt64(frame.rawLength))
            writer.writeVarint(UInt64(frame.compressedLength))
        }
        return writer.bytes
    }

    /// - Returns: The entries, or `nil` when the payload is malformed.
    static func decode(_ payload: [UInt8]) -> [FrameInfo]? {
        var reader = ByteReader(payload)
        guard let count = reader.readVarint(), count <= UInt64(payload.count) else { return nil }
        var frames: [FrameInfo] = []
        frames.reserveCapacity(Int(count))
        var offset: UInt64 = 0
        for _ in 0..<count {
            guard let kind = reader.readUInt8(), let offsetDelta = reader.readVarint(),
                  let sequence = reader.readVarint(), let firstOrdinal = reader.readVarint(),
                  let eventCount = reader.readVarint(), eventCount <= UInt64(UInt32.max),
                  let firstTimestamp = reader.readVarint(), let span = reader.readVarint(),
                  let rawLength = reader.readVarint(), rawLength <= UInt64(UInt32.max),
                  let compressedLength = reader.readVarint(), compressedLength <= UInt64(UInt32.max)
            else { return nil }
            let (next, overflow) = offset.addingReportingOverflow(offsetDelta)
            let (last, spanOverflow) = firstTimestamp.addingReportingOverflow(span)
            guard !overflow, !spanOverflow else { return nil }
            offset = next
            frames.append(FrameInfo(
                offset: offset, kind: FrameKind(rawValue: kind), sequence: sequence, firstOrdinal: firstOrdinal,
                eventCount: UInt32(eventCount), firstTimestamp: firstTimestamp, lastTimestamp: last,
                rawLength: UInt32(rawLength), compressedLength: UInt32(compressedLength)
            ))
        }
        return reader.isAtEnd ? frames : nil
    }
}
