/// A scenario that cannot be read or cannot happen: a line the parser does not understand, or a step that
/// UIKit would not allow (popping the root, pushing onto a tab bar controller, …).
///
/// `description` reads `FILE:LINE: error: MESSAGE`, the way compilers name a position.
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

    public init(_ code: Code, _ message: String, file: String? = nil, line: Int = 0) {
        self.code = code
        self.message = message
        self.file = file
        self.line = line
    }

    public var description: String {
        var position = file ?? "scenario"
        if line > 0 { position += ":\(line)" }
        return "\(position): error: \(message)"
    }
}
