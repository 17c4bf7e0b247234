/// The result of walking a file's frames from the header to the end (docs/FORMAT.md §8).
struct FrameScan {
    /// Every frame of the valid prefix except index frames, in file order.
    var frames: [FrameInfo] = []
    /// The end of the last frame that is not an index frame: where an appending writer continues.
    var dataEnd: UInt64
    /// The end of the valid prefix (after any index frame and a valid footer).
    var validEnd: UInt64
    /// Whether the file ends with an index frame and a valid footer that points at it.
    var hasFooter = false
    /// Offset of the last index frame seen, if any.
    var indexOffset: UInt64?
    /// The first failure; the valid prefix ends at its offset.
    var failure: TraceError?
    /// Whether nothing valid follows the failure (a torn or damaged tail that appending may cut off).
    var failureIsTail = false
    /// Sequence, ordinal and time-order problems among valid frames.
    var orderProblems: [TraceError] = []

    /// Walks every frame header from `start`, checking header CRCs, that payloads fit in the file and, when
    /// `verifyPayloads`, the payload CRCs.
    static func walk(_ file: FileDescriptor, start: UInt64, fileSize: UInt64, verifyPayloads: Bool) throws -> FrameScan {
        var scan = FrameScan(dataEnd: start, validEnd: start)
        var offset = start
        var expectedSequence: UInt64 = 0
        var expectedOrdinal: UInt64 = 0
        var lastTimestamp: UInt64 = 0
        var bytes: [UInt8] = []
        while offset < fileSize {
            let remaining = fileSize - offset
            if remaining == UInt64(TraceFooter.length), let indexOffset = scan.indexOffset,
               let footer = TraceFooter.decode(try file.read(count: TraceFooter.length, at: offset)),
               footer.indexOffset == indexOffset
            {
                scan.hasFooter = true
                scan.validEnd = fileSize
                return scan
            }
            if remaining > UInt64(TraceFooter.length), let indexOffset = scan.indexOffset, scan.validEnd == offset,
               let footer = TraceFooter.decode(try file.read(count: TraceFooter.length, at: offset)),
               footer.indexOffset == indexOffset
            {
                // A valid footer followed by bytes that are not part of the trace: the trace itself is whole, and
                // only what follows the footer is a torn tail.
                let end = offset + UInt64(TraceFooter.length)
                scan.hasFooter = true
                scan.validEnd = end
                scan.failure = TraceError(
                    .tornTail,
                    "\(fileSize - end) bytes of junk follow the footer (the trace before them is complete and was closed cleanly)",
                    offset: end
                )
                scan.failureIsTail = true
                return scan
            }
            if remaining < UInt64(TraceFooter.length), scan.indexOffset != nil, scan.validEnd == offset {
                // Right after the index frame, a start of the footer's magic is a footer cut short (a close
                // interrupted while writing it), not a frame header.
                let present = try file.read(count: Int(remaining), at: offset)
                if present.elementsEqual(TraceFooter.magic.prefix(present.count)) || Array(present.prefix(8)) == TraceFooter.magic {
                    let error = TraceError(
                        .tornTail, "file ends inside the footer (\(remaining) of \(TraceFooter.length) bytes present)", offset: offset
                    )
                    try scan.fail(error, file: file, fileSize: fileSize)
                    return scan
                }
            }
            let headerBytes = try file.read(count: FrameHeader.length, at: offset)
            let header: FrameHeader
            do {
                header = try FrameHeader.decode(headerBytes, at: 0, fileOffset: offset)
            } catch let error as TraceError {
                try scan.fail(error, file: file, fileSize: fileSize)
                return scan
            }
            let info = header.info
            let payloadStart = offset + UInt64(FrameHeader.length)
            let end = payloadStart + UInt64(info.compressedLength)
            if end > fileSize {
                let error = TraceError(
                    .tornTail,
                    "file ends inside a frame payload (\(fileSize - payloadStart) of \(info.compressedLength) bytes present)",
                    offset: offset
                )
                try scan.fail(error, file: file, fileSize: fileSize)
                return scan
            }
            if verifyPayloads {
                bytes = try file.read(count: Int(info.compressedLength), at: payloadStart)
                let actual = CRC32.checksum(bytes)
                // A checkpoint whose header (with its own CRC) holds but whose payload does not: its length is
                // known and it holds no events, so the walk goes on; readers skip it when they need it
                // (`checkpointPayload(_:)` reports the mismatch, `verify` lists it). Cutting the trace here
                // would drop every event after it.
                if actual != header.payloadCRC, info.kind != .checkpoint {
                    let error = TraceError(
                        .corruptFrame,
                        "\(info.kind) frame \(info.sequence): payload CRC mismatch (stored \(hex(header.payloadCRC)), computed \(hex(actual)))",
                        offset: offset
                    )
                    try scan.fail(error, file: file, fileSize: fileSize)
                    return scan
                }
            }
            if info.sequence != expectedSequence {
                scan.orderProblems.append(TraceError(
                    .sequenceGap, "frame sequence \(info.sequence) where \(expectedSequence) was expected", offset: offset
                ))
            }
            expectedSequence = info.sequence &+ 1
            if info.kind == .index {
                scan.indexOffset = offset
            } else {
                if info.kind == .events || info.kind == .checkpoint, info.firstOrdinal != expectedOrdinal {
                    scan.orderProblems.append(TraceError(
                        .sequenceGap,
                        "\(info.kind) frame \(info.sequence) starts at event \(info.firstOrdinal) where \(expectedOrdinal) was expected",
                        offset: offset
                    ))
                }
                if info.kind == .events {
                    if info.firstTimestamp < lastTimestamp {
                        scan.orderProblems.append(TraceError(
                            .timestampWentBackwards,
                            "events frame \(info.sequence) starts at \(info.firstTimestamp) ns, before the previous frame's last event at \(lastTimestamp) ns",
                            offset: offset
                        ))
                    }
                    lastTimestamp = max(lastTimestamp, info.lastTimestamp)
                    expectedOrdinal = info.firstOrdinal &+ UInt64(info.eventCount)
                }
                scan.frames.append(info)
                scan.dataEnd = end
            }
            scan.validEnd = end
            offset = end
        }
        return scan
    }

