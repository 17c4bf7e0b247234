/// The file header's bytes (docs/FORMAT.md §2).
extension TraceHeader {
    /// `89 4C 54 52 41 43 45 0A`: a non-ASCII first byte (so it is not taken for text), `LTRACE`, a newline
    /// (so a text-mode transfer that rewrites line endings is detected).
    public static let magic: [UInt8] = [0x89, 0x4C, 0x54, 0x52, 0x41, 0x43, 0x45, 0x0A]
    /// Bytes before the producer string.
    static let fixedLength = 54
    /// Headers longer than this are refused as corrupt.
    static let maximumLength = 1 << 20

    static let flagSyntheticTimes: UInt8 = 1 << 0

    /// The header's bytes, CRC included.
    func encoded() -> [UInt8] {
        var producerBytes = Array(producer.utf8)
        if producerBytes.count > Int(UInt16.max) { producerBytes.removeLast(producerBytes.count - Int(UInt16.max)) }
        let length = Self.fixedLength + producerBytes.count + 4
        var writer = ByteWriter(capacity: length)
        writer.writeBytes(Self.magic)
        writer.writeUInt16(formatMajor)
        writer.writeUInt16(formatMinor)
        writer.writeUInt32(UInt32(length))
        writer.writeUInt8(clockDomain.rawValue)
        writer.writeUInt8(hasSyntheticTimes ? Self.flagSyntheticTimes : 0)
        writer.writeUInt16(0)
        writer.writeUInt64(UInt64(bitPattern: wallClockAnchor.unixNanoseconds))
        writer.writeUInt64(wallClockAnchor.monotonicNanoseconds)
        var id = traceID
        if id.count < 16 { id += [UInt8](repeating: 0, count: 16 - id.count) }
        writer.writeBytes(id.prefix(16))
        writer.writeUInt16(UInt16(producerBytes.count))
        writer.writeBytes(producerBytes)
        writer.writeUInt32(CRC32.checksum(writer.bytes))
        return writer.bytes
    }

    /// The header length a file declares, from its first 16 bytes; `nil` when the magic does not match.
    static func declaredLength(prefix: [UInt8]) -> Int? {
        guard prefix.count >= 16, Array(prefix[0..<8]) == magic else { return nil }
        return Int(prefix.getUInt32(at: 12))
    }

    /// Parses a header from the start of a file.
    ///
    /// - Parameter bytes: The file's first bytes: at least the whole header (fewer means a cut header).
    /// - Returns: The header and its length in bytes.
    /// - Throws: `TraceError` `.emptyFile`, `.notATrace`, `.corruptHeader` (cut short, CRC mismatch, bad
    ///   field) or `.unsupportedVersion`, each at offset 0 or the offending byte. The file path is not set.
    static func decode(_ bytes: [UInt8]) throws -> (header: TraceHeader, length: Int) {
        if bytes.isEmpty { throw TraceError(.emptyFile, "empty file (0 bytes): not a Lifetrace trace", offset: 0) }
        let magicCount = min(bytes.count, magic.count)
        guard Array(bytes[0..<magicCount]) == Array(magic[0..<magicCount]) else {
            throw TraceError(.notATrace, "not a Lifetrace trace (the file does not start with the trace magic)", offset: 0)
        }
        guard bytes.count >= 16 else {
            throw TraceError(.corruptHeader, "file header cut short: \(bytes.count) bytes, the header needs at least \(fixedLength + 4)", offset: 0)
        }
        let major = bytes.getUInt16(at: 8)
        let minor = bytes.getUInt16(at: 10)
        let length = Int(bytes.getUInt32(at: 12))
        let newerNote = major > currentMajor
            ? " (it claims format \(major).\(minor); this build reads format \(currentMajor).x)" : ""
        guard length >= fixedLength + 4, length <= maximumLength else {
            throw TraceError(.corruptHeader, "file header declares an impossible length \(length)\(newerNote)", offset: 12)
        }
        guard bytes.count >= length else {
            throw TraceError(.corruptHeader, "file header cut short: \(bytes.count) of \(length) bytes present\(newerNote)", offset: UInt64(bytes.count))
        }
        let storedCRC = bytes.getUInt32(at: length - 4)
        let actualCRC = CRC32.checksum(bytes[0..<(length - 4)])
        guard storedCRC == actualCRC else {
            throw TraceError(
                .corruptHeader,
                "file header CRC mismatch (stored \(hex(storedCRC)), computed \(hex(actualCRC)))\(newerNote)",
                offset: UInt64(length - 4)
            )
        }
        guard major <= currentMajor else {
            throw TraceError(
                .unsupportedVersion,
                "written in trace format \(major).\(minor), newer than this build of lifetrace reads (format \(currentMajor).x); upgrade lifetrace to read it",
                offset: 8
            )
        }
        guard major >= 1 else {
            throw TraceError(.unsupportedVersion, "format major 0 does not exist", offset: 8)
        }
        var reader = ByteReader(bytes, from: 16, to: length - 4)
        guard let clock = reader.readUInt8(), let flags = reader.readUInt8(), reader.readUInt16() != nil,
              let unix = reader.readUInt64(), let monotonic = reader.readUInt64(), let id = reader.readBytes(16),
              let producerLength = reader.readUInt16()
        else {
            throw TraceError(.corruptHeader, "file header fields cut short", offset: 16)
        }
        guard let producer = reader.readString(byteCount: Int(producerLength)) else {
            throw TraceError(.corruptHeader, "producer string runs past the header's end", offset: 52)
        }
        var header = TraceHeader(
            clockDomain: ClockDomain(rawValue: clock) ?? .unknown,
            wallClockAnchor: WallClockAnchor(unixNanoseconds: Int64(bitPattern: unix), monotonicNanoseconds: monotonic),
            producer: producer,
            hasSyntheticTimes: flags & flagSyntheticTimes != 0,
            traceID: id
        )
        header.formatMajor = major
        header.formatMinor = minor
        return (header, length)
    }
}

func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}
