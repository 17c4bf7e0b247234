import TraceModel

/// What `ConsoleLogParser` made of a log: the events, and an account of everything it could not use.
public struct ConsoleImportResult: Sendable, Hashable {
    /// The events in log order, timestamps non-decreasing (nanoseconds on the trace's monotonic clock; see
    /// `clock` for where zero is).
    public var events: [Event]
    /// Every controller the log names, in serial order (serials start at 1).
    public var controllers: [ControllerRef]
    /// Number of lines read (including blank and skipped ones).
    public var lineCount: Int
    /// Non-blank lines with neither a lifecycle callback nor a mark, in order (see `skippedLineCount`).
    public var skippedLines: [SkippedLine]
    /// Places where the log's times went backwards, in order.
    public var timeAdjustments: [TimeAdjustment]
    /// How the log wrote times, which fixes what timestamp zero means.
    public var clock: ImportedClock
    /// Number of event-producing lines whose time is not from the line itself (synthetic, or inherited from
    /// the previous timed line).
    public var untimedLineCount: Int
    /// Number of skipped lines; `skippedLines` lists all of them or, from a `ConsoleLogSession` with a limit,
    /// the first ones.
    public var skippedLineCount: Int = 0
    /// Number of controllers the log names; `controllers` lists all of them or (with a limit) the first ones.
    public var controllerCount: Int = 0
    /// Number of time adjustments; `timeAdjustments` lists all of them or (with a limit) the first ones.
    public var timeAdjustmentCount: Int = 0
    /// Lines that start with a date or time of day whose values are impossible (`2024-13-45 10:00:00`), in
    /// order: each is read as a line without a time (see `invalidTimeCount`).
    public var invalidTimes: [InvalidTime] = []
    /// Number of lines with an invalid time; `invalidTimes` lists all of them or (with a limit) the first ones.
    public var invalidTimeCount: Int = 0
    /// The processes the log's lines name (`Notes[2231]`, from NSLog/os_log's `Notes[2231:90112]` or
    /// `log show`'s PID column), one per run in order: the first process, then each later launch that started a
    /// run (all of them or, with a limit, the first ones). Empty when no line names a process.
    public var processes: [String] = []
    /// Number of `RecorderEvent.runStarted` events in `events`: launches after the first.
    public var runStartCount: Int = 0
    /// Every process the log's lines name, with its line counts and first line, in order of first line (the
    /// first `ProcessTally.keptProcesses` = 1 000; see `untalliedProcessLineCount`). Lines of every process are
    /// counted, also those a `ConsoleLogParser.process` selection leaves out; event lines only when read.
    /// Empty when no line names a process.
    public var processLines: [ProcessLines] = []
    /// Lines of processes beyond the first 1 000, counted together.
    public var untalliedProcessLineCount: Int = 0
    /// Non-blank lines before the first line that names a process (all of them in a log without prefixes).
    public var unattributedLineCount: Int = 0
    /// Lines not read because they belong to a process that `ConsoleLogParser.process` does not select.
    public var leftOutLineCount: Int = 0
    /// Whether the lines that gave events come from more than one history: event lines of two processes
    /// alternate (two PIDs of one program running at once), or another program's lines gave events (an
    /// extension's `MyAppWidget[880:3]`). They are then read as one history, which is not what happened;
    /// `ConsoleLogParser.process` picks one. A relaunch (one process's lines, then the next one's) is not a mix.
    public var mixesProcesses: Bool = false
    /// The first lines (1-based, at most `ConsoleLogSession.Limits.skippedLines`) whose events name no controller
    /// and went to the one anonymous controller (`ConsoleLogParser.anonymousTypeName`): the log cannot tell their
    /// controllers apart. All are counted in `anonymousLineCount`.
    public var anonymousLines: [Int] = []
    public var anonymousLineCount: Int = 0
    /// viewDidLoad of one controller name at two lines with no deinit or viewDidUnload between (the first
    /// `ConsoleLogSession.Limits.skippedLines`): one instance loaded twice, or two instances the log does not tell
    /// apart (no address or label printed); or, with `previous`, a second viewDidLoad after that controller had
    /// disappeared, read as a new instance's. All are counted in `repeatedLoadCount`.
    public var repeatedLoads: [RepeatedLoad] = []
    public var repeatedLoadCount: Int = 0