    /// Records `error` as the end of the valid prefix and looks for a valid frame after it.
    private mutating func fail(_ error: TraceError, file: FileDescriptor, fileSize: UInt64) throws {
        let failOffset = error.offset ?? validEnd
        let rest = try file.read(count: Int(fileSize - failOffset), at: failOffset)
        var nextValid: UInt64?
        if rest.count > 4 {
            var index = 1
            while index + FrameHeader.length <= rest.count {
                if rest[index] == FrameHeader.magic[0], rest[index + 1] == FrameHeader.magic[1],
                   rest[index + 2] == FrameHeader.magic[2], rest[index + 3] == FrameHeader.magic[3],
                   let header = try? FrameHeader.decode(rest, at: index, fileOffset: failOffset + UInt64(index)),
                   header.info.kind != .index
                {
                    nextValid = failOffset + UInt64(index)
                    break
                }
                index += 1
            }
        }
        // A valid footer at the end of the file pointing after the damage: the file was closed cleanly, so the
        // damage is not a torn write but a damaged frame before the index, which must not be cut off.
        if nextValid == nil, fileSize - failOffset >= UInt64(TraceFooter.length),
           let footer = TraceFooter.decode(try file.read(count: TraceFooter.length, at: fileSize - UInt64(TraceFooter.length))),
           footer.indexOffset > failOffset, footer.indexOffset < fileSize
        {
            nextValid = footer.indexOffset
        }
        var failure = error
        if let nextValid {
            failure.message += "; a valid frame follows at offset \(nextValid), so this is damage in the middle: the \(fileSize - failOffset) bytes from here on are not read"
            failureIsTail = false
        } else {
            failureIsTail = true
            failure.message += " (torn tail: \(fileSize - failOffset) bytes after the last valid frame)"
        }
        self.failure = failure
    }
}
