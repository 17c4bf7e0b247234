/// An error from importing a console log: a bad `--mark` rule, or (with `strict`) a line that could not be read
/// or whose time is invalid.
public struct ConsoleImportError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, RawRepresentable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A `--mark` rule that is not `SUBSTRING=MARK[,field=value…]`.
        public static let badMarkRule = Code(rawValue: "badMarkRule")
        /// In strict mode, a line with no lifecycle callback and no mark.
        public static let unreadableLine = Code(rawValue: "unreadableLine")
        /// In strict mode, a line starting with a date or time of day whose values are impossible
        /// (`2024-13-45 10:00:00`); without `strict` it is a warning (`ConsoleImportResult.invalidTimes`).
        public static let invalidTime = Code(rawValue: "invalidTime")
    }

    public var code: Code
    public var message: String
    /// The file the line came from, when known.
    public var file: String?
    /// 1-based line number, for `unreadableLine` and `invalidTime`.
    public var line: Int?

    public init(_ code: Code, _ message: String, file: String? = nil, line: Int? = nil) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    public var description: String {
        switch (file, line) {
        case let (file?, line?): "\(file):\(line): \(message)"
        case let (nil, line?): "line \(line): \(message)"
        default: message
        }
    }
}
