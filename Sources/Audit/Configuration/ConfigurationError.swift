/// A configuration file that cannot be used: unreadable, not JSON, an unknown key, a value of the wrong type.
/// The CLI prints `description` and exits with status 2.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, or `nil` for a configuration built in code.
    public var file: String?
    /// The dotted path of the offending key, e.g. `rules.leaked_controller.grase`; empty for the whole file.
    public var keyPath: String
    public var message: String

    public init(file: String?, keyPath: String, message: String) {
        self.file = file
        self.keyPath = keyPath
        self.message = message
    }

    /// `.lifetrace.json: rules.leaked_controller: unknown key 'grase' (known: enabled, severity, grace)`.
    public var description: String {
        var text = file.map { "\($0): " } ?? ""
        if !keyPath.isEmpty { text += "\(keyPath): " }
        return text + message
    }
}
