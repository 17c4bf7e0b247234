/// A frame header's bytes (docs/FORMAT.md §3): 64 bytes, little-endian, CRC-protected.
struct FrameHeader: Equatable {
    /// `LTFR`.
    static let magic: [UInt8] = [0x4C, 0x54, 0x46, 0x52]
    static let length = 64
    /// Larger raw or stored payloads are refused as corrupt (a bit flip in a length, or a deflate bomb, must not
    /// allocate gigabytes): a reader holds at most one frame's raw payload at a time, so this bounds what any
    /// frame can make it allocate (docs/FORMAT.md §3). The writer cuts frames at 128 KiB by default and at most
    /// at 32 MiB (`TraceWriter.Options.maxFrameBytes`).
    static let maximumPayload: UInt32 = 1 << 26
    /// Larger event counts in an events frame are refused as corrupt: a reader sizes one timestamp (8 bytes) and,
    /// for `TraceReader.decodeFrame(_:)`, one `Event` per announced event. The writer's largest
    /// `maxEventsPerFrame`.
    static let maximumEvents: UInt32 = 1 << 16
    /// Deflate's largest expansion: a 258-byte match coded in 2 bits (RFC 1951), so a raw length above
    /// 1032 × the stored length (plus one match) cannot be true.
    static let maximumDeflateRatio: UInt64 = 1032
    /// Event ordinals fit in 63 bits, so that `Int` conversions and `+ 1` never trap.
    static let maximumOrdinal = UInt64(Int64.max)

    static let compressionStored: UInt8 = 0
    static let compressionDeflate: UInt8 = 1

    var info: FrameInfo
    /// 0 = stored, 1 = raw deflate.
    var compression: UInt8
    /// CRC-32 of the payload bytes as stored.
    var payloadCRC: UInt32

    func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: Self.length)
        writer.writeBytes(Self.magic)
        writer.writeUInt16(UInt16(Self.length))
        writer.writeUInt8(info.kind.rawValue)
        writer.writeUInt8(compression)
        writer.writeUInt64(info.sequence)
        writer.writeUInt64(info.firstOrdinal)
        writer.writeUInt64(info.firstTimestamp)
        writer.writeUInt64(info.lastTimestamp)
        writer.writeUInt32(info.eventCount)
        writer.writeUInt32(info.rawLength)
        writer.writeUInt32(info.compressedLength)
        writer.writeUInt32(payloadCRC)
        writer.writeUInt32(0)
        writer.writeUInt32(CRC32.checksum(writer.bytes))
        return writer.bytes
    }

    /// Whether `bytes` at `offset` start with the frame magic and a header whose CRC holds (used to tell a
    /// torn tail from corruption in the middle: does a valid frame follow?).
    static func looksValid(_ bytes: [UInt8], at offset: Int) -> Bool {
        (try? decode(bytes, at: offset, fileOffset: UInt64(offset))) != nil
    }

    /// Parses the header at `bytes[start...]`.
    ///
    /// - Parameter fileOffset: The header's offset in the file, for `FrameInfo.offset` and errors.
    /// - Throws: `TraceError` `.tornTail` when fewer than 64 bytes remain, `.corruptFrame` for a bad magic,
    ///   CRC, length or reserved field; the offset is the frame's.
    static func decode(_ bytes: [UInt8], at start: Int, fileOffset: UInt64) throws -> FrameHeader {
        let available = bytes.count - start
        guard available >= length else {
            throw TraceError(.tornTail, "file ends inside a frame header (\(available) of \(length) bytes)", offset: fileOffset)
        }
        guard Array(bytes[start..<(start + 4)]) == magic else {
            throw TraceError(.corruptFrame, "no frame magic where a frame should start", offset: fileOffset)
        }
        let storedCRC = bytes.getUInt32(at: start + 60)
        let actualCRC = CRC32.checksum(bytes[start..<(start + 60)])
        guard storedCRC == actualCRC else {
            throw TraceError(.corruptFrame, "frame header CRC mismatch (stored \(hex(storedCRC)), computed \(hex(actualCRC)))", offset: fileOffset)
        }
        let headerLength = Int(bytes.getUInt16(at: start + 4))
        guard headerLength == length else {
            throw TraceError(.corruptFrame, "frame header length \(headerLength) is not \(length) (format 1.0 and 2.0 frames)", offset: fileOffset)
        }
        let compression = bytes[start + 7]
        guard compression == compressionStored || compression == compressionDeflate else {
            throw TraceError(.corruptFrame, "unknown payload compression \(compression)", offset: fileOffset)
        }
        let info = FrameInfo(
            offset: fileOffset,
            kind: FrameKind(rawValue: bytes[start + 6]),
            sequence: bytes.getUInt64(at: start + 8),
            firstOrdinal: bytes.getUInt64(at: start + 16),
            eventCount: bytes.getUInt32(at: start + 40),
            firstTimestamp: bytes.getUInt64(at: start + 24),
            lastTimestamp: bytes.getUInt64(at: start + 32),
            rawLength: bytes.getUInt32(at: start + 44),
            compressedLength: bytes.getUInt32(at: start + 48)
        )
        guard info.rawLength <= maximumPayload, info.compressedLength <= maximumPayload else {
            throw TraceError(.corruptFrame, "frame payload length \(max(info.rawLength, info.compressedLength)) exceeds the 64 MiB limit per frame", offset: fileOffset)
        }
        guard compression == compressionDeflate || info.rawLength == info.compressedLength else {
            throw TraceError(.corruptFrame, "stored payload with raw length \(info.rawLength) ≠ stored length \(info.compressedLength)", offset: fileOffset)
        }
        guard info.firstTimestamp <= info.lastTimestamp else {
            throw TraceError(.corruptFrame, "frame's first timestamp \(info.firstTimestamp) is after its last \(info.lastTimestamp)", offset: fileOffset)
        }
        // The counts below size allocations and ordinal arithmetic before the payload is read, so a header whose
        // CRC holds but whose counts cannot be true (rewritten with a fresh CRC, or a writer bug) is refused here:
        // before these checks, an event count of 2^32 − 1 aborted every command allocating 34 GB, 2^31 took 13 GB
        // and a minute, and a first ordinal of 2^64 − 1 trapped on overflow.
        guard compression == compressionStored || UInt64(info.rawLength) <= UInt64(info.compressedLength) * maximumDeflateRatio + 258 else {
            throw TraceError(
                .corruptFrame,
                "frame announces \(info.rawLength) raw bytes from \(info.compressedLength) deflated ones, more than deflate can expand (\(maximumDeflateRatio):1)",
                offset: fileOffset
            )
        }
        guard info.kind != .events || info.eventCount <= maximumEvents else {
            throw TraceError(
                .corruptFrame, "frame announces \(info.eventCount) events, more than the \(maximumEvents) a frame may hold", offset: fileOffset
            )
        }
        guard info.kind != .events || info.eventCount <= info.rawLength else {
            throw TraceError(
                .corruptFrame, "frame announces \(info.eventCount) events in \(info.rawLength) payload bytes (each event takes at least its tag byte)",
                offset: fileOffset
            )
        }
        guard info.firstOrdinal <= maximumOrdinal - UInt64(info.eventCount) else {
            throw TraceError(.corruptFrame, "frame's first event ordinal \(info.firstOrdinal) is beyond 2^63 − 1 events", offset: fileOffset)
        }
        return FrameHeader(info: info, compression: compression, payloadCRC: bytes.getUInt32(at: start + 52))
    }
}
