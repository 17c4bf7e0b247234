/// A JSON Lines file (or line) that cannot be read as events, or an event stream that cannot be written as
/// one.
///
/// `description` reads `FILE:LINE: message`, e.g.
/// `session.jsonl:14: time goes backwards: t_ns 1200 after 1500`.
public struct JSONLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as a closed-but-extensible set of codes.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The line is not valid JSON, or not valid UTF-8.
        public static let notJSON = Code("notJSON")
        /// The line is JSON but not an object.
        public static let notAnObject = Code("notAnObject")
        /// The `event` (or `kind`) is not one this version knows.
        public static let unknownEvent = Code("unknownEvent")
        /// A required member is absent.
        public static let missingField = Code("missingField")
        /// A member has the wrong type or an out-of-range value.
        public static let badField = Code("badField")
        /// The event's `t_ns` is earlier than the previous event's.
        public static let timeWentBackwards = Code("timeWentBackwards")
        /// A header object (`{"lifetrace": …}`) anywhere but the first line.
        public static let misplacedHeader = Code("misplacedHeader")
        /// A header whose members have the wrong types or values.
        public static let badHeader = Code("badHeader")
        /// The header names a newer schema version than this reader knows.
        public static let unsupportedVersion = Code("unsupportedVersion")
        /// The file cannot be opened or read.
        public static let unreadable = Code("unreadable")
    }

    public var code: Code
    public var message: String
    /// The file's path as given to the reader (empty when reading bytes without a name).
    public var file: String
    /// The 1-based line number (0 when the error is not about a line, e.g. the file cannot be opened).
    public var line: Int

    public init(_ code: Code, _ message: String, file: String, line: Int) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    public var description: String {
        let place = file.isEmpty ? "line \(line)" : line > 0 ? "\(file):\(line)" : file
        return "\(place): \(message)"
    }
}
