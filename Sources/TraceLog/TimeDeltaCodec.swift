/// The times stream of an events payload (docs/FORMAT.md §5): one timestamp delta per event, in nanoseconds.
///
/// Two layouts, told apart by the stream's first byte:
///
/// - **split** (format 2.0, first byte `0x80 + S`, S in 1…64): every delta is divided by the frame's common
///   divisor D, and each quotient `q` is cut into a *token* holding its magnitude and its S most significant
///   bits (varints, which deflate codes near their entropy) and the bits below those, stored as they are
///   (packed little-endian bit by bit, which deflate cannot shrink and does not try to). A recorded
///   nanosecond clock's low digits are noise; keeping them out of the bytes deflate models leaves it the
///   structured part alone. Quotients below 2^S are their own token and have no stored bits.
/// - **planes** (format 1.x, first byte W in 0…8): W byte planes, plane k holding byte k of every `delta / D`.
///
/// The writer of format 2.0 writes split streams, except when it appends to a 1.x file (whose readers know only
/// planes).
enum TimeDeltaCodec {
    /// Which layout a writer produces.
    enum Layout: Sendable {
        case split
        case planes
    }

    /// The significant bits kept in a split token. Measured on simulated and jittered sessions
    /// (docs/PERFORMANCE.md, size): 2–4 cost within 3 % of each other; 3 keeps every token in one byte.
    static let significantBits = 3

    /// First byte of a split stream: `splitMarker + S`.
    static let splitMarker: UInt8 = 0x80

    /// The greatest common divisor of the non-zero deltas, 1 when all are 0.
    static func commonDivisor(_ deltas: [UInt64]) -> UInt64 {
        var divisor: UInt64 = 0
        for delta in deltas where delta != 0 {
            var (a, b) = (divisor, delta)
            while b != 0 { (a, b) = (b, a % b) }
            divisor = a
            if divisor == 1 { break }
        }
        return divisor == 0 ? 1 : divisor
    }

    /// Bytes needed for `value` (0 for 0).
    static func byteWidth(_ value: UInt64) -> Int { (64 - value.leadingZeroBitCount + 7) / 8 }

    /// Bits stored outside the token for a quotient `q` with `significant` bits kept.
    @inline(__always)
    static func storedBitCount(_ q: UInt64, significant: Int) -> Int {
        max(0, 64 - q.leadingZeroBitCount - significant)
    }

    /// The times stream for `deltas`, and the offset inside it where the stored (incompressible) bits begin
    /// (`nil` for planes), so that the compressor can start a new deflate block there.
    ///
    /// - Parameter significant: S for the split layout, 1…64 (tokens keep S bits; 64 stores no bits apart).
    static func encode(
        _ deltas: [UInt64], layout: Layout, significant: Int = significantBits
    ) -> (bytes: ByteWriter, storedBitsOffset: Int?) {
        precondition((1...64).contains(significant), "significant bits must be 1…64")
        let divisor = commonDivisor(deltas)
        switch layout {
        case .planes:
            var largest: UInt64 = 0
            for delta in deltas { largest = max(largest, delta / divisor) }
            let width = byteWidth(largest)
            var times = ByteWriter(capacity: 11 + width * deltas.count)
            times.writeUInt8(UInt8(width))
            times.writeVarint(divisor)
            for plane in 0..<width {
                let shift = UInt64(plane * 8)
                for delta in deltas { times.writeUInt8(UInt8(truncatingIfNeeded: (delta / divisor) >> shift)) }
            }
            return (times, nil)
        case .split:
            var tokens = ByteWriter(capacity: deltas.count + 8)
            var stored = ByteWriter(capacity: deltas.count * 2)
            var accumulator: UInt64 = 0
            var pending = 0
            for delta in deltas {
                let q = delta / divisor
                let shift = storedBitCount(q, significant: significant)
                if shift == 0 {
                    tokens.writeVarint(q)
                    continue
                }
                // The token: (shift + 1) · 2^(S−1) + the S − 1 bits under the leading one.
                let top = q >> UInt64(shift)
                tokens.writeVarint(UInt64(shift + 1) << UInt64(significant - 1) | (top & ((1 << UInt64(significant - 1)) - 1)))
                var low = q & ((1 << UInt64(shift)) - 1)
                var bits = shift
                while bits > 0 {
                    let chunk = min(bits, 32)
                    accumulator |= (low & ((1 << UInt64(chunk)) - 1)) << UInt64(pending)
                    pending += chunk
                    low >>= UInt64(chunk)
                    bits -= chunk
                    while pending >= 8 {
                        stored.writeUInt8(UInt8(truncatingIfNeeded: accumulator))
                        accumulator >>= 8
                        pending -= 8
                    }
                }
            }
            if pending > 0 { stored.writeUInt8(UInt8(truncatingIfNeeded: accumulator)) }
            var times = ByteWriter(capacity: 24 + tokens.count + stored.count)
            times.writeUInt8(splitMarker + UInt8(significant))
            times.writeVarint(divisor)
            times.writeVarint(UInt64(tokens.count))
            times.writeBytes(tokens.bytes)
            let offset = times.count
            times.writeBytes(stored.bytes)
            return (times, offset)
        }
    }

