import CZlib

/// Raw deflate (no zlib or gzip wrapper, windowBits -15) with one `z_stream` reused for every call.
///
/// Each `compress(_:)` produces an independent deflate stream: the stream is reset between calls, so every
/// frame can be inflated alone. Not thread-safe; one owner.
final class Deflater {
    private var stream = z_stream()
    private var output: [UInt8] = []
    private let level: Int32
    /// The parameters zlib holds now (they survive `deflateReset`).
    private var method = Block.Method.standard

    /// - Parameter level: zlib compression level, 0 (store) to 9; 6 is zlib's default trade-off.
    /// - Throws: `ZlibError` when zlib cannot initialise (bad level, no memory).
    init(level: Int32) throws {
        self.level = level
        let status = lifetrace_deflateInit2(&stream, level, -15, 8)
        guard status == Z_OK else {
            throw ZlibError(code: status, message: "deflateInit2 failed for level \(level)")
        }
    }

    deinit {
        deflateEnd(&stream)
    }

    /// A stretch of the input that gets deflate blocks of its own, and how zlib should compress it.
    struct Block: Equatable, Sendable {
        enum Method: Equatable, Sendable {
            /// The deflater's level with zlib's default strategy (string matching and Huffman codes).
            case standard
            /// `Z_FILTERED`: only longer matches, the rest Huffman-coded; for small-alphabet numbers whose
            /// short repeats are chance, not structure (the times stream's tokens).
            case filtered
            /// Stored blocks (level 0): for bytes known to be noise, which deflate cannot shrink.
            case stored
        }

        /// Offset into the input where the block starts; it runs to the next block's start or the end.
        var start: Int
        var method: Method
    }

    /// Compresses `input` into a complete raw deflate stream, appending it to `destination`.
    ///
    /// - Parameter blocks: Increasing starts of stretches compressed with their own method, each starting a
    ///   new deflate block (zlib's `Z_BLOCK` flush, then `deflateParams`); bytes before the first start use
    ///   `.standard`. The result is one ordinary deflate stream whatever the blocks: back-references may reach
    ///   across them, and any inflater reads it.
    /// - Returns: The number of compressed bytes appended.
    @discardableResult
    func compress(_ input: [UInt8], blocks: [Block] = [], appendingTo destination: inout [UInt8]) throws -> Int {
        var status = deflateReset(&stream)
        guard status == Z_OK else { throw ZlibError(code: status, message: "deflateReset failed") }
        // Each block boundary may add an end code, a block header and a stored block's length (a few bytes).
        let bound = Int(deflateBound(&stream, uLong(input.count))) + 16 + 16 * blocks.count
        if output.count < bound { output = [UInt8](repeating: 0, count: bound) }
        if method != .standard {
            // deflateReset keeps the parameters of the last call; with nothing compressed yet this only switches.
            status = setParameters(.standard)
            guard status == Z_OK else { throw ZlibError(code: status, message: "deflateParams failed") }
        }
        // Stretches as (start, method); a later block with the same start replaces the earlier one's method.
        var stretches: [(start: Int, method: Block.Method)] = [(0, .standard)]
        for block in blocks where block.start < input.count {
            if block.start <= stretches[stretches.count - 1].start {
                stretches[stretches.count - 1].method = block.method
            } else {
                stretches.append((block.start, block.method))
            }
        }
        let produced: Int = try input.withUnsafeBufferPointer { source in
            try output.withUnsafeMutableBufferPointer { target in
                defer {
                    stream.next_in = nil
                    stream.next_out = nil
                }
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                for (index, stretch) in stretches.enumerated() {
                    let last = index == stretches.count - 1
                    let end = last ? input.count : stretches[index + 1].start
                    if stretch.method != method {
                        // Nothing is pending (the previous stretch ended with Z_BLOCK), so this only switches.
                        status = setParameters(stretch.method)
                        guard status == Z_OK else { throw ZlibError(code: status, message: "deflateParams failed") }
                    }
                    stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress.map { $0 + stretch.start })
                    stream.avail_in = uInt(end - stretch.start)
                    status = deflate(&stream, last ? Z_FINISH : Z_BLOCK)
                    if last {
                        guard status == Z_STREAM_END else {
                            throw ZlibError(code: status, message: "deflate did not finish (output bound too small?)")
                        }
                    } else {
                        guard status == Z_OK, stream.avail_in == 0, stream.avail_out > 0 else {
                            throw ZlibError(code: status, message: "deflate did not take a block (output bound too small?)")
                        }
                    }
                }
                return target.count - Int(stream.avail_out)
            }
        }
        destination.append(contentsOf: output[0..<produced])
        return produced
    }

    private func setParameters(_ newMethod: Block.Method) -> Int32 {
        let status: Int32 = switch newMethod {
        case .standard: deflateParams(&stream, level, Z_DEFAULT_STRATEGY)
        case .filtered: deflateParams(&stream, level, Z_FILTERED)
        case .stored: deflateParams(&stream, 0, Z_DEFAULT_STRATEGY)
        }
        if status == Z_OK { method = newMethod }
        return status
    }
}
