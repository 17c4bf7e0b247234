import TraceModel

/// The audit of one trace file.
public struct TraceAudit: Sendable, Hashable {
    /// The trace's path as the user gave it (or as found under `traces/`).
    public var path: String
    /// The number of events read.
    public var eventCount: UInt64
    /// The first event's timestamp (nanoseconds, trace clock); human times are measured from it.
    public var startTimestamp: UInt64
    /// Findings in event order.
    public var findings: [Finding]
    /// The JSON Lines file whose lines give findings a physical location (the audited input itself, when it is a
    /// JSON Lines export; see `location(ordinal:source:)`), or `nil`.
    public var jsonlPath: String?
    /// The 1-based line of the JSONL export that holds event ordinal 0 (2 when a header line comes first).
    public var jsonlFirstEventLine: UInt64
    /// The line of each event in `jsonlPath` when they are not all consecutive from `jsonlFirstEventLine` (a
    /// JSON Lines input with blank lines); used instead of `jsonlFirstEventLine` when set.
    public var jsonlLineMap: JSONLLineMap?
    /// The rules that had nothing to check in this trace (none of the facts they need came, e.g.
    /// `critical_save_placement: no save marks`), in registry order.
    public var idleRules: [IdleRule] = []
    /// The repository root and working directory that locations are named by (`RepositoryPaths`: relative to
    /// the root, as GitHub code scanning expects, absolute outside it); `nil` keeps paths as they are.
    public var paths: RepositoryPaths?
    /// What the input's header says about it (trace id, producer); `path` alone when it has none.
    public var identity: TraceIdentity
    /// Wall-clock seconds the audit of this trace took (reading, replaying and all rules in one pass), when
    /// measured: JUnit's `time`.
    public var seconds: Double?

    public init(path: String, eventCount: UInt64, startTimestamp: UInt64 = 0, findings: [Finding], jsonlPath: String? = nil, jsonlFirstEventLine: UInt64 = 1) {
        self.path = path
        self.eventCount = eventCount
        self.startTimestamp = startTimestamp
        self.findings = findings
        self.jsonlPath = jsonlPath
        self.jsonlFirstEventLine = jsonlFirstEventLine
        self.identity = TraceIdentity(path: path)
    }
}

extension TraceAudit {
    /// Where a finding (or a related event) points, for SARIF, GitHub annotations and the text report.
    public struct Location: Sendable, Hashable {
        /// A file path (relative to the report's base directory when it lies under it).
        public var file: String
        /// 1-based line, or `nil` when only the file is known.
        public var line: UInt64?
    }

    /// The location of event `ordinal`: its recorded source (`file` and `line`: the instrumented call, or the console
    /// log line it was imported from) when it has one; else its line in the JSON Lines input (`jsonlLineMap`, or
    /// `ordinal + jsonlFirstEventLine`); else the trace file itself without a line. Named as `paths` says.
    public func location(ordinal: UInt64, source: EventSource?) -> Location {
        if let file = source?.file, let line = source?.line, !file.isEmpty, line > 0 {
            return Location(file: paths?.recorded(file) ?? file, line: UInt64(line))
        }
        if let jsonlPath {
            return Location(file: inputPath(jsonlPath), line: jsonlLineMap?.line(of: ordinal) ?? ordinal + jsonlFirstEventLine)
        }
        return Location(file: inputPath(path), line: nil)
    }

    /// An input's path (this trace's, or its JSON Lines file's) as locations name it.
    public func inputPath(_ file: String) -> String {
        paths?.input(file) ?? file
    }

    /// `timestamp` as seconds since the trace's first event: `5.904 s`.
    public func time(_ timestamp: UInt64) -> String {
        TimeText.seconds(timestamp >= startTimestamp ? timestamp - startTimestamp : 0)
    }
}