    /// Reads a times stream of either layout back into `count` deltas (nanoseconds).
    ///
    /// - Throws: `TraceError` `.corruptFrame` (with `firstOrdinal`, or the ordinal of the event whose delta is
    ///   bad) when the stream is malformed, holds more or fewer deltas than `count`, or a delta overflows 64 bits.
    static func decode(_ stream: ByteReader, count: Int, firstOrdinal: UInt64) throws -> [UInt64] {
        try stream.bytes.withUnsafeBufferPointer { buffer in
            try [UInt64](unsafeUninitializedCapacity: count) { output, initialized in
                // A non-nil base even for an empty array (the stream is then empty: `start == end`).
                let base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
                try decode(base, from: stream.position, to: stream.end, count: count, firstOrdinal: firstOrdinal, into: output.baseAddress!)
                initialized = count
            }
        }
    }

    /// `decode(_:count:firstOrdinal:)` over the bytes `start..<end` of `base`, writing the `count` deltas to
    /// `output` (which must hold `count` values; on a throw its content is unspecified).
    static func decode(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, count: Int, firstOrdinal: UInt64, into output: UnsafeMutablePointer<UInt64>
    ) throws {
        guard start < end else {
            throw TraceError(.corruptFrame, "times stream is empty", eventOrdinal: firstOrdinal)
        }
        let first = base[start]
        if first > splitMarker, first <= splitMarker + 64 {
            // Running sums from 0 (wrapping), then back to deltas: sums taken modulo 2^64 give the deltas back
            // exactly by subtraction.
            _ = try decodeSplit(
                base, from: start + 1, to: end, significant: Int(first - splitMarker), count: count, firstOrdinal: firstOrdinal,
                first: 0, into: output)
            var previous: UInt64 = 0
            for index in 0..<count {
                let sum = output[index]
                output[index] = sum &- previous
                previous = sum
            }
            return
        }
        return try decodePlanes(base, from: start + 1, to: end, width: first, count: count, firstOrdinal: firstOrdinal, into: output)
    }

    /// Reads a times stream of either layout into `count` timestamps: `first` plus the running sum of the deltas
    /// up to each event (what the decoder needs, in one pass over the tokens instead of deltas then sums).
    ///
    /// - Returns: How many of the sums fit in 64 bits: the index of the first event whose sum overflows, or
    ///   `count` (the values from there on are unspecified; such an event fails when it is decoded).
    /// - Throws: What `decode(_:count:firstOrdinal:)` throws, for the same streams (a sum that overflows is not
    ///   an error of the stream).
    static func decodeTimestamps(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, count: Int, firstOrdinal: UInt64, first: UInt64,
        into output: UnsafeMutablePointer<UInt64>
    ) throws -> Int {
        guard start < end else {
            throw TraceError(.corruptFrame, "times stream is empty", eventOrdinal: firstOrdinal)
        }
        let marker = base[start]
        if marker > splitMarker, marker <= splitMarker + 64 {
            return try decodeSplit(
                base, from: start + 1, to: end, significant: Int(marker - splitMarker), count: count, firstOrdinal: firstOrdinal,
                first: first, into: output)
        }
        try decodePlanes(base, from: start + 1, to: end, width: marker, count: count, firstOrdinal: firstOrdinal, into: output)
        var time = first
        for index in 0..<count {
            let (sum, overflow) = time.addingReportingOverflow(output[index])
            if overflow { return index }
            time = sum
            output[index] = sum
        }
        return count
    }

