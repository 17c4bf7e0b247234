/// A stable 16-byte id derived from an import's input, so importing the same log with the same options gives
/// the same trace file byte for byte (CI can then tell a stale imported trace from a fresh one).
///
/// The bytes hashed are the input, then each option string after a 0 byte. They are read as 64-bit little-endian
/// words, each mixed as MurmurHash64A mixes a word (multiplier `0xc6a4a7935bd1e995`, shift 47) into two 64-bit
/// states that start from different seeds; the last 0–7 bytes, zero-padded, are one more word, and the byte
/// count another; MurmurHash64A's final avalanche then gives each half. About half a CPU cycle per byte (a word
/// per multiply), where a byte-at-a-time hash costs several cycles per byte. Not cryptographic: it identifies,
/// it does not authenticate.
public enum ImportFingerprint {
    /// - Parameters:
    ///   - input: The log's bytes.
    ///   - options: Everything else that changes the output (format, mark rules, …), in a fixed order.
    /// - Returns: 16 bytes, big-endian halves.
    public static func traceID(input: [UInt8], options: [String]) -> [UInt8] {
        var hasher = Hasher()
        hasher.add(input)
        return hasher.traceID(options: options)
    }

    /// The same id computed over input that arrives in pieces (a log read in chunks): `add` each piece in order,
    /// then `traceID(options:)`. Equal to `ImportFingerprint.traceID(input:options:)` over the concatenation,
    /// whatever the pieces.
    public struct Hasher: Sendable {
        private static let multiplier: UInt64 = 0xc6a4_a793_5bd1_e995
        private static let shift: UInt64 = 47

        private var first: UInt64 = 0xcbf2_9ce4_8422_2325
        private var second: UInt64 = 0x6c62_272e_07bb_0142
        /// Bytes added in total.
        private var count: UInt64 = 0
        /// The bytes after the last whole word (0–7 of them, little-endian in the low bits).
        private var pending: UInt64 = 0

        public init() {}

        /// Adds the next bytes of the input.
        public mutating func add(_ bytes: [UInt8]) {
            bytes.withUnsafeBufferPointer { add($0) }
        }

        /// Adds the next bytes of the input.
        public mutating func add(_ bytes: ArraySlice<UInt8>) {
            bytes.withUnsafeBufferPointer { add($0) }
        }

        /// Adds the next bytes of the input.
        public mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            var index = 0
            var filled = Int(count % 8)
            count += UInt64(bytes.count)
            // Complete the word begun by earlier bytes.
            while filled != 0, index < bytes.count {
                pending |= UInt64(base[index]) << (8 * UInt64(filled))
                index += 1
                filled += 1
                if filled == 8 {
                    mix(pending)
                    pending = 0
                    filled = 0
                }
            }
            // Whole words; local copies keep the loop in registers.
            let raw = UnsafeRawPointer(base)
            var a = first
            var b = second
            while index + 8 <= bytes.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let k = Self.scramble(word)
                a = (a ^ k) &* Self.multiplier
                b = (b ^ k) &* Self.multiplier
                index += 8
            }
            first = a
            second = b
            // Keep the tail for the next call.
            while index < bytes.count {
                pending |= UInt64(base[index]) << (8 * UInt64(filled))
                index += 1
                filled += 1
            }
        }

        /// The id of everything added, with `options` appended (each after a 0 byte). Does not change the hasher.
        public func traceID(options: [String]) -> [UInt8] {
            var copy = self
            for option in options {
                copy.add([0] + Array(option.utf8))
            }
            if copy.count % 8 != 0 { copy.mix(copy.pending) }
            copy.mix(copy.count)
            return ImportFingerprint.bytes(Self.avalanche(copy.first)) + ImportFingerprint.bytes(Self.avalanche(copy.second))
        }

        private mutating func mix(_ word: UInt64) {
            let k = Self.scramble(word)
            first = (first ^ k) &* Self.multiplier
            second = (second ^ k) &* Self.multiplier
        }

        @inline(__always)
        private static func scramble(_ word: UInt64) -> UInt64 {
            var k = word &* multiplier
            k ^= k >> shift
            return k &* multiplier
        }

        private static func avalanche(_ value: UInt64) -> UInt64 {
            var h = value
            h ^= h >> shift
            h = h &* multiplier
            h ^= h >> shift
            return h
        }
    }

    private static func bytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
    }
}