    /// Whether any event's time was made up rather than read from its line; the trace header says so.
    public var hasSyntheticTimes: Bool { untimedLineCount > 0 }

    /// The wall-clock time of timestamp 0, in nanoseconds since 1970-01-01 00:00 UTC, when the log's lines
    /// carry dates; `nil` otherwise.
    public var wallClockAtZero: Int64? {
        if case .wallClock(let start, _) = clock { return start }
        return nil
    }
}

/// How a log's lines carried time, and so what a trace timestamp of zero means.
public enum ImportedClock: Sendable, Hashable {
    /// Dates (`2025-03-14 09:12:00.000114+0100`): zero is the first dated line, whose wall-clock time is
    /// `start` (nanoseconds since 1970 UTC). `hasOffset` is false when the lines had no UTC offset and local
    /// time was read as UTC.
    case wallClock(start: Int64, hasOffset: Bool)
    /// Times of day without a date (`12:40:01.102`): zero is the first timed line, printed `start`
    /// nanoseconds after midnight.
    case timeOfDay(start: Int64)
    /// Seconds printed by the app (`⏱ 3.120 | …`): the printed value is the timestamp, unchanged.
    case seconds
    /// No line had a time: every event-producing line gets the next step of a synthetic clock
    /// (`ConsoleLogParser.syntheticStep` apart, starting at zero).
    case synthetic
}

/// A line the importer could not read as a callback or a mark.
public struct SkippedLine: Sendable, Hashable {
    /// 1-based line number.
    public var line: Int
    public var text: String
}

/// A place where a log's time went backwards, and what the importer did about it.
public struct TimeAdjustment: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// A time of day went from late to early (by more than 12 hours): read as the next day.
        case midnightRollover
        /// The clock went back (a clock change, or lines written out of order): the line is placed at the
        /// previous line's time and later lines keep their spacing.
        case clockWentBack
    }

    public var kind: Kind
    /// 1-based line number of the first line after the jump.
    public var line: Int
    /// How far the printed time went back, in nanoseconds.
    public var backwardsBy: UInt64

    public var description: String {
        switch kind {
        case .midnightRollover:
            "line \(line): time of day went back past midnight; read as the next day"
        case .clockWentBack:
            "line \(line): time went back by \(TimeText.duration(backwardsBy)); placed at the previous line's time"
        }
    }
}

/// A line whose leading date or time of day has impossible values; it is read as a line without a time.
public struct InvalidTime: Sendable, Hashable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// The date or time as written (`2024-13-45 10:00:00`).
    public var text: String
    /// Which field is out of range (`month 13`, `day 30 (February 2023 has 28 days)`, `hour 25`).
    public var reason: String

    public var description: String {
        "line \(line): invalid time '\(text)' (\(reason)); the line is read without a time"
    }
}

/// A second viewDidLoad of a controller name with no deinit or viewDidUnload since its first: lines `firstLine` and
/// `line` (1-based) of the log.
public struct RepeatedLoad: Sendable, Hashable {
    /// The controller of the second viewDidLoad line.
    public var controller: ControllerRef
    /// The line of the earlier viewDidLoad (of `previous` when there is one, else of `controller`).
    public var firstLine: Int
    public var line: Int
    /// The controller of that name which had loaded its view and then disappeared before `line`: the line is a
    /// new instance's (`controller`), not `previous`'s. `nil` when both lines are read as `controller`'s.
    public var previous: ControllerRef?

    public init(controller: ControllerRef, firstLine: Int, line: Int, previous: ControllerRef? = nil) {
        self.controller = controller
        self.firstLine = firstLine
        self.line = line
        self.previous = previous
    }
}