    /// The split layout into running sums from `first` (wrapping past 2^64); returns the index of the first sum
    /// that overflows, or `count`.
    private static func decodeSplit(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, significant: Int, count: Int, firstOrdinal: UInt64, first: UInt64,
        into output: UnsafeMutablePointer<UInt64>
    ) throws -> Int {
        var stream = StreamReader(base, from: start, to: end)
        guard let divisor = stream.readVarint(), divisor >= 1, let tokenLength = stream.readVarint(),
              tokenLength <= UInt64(stream.remaining)
        else {
            throw TraceError(.corruptFrame, "times stream has no valid divisor and token length", eventOrdinal: firstOrdinal)
        }
        let tokenStart = stream.position
        let tokenEnd = tokenStart + Int(tokenLength)
        let topBit: UInt64 = 1 << UInt64(significant - 1)
        // Tokens below this are whole quotients (2^S; every token when S = 64).
        let wholeLimit: UInt64 = significant < 64 ? topBit << 1 : .max
        // The fast path: a one-byte token that is a whole quotient (q < 2^S and q < 0x80), whose product with the
        // divisor cannot overflow (q ≤ 0x7F).
        let quickLimit: UInt8 = divisor <= UInt64.max >> 7 ? UInt8(Swift.min(wholeLimit, 0x80)) : 0
        // Eight tokens at once: every byte of a little-endian word below `quickLimit` (a power of two) when no bit of
        // this mask is set; the lowest set bit tells how many bytes before it are quick tokens.
        let quickMask: UInt64 = quickLimit == 0 ? .max : 0x0101_0101_0101_0101 &* (0x100 &- UInt64(quickLimit))
        // The quick paths add without an overflow check while the running sum is below these bounds (eight and one
        // quick tokens, each at most 0x7F · D, cannot overflow it); 0: never (the general path checks each sum).
        let (blockAdd, blockOverflow) = (8 * 0x7F as UInt64).multipliedReportingOverflow(by: divisor)
        let blockBound: UInt64 = quickLimit == 0 || blockOverflow ? 0 : (UInt64.max - blockAdd) &+ 1
        let laneBound: UInt64 = quickLimit == 0 ? 0 : (UInt64.max - 0x7F &* divisor) &+ 1
        var token = tokenStart
        var position = tokenEnd
        var accumulator: UInt64 = 0
        var available = 0
        var index = 0
        var time = first
        // The first event whose sum overflows (`count`: none so far).
        var valid = count
        while index < count {
            // Runs of one-byte tokens: whole quotients (the S = 3 writer's every token for a clock of coarse
            // resolution), and split ones with at most 32 stored bits; anything else (or a problem) goes the
            // general way below, from the same token (bits already moved into the accumulator stay there).
            let run = Swift.min(count - index, tokenEnd - token)
            var step = 0
            while step < run {
                // Whole one-byte tokens, through moving pointers (no index arithmetic per token): a word of eight
                // at a time, then the quick ones before the first other token of the word; one at a time near the
                // run's end.
                var source = base + (token &+ step)
                var target = output + (index &+ step)
                let sourceEnd = base + (token &+ run)
                while sourceEnd - source >= 8, time < blockBound {
                    let other = UInt64(littleEndian: UnsafeRawPointer(source).loadUnaligned(as: UInt64.self)) & quickMask
                    var sum = time
                    if other == 0 {
                        for lane in 0..<8 {
                            sum &+= UInt64(source[lane]) &* divisor
                            target[lane] = sum
                        }
                        time = sum
                        source += 8
                        target += 8
                        continue
                    }
                    let quick = other.trailingZeroBitCount &>> 3
                    for lane in 0..<quick {
                        sum &+= UInt64(source[lane]) &* divisor
                        target[lane] = sum
                    }
                    time = sum
                    source += quick
                    target += quick
                    break
                }
                while source < sourceEnd, source.pointee < quickLimit, time < laneBound {
                    time &+= UInt64(source.pointee) &* divisor
                    target.pointee = time
                    source += 1
                    target += 1
                }
                step = source - (base + token)
                guard step < run else { break }
                let byte = source.pointee
                let tokenValue = UInt64(byte)
                guard byte < 0x80, tokenValue >= wholeLimit else { break }
                let magnitude = tokenValue >> UInt64(significant - 1)
                guard magnitude <= UInt64(Swift.min(65 - significant, 33)) else { break }
                let shift = Int(magnitude) - 1
                while available < shift, position < end {
                    accumulator |= UInt64(base[position]) << UInt64(available)
                    position += 1
                    available += 8
                }
                guard available >= shift else { break }
                let low = accumulator & ((1 << UInt64(shift)) - 1)
                accumulator >>= UInt64(shift)
                available -= shift
                let q = ((topBit | (tokenValue & (topBit - 1))) << UInt64(shift)) | low
                let (scaled, overflow) = q.multipliedReportingOverflow(by: divisor)
                guard !overflow else {
                    throw TraceError(.corruptFrame, "timestamp delta overflows 64 bits", eventOrdinal: firstOrdinal + UInt64(index + step))
                }
                let (sum, sumOverflow) = time.addingReportingOverflow(scaled)
                if sumOverflow, valid == count { valid = index + step }
                time = sum
                output[index + step] = sum
                step += 1
            }
            token += step
            index += step
            if index == count { break }
            var q: UInt64
            if token < tokenEnd, base[token] < 0x80 {
                q = UInt64(base[token])
                token += 1
            } else if let (value, next) = Varint.read(base, at: token, end: tokenEnd) {
                q = value
                token = next
            } else {
                throw TraceError(
                    .corruptFrame, "times stream ends after \(index) of \(count) tokens", eventOrdinal: firstOrdinal + UInt64(index))
            }
            if q >= wholeLimit {
                let tokenValue = q
                let magnitude = tokenValue >> UInt64(significant - 1)
                guard magnitude <= UInt64(65 - significant) else {
                    throw TraceError(
                        .corruptFrame, "timestamp delta token \(tokenValue) exceeds 64 bits", eventOrdinal: firstOrdinal + UInt64(index))
                }
                let shift = Int(magnitude) - 1
                var low: UInt64 = 0
                var got = 0
                while got < shift {
                    let chunk = min(shift - got, 32)
                    while available < chunk {
                        guard position < end else {
                            throw TraceError(
                                .corruptFrame, "times stream's stored bits end inside event \(firstOrdinal + UInt64(index))'s delta",
                                eventOrdinal: firstOrdinal + UInt64(index))
                        }
                        accumulator |= UInt64(base[position]) << UInt64(available)
                        position += 1
                        available += 8
                    }
                    low |= (accumulator & ((1 << UInt64(chunk)) - 1)) << UInt64(got)
                    accumulator >>= UInt64(chunk)
                    available -= chunk
                    got += chunk
                }
                q = ((topBit | (tokenValue & (topBit - 1))) << UInt64(shift)) | low
            }
            let (scaled, overflow) = q.multipliedReportingOverflow(by: divisor)
            guard !overflow else {
                throw TraceError(.corruptFrame, "timestamp delta overflows 64 bits", eventOrdinal: firstOrdinal + UInt64(index))
            }
            let (sum, sumOverflow) = time.addingReportingOverflow(scaled)
            if sumOverflow, valid == count { valid = index }
            time = sum
            output[index] = sum
            index += 1
        }
        guard token == tokenEnd, position == end, accumulator == 0 else {
            throw TraceError(.corruptFrame, "times stream holds bytes after the last event's delta", eventOrdinal: firstOrdinal)
        }
        return valid
    }

