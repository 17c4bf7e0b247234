/// A growable byte buffer that encoders write into, little-endian throughout.
///
/// Follows NIO's naming: `write…` appends and returns the number of bytes written.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    var count: Int { bytes.count }

    @discardableResult
    mutating func writeUInt8(_ value: UInt8) -> Int {
        bytes.append(value)
        return 1
    }

    @discardableResult
    mutating func writeUInt16(_ value: UInt16) -> Int {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        return 2
    }

    @discardableResult
    mutating func writeUInt32(_ value: UInt32) -> Int {
        for shift in stride(from: 0, to: 32, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
        return 4
    }

    @discardableResult
    mutating func writeUInt64(_ value: UInt64) -> Int {
        for shift in stride(from: 0, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
        return 8
    }

    /// Writes `value` as an unsigned LEB128 varint (7 bits per byte, low group first, high bit = more).
    @discardableResult
    mutating func writeVarint(_ value: UInt64) -> Int {
        var rest = value
        var written = 1
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
            written += 1
        }
        bytes.append(UInt8(rest))
        return written
    }

    /// Writes a signed value zigzag-encoded (0, -1, 1, -2, … → 0, 1, 2, 3, …) as a varint.
    @discardableResult
    mutating func writeSignedVarint(_ value: Int64) -> Int {
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    @discardableResult
    mutating func writeBytes<C: Collection>(_ data: C) -> Int where C.Element == UInt8 {
        bytes.append(contentsOf: data)
        return data.count
    }

    /// Overwrites 4 bytes at `offset` (used to patch a CRC or a length after the fact, in memory only).
    mutating func setUInt32(_ value: UInt32, at offset: Int) {
        for index in 0..<4 {
            bytes[offset + index] = UInt8(truncatingIfNeeded: value >> UInt32(index * 8))
        }
    }

    mutating func removeAll(keepingCapacity: Bool = true) {
        bytes.removeAll(keepingCapacity: keepingCapacity)
    }
}

/// A cursor over bytes for decoders. Every `read…` advances and returns `nil` when the bytes run out (or a
/// varint is longer than 10 bytes), leaving the cursor where it was.
struct ByteReader {
    let bytes: [UInt8]
    private(set) var position: Int
    let end: Int

    init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.position = start
        self.end = end ?? bytes.count
    }

    var remaining: Int { end - position }
    var isAtEnd: Bool { position >= end }

    mutating func readUInt8() -> UInt8? {
        guard position < end else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func readUInt16() -> UInt16? {
        guard remaining >= 2 else { return nil }
        defer { position += 2 }
        return UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8
    }

    mutating func readUInt32() -> UInt32? {
        guard remaining >= 4 else { return nil }
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[position + index]) << UInt32(index * 8) }
        position += 4
        return value
    }

    mutating func readUInt64() -> UInt64? {
        guard remaining >= 8 else { return nil }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[position + index]) << UInt64(index * 8) }
        position += 8
        return value
    }

    mutating func readVarint() -> UInt64? {
        let (position, end) = (self.position, self.end)
        guard let (value, next) = bytes.withUnsafeBufferPointer({ buffer in
            buffer.baseAddress.flatMap { Varint.read($0, at: position, end: min(end, buffer.count)) }
        }) else { return nil }
        self.position = next
        return value
    }

    mutating func readSignedVarint() -> Int64? {
        readVarint().map(Varint.zigZagDecoded)
    }

    mutating func readBytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, remaining >= count else { return nil }
        defer { position += count }
        return Array(bytes[position..<(position + count)])
    }

    mutating func readString(byteCount: Int) -> String? {
        guard byteCount >= 0, remaining >= byteCount else { return nil }
        defer { position += byteCount }
        return String(decoding: bytes[position..<(position + byteCount)], as: UTF8.self)
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, remaining >= count else { return false }
        position += count
        return true
    }
}

/// Little-endian reads at fixed offsets of a byte array, for fixed-layout headers.
extension Array where Element == UInt8 {
    func getUInt16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    func getUInt32(at offset: Int) -> UInt32 {
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(self[offset + index]) << UInt32(index * 8) }
        return value
    }

    func getUInt64(at offset: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(self[offset + index]) << UInt64(index * 8) }
        return value
    }
}
