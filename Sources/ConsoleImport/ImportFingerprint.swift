/// A stable 16-byte id derived from an import's input, so importing the same log with the same options gives
/// the same trace file byte for byte (CI can then tell a stale imported trace from a fresh one).
///
/// Two 64-bit FNV-1a hashes with different offset bases over the input bytes and then each option string,
/// each followed by a 0 byte. Not cryptographic: it identifies, it does not authenticate.
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
    /// then `traceID(options:)`. Equal to `ImportFingerprint.traceID(input:options:)` over the concatenation.
    public struct Hasher: Sendable {
        private var first = Hasher64(basis: 0xcbf2_9ce4_8422_2325)
        private var second = Hasher64(basis: 0x6c62_272e_07bb_0142)

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
            // Local copies keep the loop in registers.
            var a = first.value
            var b = second.value
            for byte in bytes {
                a = (a ^ UInt64(byte)) &* Hasher64.prime
                b = (b ^ UInt64(byte)) &* Hasher64.prime
            }
            first.value = a
            second.value = b
        }

        /// The id of everything added, with `options` appended (each after a 0 byte). Does not change the hasher.
        public func traceID(options: [String]) -> [UInt8] {
            var copy = self
            for option in options {
                copy.add([0] + Array(option.utf8))
            }
            return ImportFingerprint.bytes(copy.first.value) + ImportFingerprint.bytes(copy.second.value)
        }
    }

    private static func bytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
    }

    private struct Hasher64: Sendable {
        static let prime: UInt64 = 0x0000_0100_0000_01b3
        var value: UInt64
        init(basis: UInt64) { value = basis }
    }
}
