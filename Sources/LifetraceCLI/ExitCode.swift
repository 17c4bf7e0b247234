/// The process exit status of a `lifetrace` command.
///
/// | code | meaning |
/// |---|---|
/// | 0 | success; no error-level finding |
/// | 1 | a problem was found (error-level findings, a failed verification) |
/// | 2 | usage error, bad configuration, or unreadable input |
public struct ExitCode: Sendable, Equatable, CustomStringConvertible {
    public var rawValue: Int32

    public init(_ rawValue: Int32) {
        self.rawValue = rawValue
    }

    public static let success = ExitCode(0)
    public static let problemFound = ExitCode(1)
    public static let usageOrInput = ExitCode(2)

    public var description: String { String(rawValue) }
}
