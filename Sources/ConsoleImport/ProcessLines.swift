/// The lines of one process in a console log: the process's name and PID (from the NSLog/os_log prefix
/// `MyApp[1234:56789]` or `log show`'s columns), how many lines it wrote, and its first line.
public struct ProcessLines: Sendable, Hashable, CustomStringConvertible {
    /// The program's name as the prefix writes it (`MyApp`, `MyAppWidget`).
    public var name: String
    /// The process ID the prefix writes (`1234` in `MyApp[1234:56789]`).
    public var pid: Int64
    /// Non-blank lines of the process: its prefixed lines and the lines without a prefix that follow them.
    public var lineCount: Int
    /// Those of its lines that gave a callback or a mark (only lines that were read: see
    /// `ConsoleLogParser.process`).
    public var eventLineCount: Int
    /// 1-based number of its first line.
    public var firstLine: Int
    /// The text of its first line, cut to `ProcessLines.keptTextLength` characters.
    public var firstText: String

    /// How much of the first line is kept.
    public static let keptTextLength = 240

    /// `MyApp[1234]`, as `RecorderEvent.runStarted` names a process.
    public var description: String { "\(name)[\(pid)]" }
}
