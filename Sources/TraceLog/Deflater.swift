import CZlib

/// Raw deflate (no zlib or gzip wrapper, windowBits -15) with one `z_stream` reused for every call.
///
/// Each `compress(_:)` produces an independent deflate stream: the stream is reset between calls, so every
/// frame can be inflated alone. Not thread-safe; one owner.
final class Deflater {
    private var stream = z_stream()
    private var output: [UInt8] = []

    /// - Parameter level: zlib compression level, 0 (store) to 9; 6 is zlib's default trade-off.
    /// - Throws: `ZlibError` when zlib cannot initialise (bad level, no memory).
    init(level: Int32) throws {
        let status = lifetrace_deflateInit2(&stream, level, -15, 8)
        guard status == Z_OK else {
            throw ZlibError(code: status, message: "deflateInit2 failed for level \(level)")
        }
    }

    deinit {
        deflateEnd(&stream)
    }

    /// Compresses `input` into a complete raw deflate stream, appending it to `destination`.
    ///
    /// - Returns: The number of compressed bytes appended.
    @discardableResult
    func compress(_ input: [UInt8], appendingTo destination: inout [UInt8]) throws -> Int {
        var status = deflateReset(&stream)
        guard status == Z_OK else { throw ZlibError(code: status, message: "deflateReset failed") }
        let bound = Int(deflateBound(&stream, uLong(input.count))) + 16
        if output.count < bound { output = [UInt8](repeating: 0, count: bound) }
        let produced: Int = try input.withUnsafeBufferPointer { source in
            try output.withUnsafeMutableBufferPointer { target in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                status = deflate(&stream, Z_FINISH)
                defer {
                    stream.next_in = nil
                    stream.next_out = nil
                }
                guard status == Z_STREAM_END else {
                    throw ZlibError(code: status, message: "deflate did not finish (output bound too small?)")
                }
                return target.count - Int(stream.avail_out)
            }
        }
        destination.append(contentsOf: output[0..<produced])
        return produced
    }
}
