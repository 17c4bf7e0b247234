/// A problem with an audited input itself, not a finding about its events: a trace that could not be read
/// at all or only in part (`error`: an unreadable file, a frame or JSON line that does not decode), or that was
/// damaged and read up to its damage (`warning`: a torn tail, a frame failing its CRC).
///
/// Reporters carry these so that a machine reader does not mistake a partial audit for a clean one: SARIF as
/// `invocations[0].toolExecutionNotifications` with `executionSuccessful: false` for an error (SARIF 2.1.0
/// §3.20.14, §3.20.21), JUnit as an `<error>` test case, JSON as `input_problems`, GitHub as `::error`/`::warning`
/// annotations.
public struct InputProblem: Sendable, Hashable {
    /// The input's path, as given on the command line (or found under a directory).
    public var path: String
    /// `.error` when events could not be read (the audit covers at most a prefix), `.warning` when a damaged
    /// trace was read up to its last valid frame.
    public var severity: Severity
    /// What went wrong, naming the file and the offset, frame or line, and the first unreadable event.
    public var message: String
    /// The 1-based line where a JSON Lines input stops being readable, when known.
    public var line: UInt64?
    /// The byte offset of the damage or unreadable frame in a `.lifetrace` file, when known.
    public var byteOffset: UInt64?

    public init(path: String, severity: Severity, message: String, line: UInt64? = nil, byteOffset: UInt64? = nil) {
        self.path = path
        self.severity = severity
        self.message = message
        self.line = line
        self.byteOffset = byteOffset
    }
}
