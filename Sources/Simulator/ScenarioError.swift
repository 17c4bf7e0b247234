/// A scenario that cannot be read or cannot happen: a line the parser does not understand, or a step that
/// UIKit would not allow (popping the root, pushing onto a tab bar controller, …).
///
/// `description` reads `FILE:LINE:COLUMN: error: MESSAGE` (or `FILE:LINE: error: MESSAGE` when the column is not
/// known, as for a step UIKit would not allow), the way compilers name a position.
public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: Sendable, Hashable {
        /// The text does not follow the scenario language.
        case syntax
        /// The text is well formed but the step cannot happen in the current state.
        case illegalStep
    }

    public var code: Code
    public var message: String
    /// The scenario file, when known.
    public var file: String?
    /// 1-based line, when known (0 = unknown).
    public var line: Int
    /// 1-based column (in characters) of what the error is about, when known (0 = unknown).
    public var column: Int = 0
    /// The text the error is about (a word of the line), from which the parser finds `column`.
    var near: String?
    /// Characters into `near` where the problem starts (a field's value after `name=`).
    var nearOffset = 0

    public init(_ code: Code, _ message: String, file: String? = nil, line: Int = 0) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    /// A syntax error about `near`, a word of the line (the column is found when the line is known).
    init(_ code: Code, _ message: String, near: String?, offset: Int = 0, line: Int = 0) {
        self.init(code, message, line: line)
        self.near = near
        self.nearOffset = offset
    }

    public var description: String {
        var position = file ?? "scenario"
        if line > 0 { position += ":\(line)" }
        if line > 0, column > 0 { position += ":\(column)" }
        return "\(position): error: \(message)"
    }
}
