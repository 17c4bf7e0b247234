import CZlib

/// zlib's CRC-32 (the IEEE 802.3 polynomial, as in gzip and PNG).
enum CRC32 {
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            UInt32(truncatingIfNeeded: crc32(0, buffer.baseAddress, uInt(buffer.count)))
        }
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        checksum(bytes[...])
    }
}
