/// A place in a rule file: 1-based line and column (columns count characters).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `lifetrace-rules/save.rule:4:9`.
    public var description: String { "\(file):\(line):\(column)" }
}
