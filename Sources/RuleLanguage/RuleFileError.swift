/// A rule file that cannot be used: where (FILE:LINE:COLUMN) and what was expected or is wrong.
///
/// `description` reads like a compiler's: `lifetrace-rules/save.rule:4:9: unknown callback
/// 'viewDidDisapear' (did you mean 'viewDidDisappear'?)`.
public struct RuleFileError: Error, Sendable, Hashable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

    public init(_ location: SourceLocation, _ message: String) {
        self.location = location
        self.message = message
    }

    public var description: String { "\(location): \(message)" }
}
