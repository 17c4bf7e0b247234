import TraceModel

/// Writes the bytes of a checkpoint payload: LEB128 varints, length-prefixed UTF-8, strings by index into a
/// table written first.
struct CheckpointWriter {
    private(set) var bytes: [UInt8] = []
    private var strings: [String] = []
    private var stringIndex: [String: UInt64] = [:]

    init() {
        bytes.reserveCapacity(4096)
    }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func varint(_ value: UInt32) { varint(UInt64(value)) }
    mutating func int(_ value: Int) { varint(UInt64(bitPattern: Int64(value) << 1 ^ Int64(value) >> 63)) }
    mutating func byte(_ value: UInt8) { bytes.append(value) }
    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    /// A string by index into the table (interned).
    mutating func string(_ value: String) {
        if let index = stringIndex[value] {
            varint(index)
        } else {
            let index = UInt64(strings.count)
            strings.append(value)
            stringIndex[value] = index
            varint(index)
        }
    }

    mutating func optional<T>(_ value: T?, _ write: (inout CheckpointWriter, T) -> Void) {
        if let value {
            bytes.append(1)
            write(&self, value)
        } else {
            bytes.append(0)
        }
    }

    mutating func array<T>(_ values: [T], _ write: (inout CheckpointWriter, T) -> Void) {
        varint(UInt64(values.count))
        for value in values { write(&self, value) }
    }

    /// The table of interned strings followed by the body.
    func finish(magic: [UInt8], version: UInt64) -> [UInt8] {
        var head = CheckpointWriter()
        head.bytes = magic
        head.varint(version)
        head.varint(UInt64(strings.count))
        for string in strings {
            let utf8 = Array(string.utf8)
            head.varint(UInt64(utf8.count))
            head.bytes.append(contentsOf: utf8)
        }
        return head.bytes + bytes
    }
}

/// Reads what `CheckpointWriter` wrote; every read checks bounds and throws `CheckpointError.malformed`.
struct CheckpointReader {
    let bytes: [UInt8]
    private(set) var position: Int
    private var strings: [String] = []

    init(bytes: [UInt8], position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    func fail(_ message: String) -> CheckpointError {
        CheckpointError(.malformed, message, offset: position)
    }

    mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < bytes.count else { throw fail("varint cut short") }
            let byte = bytes[position]
            position += 1
            guard shift < 64 else { throw fail("varint too long") }
            if shift == 63, byte > 1 { throw fail("varint overflows 64 bits") }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
        }
    }

    mutating func uint32() throws -> UInt32 {
        let value = try varint()
        guard let narrow = UInt32(exactly: value) else { throw fail("value \(value) does not fit 32 bits") }
        return narrow
    }

    mutating func int() throws -> Int {
        let raw = try varint()
        let value = Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
        guard let narrow = Int(exactly: value) else { throw fail("integer out of range") }
        return narrow
    }

    /// A count of items that each take at least one byte: bounded by the bytes left, so a corrupt count cannot
    /// make the decoder allocate without limit.
    mutating func count() throws -> Int {
        let value = try varint()
        guard value <= UInt64(bytes.count - position) else { throw fail("count \(value) exceeds the bytes left") }
        return Int(value)
    }

    mutating func byte() throws -> UInt8 {
        guard position < bytes.count else { throw fail("byte cut short") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func bool() throws -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        case let other: throw fail("bad boolean \(other)")
        }
    }

    mutating func string() throws -> String {
        let index = try varint()
        guard index < UInt64(strings.count) else { throw fail("string index \(index) outside a table of \(strings.count)") }
        return strings[Int(index)]
    }

    mutating func optional<T>(_ read: (inout CheckpointReader) throws -> T) throws -> T? {
        switch try byte() {
        case 0: return nil
        case 1: return try read(&self)
        case let other: throw fail("bad optional tag \(other)")
        }
    }

    mutating func array<T>(_ read: (inout CheckpointReader) throws -> T) throws -> [T] {
        let count = try count()
        var result: [T] = []
        // The count is bounded by the bytes left, not by what an item takes in memory (a few hundred bytes for some):
        // reserve for a modest count only, so a lying one costs no more memory than the items actually read.
        result.reserveCapacity(Swift.min(count, 1024))
        for _ in 0..<count { result.append(try read(&self)) }
        return result
    }

    mutating func enumeration<E: RawRepresentable>(_: E.Type) throws -> E where E.RawValue == UInt8 {
        let raw = try byte()
        guard let value = E(rawValue: raw) else { throw fail("bad \(E.self) value \(raw)") }
        return value
    }

    /// Reads the magic, version and string table.
    mutating func header(magic: [UInt8], maximumVersion: UInt64) throws -> UInt64 {
        guard bytes.count >= magic.count, Array(bytes[0..<magic.count]) == magic else {
            throw CheckpointError(.badMagic, "payload does not start with the checkpoint magic", offset: 0)
        }
        position = magic.count
        let version = try varint()
        guard version >= 1, version <= maximumVersion else {
            throw CheckpointError(.unsupportedVersion, "checkpoint encoding version \(version); this build reads 1…\(maximumVersion)", offset: magic.count)
        }
        let stringCount = try count()
        strings.reserveCapacity(stringCount)
        for _ in 0..<stringCount {
            let length = try count()
            let slice = bytes[position..<(position + length)]
            position += length
            strings.append(String(decoding: slice, as: UTF8.self))
        }
        return version
    }

    var isAtEnd: Bool { position == bytes.count }
}
