/// A configuration file that cannot be used: unreadable, not JSON, an unknown key, a value of the wrong type.
/// The CLI prints `description` and exits with status 2.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, or `nil` for a configuration built in code.
    public var file: String?
    /// The dotted path of the offending key, e.g. `rules.leaked_controller.grase`; empty for the whole file.
    public var keyPath: String
    public var message: String
    /// The 1-based line and column (in Unicode scalars) of a JSON syntax error; `nil` when the problem is a key or
    /// a value, named by `keyPath`.
    public var line: Int?
    public var column: Int?

    /// The path of the key at fault in the JSON document (`["rules", "leaked_controller", "grase"]`), which the
    /// reader locates to set `line` and `column`; empty to use `keyPath`.
    var member: [String] = []

    public init(file: String?, keyPath: String, message: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.keyPath = keyPath
        self.message = message
        self.line = line
        self.column = column
    }

    init(file: String?, keyPath: String, message: String, member: [String]) {
        self.init(file: file, keyPath: keyPath, message: message)
        self.member = member
    }

    /// `.lifetrace.json:4:29: rules.leaked_controller: unknown key 'grase' (known: enabled, severity, grace)`, or
    /// for a syntax error `.lifetrace.json:3:42: not valid JSON (RFC 8259): expected a member name in quotes`
    /// (without `:LINE:COLUMN` when the place is not known).
    public var description: String {
        var text = ""
        switch (file, line, column) {
        case (let file?, let line?, let column?): text = "\(file):\(line):\(column): "
        case (let file?, _, _): text = "\(file): "
        case (nil, let line?, let column?): text = "line \(line), column \(column): "
        case (nil, _, _): break
        }
        if !keyPath.isEmpty { text += "\(keyPath): " }
        return text + message
    }
}
