/// A checkpoint payload that cannot be decoded: wrong magic, a newer version, cut short, or inconsistent.
///
/// Checkpoints are an optimisation: `Replayer` falls back to an earlier checkpoint or to the start when it meets
/// one, and reports it in `Seek.skippedCheckpoints`.
public struct CheckpointError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The payload does not start with `LTCK`.
        public static let badMagic = Code("badMagic")
        /// Written by a newer encoding version.
        public static let unsupportedVersion = Code("unsupportedVersion")
        /// Bytes ran out, a value is out of range, or bytes are left over.
        public static let malformed = Code("malformed")
        /// The decoded state does not cover the events the checkpoint frame says it covers.
        public static let inconsistent = Code("inconsistent")
    }

    public var code: Code
    public var message: String
    /// Byte offset in the payload where decoding failed, when known.
    public var offset: Int?

    public init(_ code: Code, _ message: String, offset: Int? = nil) {
        self.code = code
        self.message = message
        self.offset = offset
    }

    public var description: String {
        var text = "checkpoint \(code): \(message)"
        if let offset { text += " (payload offset \(offset))" }
        return text
    }
}
