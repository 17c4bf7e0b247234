/// Which process's lines a console-log import keeps (`lifetrace import --process NAME|PID`).
///
/// A line's process is the one its NSLog/os_log prefix names (`MyApp[1234:56789]`, the `Df MyApp[1234:5678]`
/// of `log stream --style compact`, `log show`'s PID and process columns). A line without a prefix belongs to the
/// process of the line before it (a message of several lines continues without a prefix); lines before the
/// first prefixed line belong to no process and are always read.
public struct ProcessSelector: Sendable, Hashable, CustomStringConvertible {
    /// The value as given: a program name (`MyApp`, `DTSidePanels Demo`) or a PID (`1234`).
    public var text: String
    /// The value as a PID, when it is all digits.
    public var pid: Int64?

    /// - Parameter text: A program name, matched exactly (case-sensitive, as the prefix writes it), or a
    ///   decimal PID. Leading and trailing spaces are ignored.
    /// - Returns: `nil` when `text` is empty or only spaces.
    public init?(_ text: String) {
        let trimmed = text.drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed()
        guard !trimmed.isEmpty else { return nil }
        self.text = String(trimmed)
        pid = self.text.allSatisfy({ $0.isASCII && $0.isNumber }) ? Int64(self.text) : nil
    }

    /// Whether a line of the process `name` with `pid` is kept: the name is the selector's text, or the PID
    /// is the selector's number (a program whose name is digits matches either way).
    public func matches(name: String, pid: Int64) -> Bool {
        name == text || self.pid == pid
    }

    func matches(_ token: ProcessToken) -> Bool { matches(name: token.name, pid: token.pid) }

    public var description: String { text }
}
