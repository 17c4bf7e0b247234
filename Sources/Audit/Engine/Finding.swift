import TraceModel

/// One rule broken (or possibly broken) at one place in one trace.
public struct Finding: Sendable, Hashable {
    /// The rule's stable snake_case id, e.g. `critical_save_placement`.
    public var ruleID: String
    public var severity: Severity
    public var verdict: Verdict
    /// The controller's display name (`ControllerRef.displayName`), or `nil` for findings about the app.
    public var controller: String?
    /// Nanoseconds on the trace's monotonic clock of the event the finding points at.
    public var timestamp: UInt64
    /// The ordinal (0-based) of the event the finding points at.
    public var ordinal: UInt64
    /// The callback executing at that event (`viewWillDisappear`, `sceneDidEnterBackground(_:)`), when known.
    public var callback: String?
    /// What went wrong, in words a developer understands without reading the rule.
    public var message: String
    /// Other events that explain the finding, in trace order.
    public var related: [RelatedEvent]
    /// The recorded source location of the event the finding points at, when it has one.
    public var source: EventSource?

    public init(
        ruleID: String,
        severity: Severity,
        verdict: Verdict = .violation,
        controller: String?,
        timestamp: UInt64,
        ordinal: UInt64,
        callback: String?,
        message: String,
        related: [RelatedEvent] = [],
        source: EventSource? = nil
    ) {
        self.ruleID = ruleID
        self.severity = severity
        self.verdict = verdict
        self.controller = controller
        self.timestamp = timestamp
        self.ordinal = ordinal
        self.callback = callback
        self.message = message
        self.related = related
        self.source = source
    }
}
