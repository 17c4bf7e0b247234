import CZlib

/// Raw inflate (windowBits -15) with one `z_stream` reused for every call. Not thread-safe; one owner.
final class Inflater {
    private var stream = z_stream()

    /// - Throws: `ZlibError` when zlib cannot initialise.
    init() throws {
        let status = lifetrace_inflateInit2(&stream, -15)
        guard status == Z_OK else { throw ZlibError(code: status, message: "inflateInit2 failed") }
    }

    deinit {
        inflateEnd(&stream)
    }

    /// Inflates one complete raw deflate stream that must expand to exactly `expectedLength` bytes.
    ///
    /// - Throws: `ZlibError` when the data is not valid deflate, ends early, or has a different length.
    func decompress(_ input: ArraySlice<UInt8>, expectedLength: Int) throws -> [UInt8] {
        // One spare byte so that data longer than announced is detected instead of silently cut.
        try [UInt8](unsafeUninitializedCapacity: expectedLength + 1) { buffer, initialized in
            try decompress(input, into: buffer.baseAddress!, expectedLength: expectedLength)
            initialized = expectedLength
        }
    }

    /// `decompress(_:expectedLength:)` writing into `output`, which must hold `expectedLength + 1` bytes (the
    /// spare byte detects data longer than announced; its content is unspecified afterwards). No zero fill, no copy.
    ///
    /// - Throws: `ZlibError` as `decompress(_:expectedLength:)`.
    func decompress(_ input: ArraySlice<UInt8>, into output: UnsafeMutablePointer<UInt8>, expectedLength: Int) throws {
        var status = inflateReset(&stream)
        guard status == Z_OK else { throw ZlibError(code: status, message: "inflateReset failed") }
        let capacity = expectedLength + 1
        let produced: Int = try input.withUnsafeBufferPointer { source in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = uInt(source.count)
            stream.next_out = output
            stream.avail_out = uInt(capacity)
            defer {
                stream.next_in = nil
                stream.next_out = nil
            }
            status = inflate(&stream, Z_FINISH)
            guard status == Z_STREAM_END else {
                let reason = status == Z_BUF_ERROR ? "data ends early or expands past the announced length" : "invalid deflate data"
                throw ZlibError(code: status, message: reason)
            }
            guard stream.avail_in == 0 else {
                throw ZlibError(code: Z_DATA_ERROR, message: "\(stream.avail_in) bytes follow the end of the deflate stream")
            }
            return capacity - Int(stream.avail_out)
        }
        guard produced == expectedLength else {
            throw ZlibError(code: Z_DATA_ERROR, message: "inflated to \(produced) bytes, expected \(expectedLength)")
        }
    }
}
