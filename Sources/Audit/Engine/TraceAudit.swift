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
    /// The JSONL export written beside the trace, whose lines give findings a physical location (see
    /// `location(ordinal:source:)`), or `nil` when none was written.
    public var jsonlPath: String?
    /// The 1-based line of the JSONL export that holds event ordinal 0 (2 when a header line comes first).
    public var jsonlFirstEventLine: UInt64
    /// The line of each event in `jsonlPath` when they are not all consecutive from `jsonlFirstEventLine` (a
    /// JSON Lines input with blank lines); used instead of `jsonlFirstEventLine` when set.
    public var jsonlLineMap: JSONLLineMap?
    /// A directory (normally the working directory, the repository root in CI) that absolute file paths in
    /// locations are made relative to, as GitHub code scanning expects; `nil` keeps paths as they are.
    public var baseDirectory: String?
    /// What the input's header says about it (trace id, producer); `path` alone when it has none.
    public var identity: TraceIdentity

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
    /// log line it was imported from) when it has one; else its line in the JSONL file (`jsonlLineMap`, or
    /// `ordinal + jsonlFirstEventLine`); else the trace file itself without a line. Paths under `baseDirectory` are made relative to it.
    public func location(ordinal: UInt64, source: EventSource?) -> Location {
        if let file = source?.file, let line = source?.line, !file.isEmpty, line > 0 {
            return Location(file: relative(file), line: UInt64(line))
        }
        if let jsonlPath {
            return Location(file: relative(jsonlPath), line: jsonlLineMap?.line(of: ordinal) ?? ordinal + jsonlFirstEventLine)
        }
        return Location(file: relative(path), line: nil)
    }

    /// `file` relative to `baseDirectory` when it lies under it.
    func relative(_ file: String) -> String {
        guard let baseDirectory, !baseDirectory.isEmpty else { return file }
        let prefix = baseDirectory.hasSuffix("/") ? baseDirectory : baseDirectory + "/"
        return file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : file
    }

    /// `timestamp` as seconds since the trace's first event: `5.904 s`.
    public func time(_ timestamp: UInt64) -> String {
        TimeText.seconds(timestamp >= startTimestamp ? timestamp - startTimestamp : 0)
    }
}
