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
        var first = Hasher64(basis: 0xcbf2_9ce4_8422_2325)
        var second = Hasher64(basis: 0x6c62_272e_07bb_0142)
        for byte in input {
            first.add(byte)
            second.add(byte)
        }
        for option in options {
            for byte in [0] + Array(option.utf8) {
                first.add(byte)
                second.add(byte)
            }
        }
        return bytes(first.value) + bytes(second.value)
    }

    private static func bytes(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) }
    }

    private struct Hasher64 {
        var value: UInt64
        init(basis: UInt64) { value = basis }
        mutating func add(_ byte: UInt8) {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
    }
}