    private static func decodePlanes(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, width: UInt8, count: Int, firstOrdinal: UInt64,
        into output: UnsafeMutablePointer<UInt64>
    ) throws {
        var stream = StreamReader(base, from: start, to: end)
        guard width <= 8, let divisor = stream.readVarint(), divisor >= 1 else {
            throw TraceError(.corruptFrame, "times stream has no valid plane count and divisor", eventOrdinal: firstOrdinal)
        }
        guard stream.remaining == Int(width) * count else {
            throw TraceError(
                .corruptFrame, "times stream holds \(stream.remaining) bytes, \(width) planes of \(count) events need \(Int(width) * count)",
                eventOrdinal: firstOrdinal
            )
        }
        output.initialize(repeating: 0, count: count)
        let planes = stream.position
        for plane in 0..<Int(width) {
            let start = planes + plane * count
            let shift = UInt64(plane * 8)
            for index in 0..<count {
                output[index] |= UInt64(base[start + index]) << shift
            }
        }
        if divisor > 1 {
            for index in 0..<count {
                let (scaled, overflow) = output[index].multipliedReportingOverflow(by: divisor)
                guard !overflow else {
                    throw TraceError(.corruptFrame, "timestamp delta overflows 64 bits", eventOrdinal: firstOrdinal + UInt64(index))
                }
                output[index] = scaled
            }
        }
    }
}
