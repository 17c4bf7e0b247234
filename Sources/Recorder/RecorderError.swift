/// An error from the recorder: opening the trace, or the background writer failing.
public struct RecorderError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The trace file could not be created or opened for appending.
        public static let open = Code("open")
        /// The background writer failed to write, flush or sync; events after the failure are lost.
        public static let write = Code("write")
        /// The recorder was already closed.
        public static let closed = Code("closed")
    }

    public var code: Code
    public var message: String
    /// The trace file, when there is one.
    public var path: String?
    /// The underlying error, if any.
    public var cause: String?

    public init(code: Code, message: String, path: String? = nil, cause: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.cause = cause.map { "\($0)" }
    }

    public var description: String {
        var text = message
        if let path { text = "\(path): \(text)" }
        if let cause { text += ": \(cause)" }
        return text
    }
}
