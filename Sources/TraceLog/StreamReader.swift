/// A cursor over one stream of an events payload, reading through a pointer into the payload's bytes (kept alive
/// by `Storage`): the decoder's hot path, with no array bounds checks or reference counting per byte.
///
/// Same contract as `ByteReader`: every `read…` advances and returns `nil` when the stream runs out (or a varint
/// is longer than 10 bytes), leaving the cursor where it was.
struct StreamReader {
    /// A payload's bytes at a stable address (a copy, or inflated straight into it), and the frame's timestamps
    /// once the decoder has read them (`times`), freed with the last decoder that reads them.
    final class Storage {
        let base: UnsafeMutablePointer<UInt8>
        /// The payload's length in bytes (`base` may hold one spare byte more: see `init(capacity:)`).
        let count: Int
        /// One absolute timestamp per event (`EventDecoder`), `nil` until allocated.
        private(set) var times: UnsafeMutablePointer<UInt64>?

        init(_ bytes: [UInt8]) {
            count = bytes.count
            base = .allocate(capacity: Swift.max(1, bytes.count))
            bytes.withUnsafeBufferPointer { buffer in
                if let address = buffer.baseAddress { base.initialize(from: address, count: buffer.count) }
            }
        }

        /// `count` bytes of uninitialised storage plus one spare byte (an inflater writes into it and uses the
        /// spare byte to notice data longer than announced).
        init(uninitializedCount count: Int) {
            self.count = count
            base = .allocate(capacity: count + 1)
        }

        /// Allocates `times` for `count` timestamps (uninitialised).
        func allocateTimes(_ count: Int) -> UnsafeMutablePointer<UInt64> {
            let times = UnsafeMutablePointer<UInt64>.allocate(capacity: Swift.max(1, count))
            self.times = times
            return times
        }

        deinit {
            base.deallocate()
            times?.deallocate()
        }
    }

    let base: UnsafePointer<UInt8>
    var position: Int
    let end: Int

    /// The bytes `start..<end` of `storage` (the caller keeps `storage` alive as long as the reader is used).
    init(_ storage: Storage, from start: Int, to end: Int) {
        self.base = UnsafePointer(storage.base)
        self.position = start
        self.end = end
    }

    /// The bytes `start..<end` of `base` (the caller keeps them alive as long as the reader is used).
    init(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) {
        self.base = base
        self.position = start
        self.end = end
    }

    var remaining: Int { end - position }
    var isAtEnd: Bool { position >= end }

    @inline(__always)
    mutating func readUInt8() -> UInt8? {
        guard position < end else { return nil }
        defer { position += 1 }
        return base[position]
    }

    mutating func readUInt64() -> UInt64? {
        guard remaining >= 8 else { return nil }
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(base[position + index]) << UInt64(index * 8) }
        position += 8
        return value
    }

    @inline(__always)
    mutating func readVarint() -> UInt64? {
        guard position < end else { return nil }
        let first = base[position]
        if first < 0x80 {
            position += 1
            return UInt64(first)
        }
        return readLongVarint()
    }

    private mutating func readLongVarint() -> UInt64? {
        guard let (value, next) = Varint.read(base, at: position, end: end) else { return nil }
        position = next
        return value
    }

    mutating func readSignedVarint() -> Int64? {
        readVarint().map(Varint.zigZagDecoded)
    }

    mutating func readBytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, remaining >= count else { return nil }
        defer { position += count }
        return Array(UnsafeBufferPointer(start: base + position, count: count))
    }

    mutating func readString(byteCount: Int) -> String? {
        guard byteCount >= 0, remaining >= byteCount else { return nil }
        defer { position += byteCount }
        return String(decoding: UnsafeBufferPointer(start: base + position, count: byteCount), as: UTF8.self)
    }
}
