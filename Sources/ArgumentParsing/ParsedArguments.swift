/// The result of parsing a command's arguments.
public struct ParsedArguments: Sendable, Equatable {
    public var positionals: [String] = []
    /// Values by option name, in the order given.
    public var values: [String: [String]] = [:]
    /// Flags that were given.
    public var flags: Set<String> = []

    public init() {}

    /// The (last) value of option `name`, or `nil` when it was not given.
    public func value(_ name: String) -> String? {
        values[name]?.last
    }

    /// Every value of a repeatable option `name`, in order.
    public func allValues(_ name: String) -> [String] {
        values[name] ?? []
    }

    /// Whether flag `name` was given.
    public func flag(_ name: String) -> Bool {
        flags.contains(name)
    }

    /// The value of `name` restricted to `choices`, or `defaultValue` when absent.
    ///
    /// - Throws: `ValidationError` when the value is not one of `choices`.
    public func choice(_ name: String, among choices: [String], default defaultValue: String) throws -> String {
        guard let value = value(name) else { return defaultValue }
        guard choices.contains(value) else {
            throw ValidationError("--\(name) must be one of \(choices.joined(separator: ", ")); got '\(value)'\(Spelling.suggestion(for: value, among: choices))")
        }
        return value
    }
}
