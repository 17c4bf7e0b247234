/// Unsigned LEB128 varints and zig-zag signed integers as the format stores them (docs/FORMAT.md): 7 bits per
/// byte, least significant group first, high bit set on every byte but the last; at most 10 bytes, the tenth
/// holding only bit 63.
enum Varint {
    /// Decodes the varint starting at `position` in `base[..<end]`.
    ///
    /// - Returns: The value and the position after it, or `nil` when the bytes end first or the value does not
    ///   fit in 64 bits.
    @inline(__always)
    static func read(_ base: UnsafePointer<UInt8>, at position: Int, end: Int) -> (value: UInt64, next: Int)? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var cursor = position
        while cursor < end, shift < 64 {
            let byte = base[cursor]
            cursor += 1
            if shift == 63, byte > 1 { return nil }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return (value, cursor) }
            shift += 7
        }
        return nil
    }

    /// The signed integer a zig-zag encoded `raw` stands for (0, -1, 1, -2, … for 0, 1, 2, 3, …).
    @inline(__always)
    static func zigZagDecoded(_ raw: UInt64) -> Int64 {
        Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }
}
