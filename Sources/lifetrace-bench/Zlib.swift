// A minimal zlib wrapper for the peers (gzip -6 of the JSONL, raw inflate of the trace's frames).
//
// The peers use their own wrapper rather than TraceLog's so that a baseline never shares code with the
// candidate it is measured against.

import CZlib

/// A zlib call that returned an error code.
struct ZlibFailure: Error, CustomStringConvertible {
    var operation: String
    var code: Int32

    var description: String { "zlib \(operation) failed with code \(code)" }
}

/// One reusable deflate stream.
final class Deflater {
    private var stream = z_stream()
    private var output: [UInt8]

    /// - Parameters:
    ///   - level: 0–9; 6 is `gzip`'s default.
    ///   - windowBits: 15 + 16 gives gzip framing (what the `gzip` tool writes), -15 raw deflate.
    init(level: Int32, windowBits: Int32) throws {
        output = [UInt8](repeating: 0, count: 1 << 16)
        let code = lifetrace_deflateInit2(&stream, level, windowBits, 8)
        guard code == Z_OK else { throw ZlibFailure(operation: "deflateInit2", code: code) }
    }

    deinit { deflateEnd(&stream) }

    /// Compresses `input` as one complete stream (reset first) and returns the compressed size in bytes.
    func compressedSize(of input: UnsafeRawBufferPointer) throws -> Int {
        var total = 0
        try compress(input) { total += $0.count }
        return total
    }

    /// Compresses `input` as one complete stream, handing each output chunk to `sink`.
    func compress(_ input: UnsafeRawBufferPointer, sink: (UnsafeRawBufferPointer) throws -> Void) throws {
        deflateReset(&stream)
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        let capacity = output.count
        while true {
            let (code, produced) = output.withUnsafeMutableBytes { buffer -> (Int32, Int) in
                stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(capacity)
                let code = deflate(&stream, Z_FINISH)
                return (code, capacity - Int(stream.avail_out))
            }
            if produced > 0 {
                try output.withUnsafeBytes { try sink(UnsafeRawBufferPointer(rebasing: $0[0..<produced])) }
            }
            if code == Z_STREAM_END { break }
            guard code == Z_OK || code == Z_BUF_ERROR else { throw ZlibFailure(operation: "deflate", code: code) }
        }
    }
}

/// One reusable raw-inflate stream (windowBits -15: no zlib or gzip header, like the trace's frames).
final class RawInflater {
    private var stream = z_stream()
    private var output: [UInt8]

    init(outputCapacity: Int = 1 << 20) throws {
        output = [UInt8](repeating: 0, count: outputCapacity)
        let code = lifetrace_inflateInit2(&stream, -15)
        guard code == Z_OK else { throw ZlibFailure(operation: "inflateInit2", code: code) }
    }

    deinit { inflateEnd(&stream) }

    /// Inflates one complete raw-deflate block sequence into the reusable buffer and returns the number of bytes
    /// produced, plus the last byte so the work is observable. Output beyond the buffer is inflated and discarded.
    func inflate(_ input: UnsafeRawBufferPointer) throws -> (count: Int, last: UInt8) {
        inflateReset(&stream)
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.avail_in = uInt(input.count)
        var total = 0
        var last: UInt8 = 0
        let capacity = output.count
        while true {
            let (code, produced, tail) = output.withUnsafeMutableBytes { buffer -> (Int32, Int, UInt8) in
                stream.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(capacity)
                let code = CZlib.inflate(&stream, Z_NO_FLUSH)
                let produced = capacity - Int(stream.avail_out)
                return (code, produced, produced > 0 ? buffer[produced - 1] : 0)
            }
            total += produced
            if produced > 0 { last = tail }
            if code == Z_STREAM_END { break }
            if code == Z_BUF_ERROR && stream.avail_in == 0 { break }  // a frame without a final block
            guard code == Z_OK else { throw ZlibFailure(operation: "inflate", code: code) }
        }
        return (total, last)
    }
}
