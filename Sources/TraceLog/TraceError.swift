/// An error reading or writing a trace file, with where it happened.
///
/// `description` reads `FILE: offset N: message` (or `FILE: event N: message` when only the event ordinal is
/// known), so the CLI can print it as one line.
public struct TraceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem this is. Extensible: new codes may be added in later versions, so match with `==`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String

        public init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        public var description: String { rawValue }

        /// The file does not start with the trace magic.
        public static let notATrace = Code("notATrace")
        /// The file has zero bytes.
        public static let emptyFile = Code("emptyFile")
        /// The file was written by a newer, incompatible format major version.
        public static let unsupportedVersion = Code("unsupportedVersion")
        /// A system call failed (open, read, write, fsync, ftruncate); the message carries `strerror`.
        public static let io = Code("io")
        /// The file header is cut short or fails its CRC.
        public static let corruptHeader = Code("corruptHeader")
        /// A frame fails its header or payload CRC, or its payload does not decode.
        public static let corruptFrame = Code("corruptFrame")
        /// The file ends inside a frame: a write was cut short (a torn tail).
        public static let tornTail = Code("tornTail")
        /// Frame sequence numbers or event ordinals do not follow each other.
        public static let sequenceGap = Code("sequenceGap")
        /// The footer or index frame is present but invalid or disagrees with the frames.
        public static let corruptIndex = Code("corruptIndex")
        /// An event's timestamp is earlier than the previous event's.
        public static let timestampWentBackwards = Code("timestampWentBackwards")
        /// The writer was used after `close()` or after a failed write.
        public static let writerClosed = Code("writerClosed")
        /// An argument is out of range (a frame that is not in this file, a bad option value).
        public static let invalidArgument = Code("invalidArgument")
    }

    public var code: Code
    public var message: String
    /// The trace file's path, when known.
    public var file: String?
    /// The byte offset in `file` where the problem is (the start of the bad frame, or the exact byte).
    public var offset: UInt64?
    /// The ordinal (0-based position in the trace) of the event concerned.
    public var eventOrdinal: UInt64?
    /// A 1-based line number, for errors in text inputs (JSON Lines).
    public var line: UInt64?

    public init(
        _ code: Code,
        _ message: String,
        file: String? = nil,
        offset: UInt64? = nil,
        eventOrdinal: UInt64? = nil,
        line: UInt64? = nil
    ) {
        self.code = code
        self.message = message
        self.file = file
        self.offset = offset
        self.eventOrdinal = eventOrdinal
        self.line = line
    }

    public var description: String {
        var parts: [String] = []
        if let file {
            parts.append(line.map { "\(file):\($0)" } ?? file)
        } else if let line {
            parts.append("line \(line)")
        }
        if let offset {
            parts.append("offset \(offset)")
        } else if let eventOrdinal {
            parts.append("event \(eventOrdinal)")
        }
        parts.append(message)
        return parts.joined(separator: ": ")
    }

    /// A copy with `file` set (readers and writers know the path; codecs below them do not).
    func `in`(file path: String) -> TraceError {
        var copy = self
        copy.file = path
        return copy
    }
}
