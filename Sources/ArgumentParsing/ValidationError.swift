/// A command line that cannot be carried out as written: an unknown option, a missing value, a bad number.
/// The CLI prints `message` with the command's usage line and exits with status 2.
public struct ValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    /// For an unknown option, its long name as typed without dashes or value (`strict` for `--strict=x`), so the
    /// caller can say which other commands take it; `nil` otherwise.
    public var unknownOption: String?

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
