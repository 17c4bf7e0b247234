/// One option a command accepts: a flag (`--strict`) or an option with a value (`--format json`,
/// `--format=json`).
public struct OptionSpec: Sendable, Equatable {
    /// The long name without dashes, e.g. `format`.
    public var name: String
    /// A one-letter short name without the dash, e.g. `o` for `-o`.
    public var short: Character?
    /// The value's placeholder in help (`FORMAT`), or `nil` for a flag.
    public var valueName: String?
    /// Whether the option may be given more than once (values accumulate).
    public var isRepeatable: Bool
    /// One line of help.
    public var help: String
    /// The values it takes, when they are a fixed set (`auto`, `always`, `never`), for shell completion; `nil`
    /// when the set is the one the command's usage line lists (`--format text|json`) or the value is free.
    public var choices: [String]?

    public init(
        _ name: String, short: Character? = nil, value valueName: String? = nil, repeatable: Bool = false, help: String,
        choices: [String]? = nil
    ) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.isRepeatable = repeatable
        self.help = help
        self.choices = choices
    }

    /// Whether this option is a flag (takes no value).
    public var isFlag: Bool { valueName == nil }


    /// `--format FORMAT` or `-o, --output FILE`, as shown in help.
    public var synopsis: String {
        var text = short.map { "-\($0), " } ?? ""
        text += "--\(name)"
        if let valueName { text += " \(valueName)" }
        return text
    }
}
