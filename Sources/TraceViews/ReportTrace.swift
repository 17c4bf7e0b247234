import TraceLog
import TraceModel

/// What the HTML report holds of one trace (built by `ReportTraceBuilder`). Times are nanoseconds after the
/// trace's first event (`start`, ns on the trace clock).
public struct ReportTrace: Sendable {
    public struct AppearanceSpan: Sendable {
        public var state: String
        public var start: UInt64
        public var end: UInt64
        public var isCancelled: Bool
    }

    public struct CallbackSpan: Sendable {
        /// Index into `callbackNames`.
        public var name: Int
        public var start: UInt64
        public var end: UInt64
        /// How many callbacks of the same controller were executing around it.
        public var depth: Int
        public var beginOrdinal: UInt64
        /// `nil` when the callback never ended in the trace.
        public var endOrdinal: UInt64?
    }

    /// A mark or a container operation.
    public struct Tick: Sendable {
        public var time: UInt64
        public var label: String
        public var ordinal: UInt64
    }

    public struct Lane: Sendable {
        public var ref: ControllerRef
        /// `TreeOrder.key`: the lanes are sorted by it.
        public var order: [UInt32]
        public var spans: [AppearanceSpan] = []
        public var callbacks: [CallbackSpan] = []
        public var marks: [Tick] = []
        public var operations: [Tick] = []
        /// When the controller was deinitialized or ended with its process, if it did.
        public var end: UInt64?
    }

    public struct AppSpan: Sendable {
        public var start: UInt64
        public var end: UInt64
        public var name: String
    }

    public struct Related: Sendable {
        public var ordinal: UInt64
        public var time: UInt64
        public var message: String
    }

    public struct FindingEntry: Sendable {
        public var rule: String
        public var severity: String
        public var verdict: String
        public var message: String
        public var fix: String
        public var controller: String?
        public var callback: String?
        public var time: UInt64
        public var ordinal: UInt64
        public var related: [Related]
    }

    /// The state after every event at `time`: `lifetrace state --at` prints `state at T ` + `summary`, then `tree`.
    public struct StateAt: Sendable {
        public var time: UInt64
        public var summary: String
        public var tree: String
    }

    public var path: String
    public var producer: String
    public var eventCount: UInt64
    /// The first event's timestamp (ns on the trace clock).
    public var start: UInt64
    /// The last event's time after `start`.
    public var end: UInt64
    public var wallClockAnchor: WallClockAnchor?
    public var clockDomain: String
    public var lanes: [Lane]
    public var appSpans: [AppSpan]
    public var findings: [FindingEntry]
    /// In time order.
    public var states: [StateAt]
    /// Whether `states` keeps only some of the trace's instants (`ReportTraceBuilder`).
    public var isStateSampled: Bool
    public var callbackNames: [String]
    /// Callbacks left out of the lanes (`ReportTraceBuilder.itemLimit`).
    public var droppedItems: Int

    /// The trace as one JSON object (the report page's data; docs/VIEWS.md, "The HTML report").
    public var json: String {
        var out = JSONObjectText()
        out.string("path", path)
        out.string("producer", producer)
        out.int("events", eventCount)
        out.string("start_ns", String(start))
        out.int("end", end)
        out.string("clock", clockDomain)
        if let anchor = wallClockAnchor, anchor != .none {
            // The wall-clock time of the first event, in Unix milliseconds (what a page's Date takes).
            out.int("wall_start_ms", anchor.unixNanoseconds(at: start) / 1_000_000)
        }
        out.raw("names", "[" + callbackNames.map { JSONString.quoted($0) }.joined(separator: ",") + "]")
        var lanesText = "["
        for (index, lane) in lanes.enumerated() {
            if index > 0 { lanesText += "," }
            var l = JSONObjectText()
            l.string("name", lane.ref.displayName)
            l.int("serial", lane.ref.serial)
            l.int("depth", max(0, lane.order.count - 2))
            if let end = lane.end { l.int("end", end) }
            l.raw("spans", "[" + lane.spans.map { "[\($0.start),\($0.end),\(JSONString.quoted($0.state)),\($0.isCancelled ? 1 : 0)]" }.joined(separator: ",") + "]")
            l.raw("callbacks", "[" + lane.callbacks.map { "[\($0.start),\($0.end),\($0.depth),\($0.name),\($0.beginOrdinal),\($0.endOrdinal.map(String.init) ?? "null")]" }.joined(separator: ",") + "]")
            l.raw("marks", Self.ticks(lane.marks))
            l.raw("ops", Self.ticks(lane.operations))
            lanesText += l.closed
        }
        out.raw("lanes", lanesText + "]")
        out.raw("app", "[" + appSpans.map { "[\($0.start),\($0.end),\(JSONString.quoted($0.name))]" }.joined(separator: ",") + "]")
        var findingsText = "["
        for (index, finding) in findings.enumerated() {
            if index > 0 { findingsText += "," }
            var f = JSONObjectText()
            f.string("rule", finding.rule)
            f.string("severity", finding.severity)
            f.string("verdict", finding.verdict)
            f.string("message", finding.message)
            f.string("fix", finding.fix)
            if let controller = finding.controller { f.string("controller", controller) }
            if let callback = finding.callback { f.string("callback", callback) }
            f.int("t", finding.time)
            f.int("ordinal", finding.ordinal)
            f.raw("related", "[" + finding.related.map { "[\($0.ordinal),\($0.time),\(JSONString.quoted($0.message))]" }.joined(separator: ",") + "]")
            findingsText += f.closed
        }
        out.raw("findings", findingsText + "]")
        out.raw("states", "[" + states.map { "[\($0.time),\(JSONString.quoted($0.summary)),\(JSONString.quoted($0.tree))]" }.joined(separator: ",") + "]")
        out.bool("sampled", isStateSampled)
        out.int("dropped", droppedItems)
        return out.closed
    }

    private static func ticks(_ ticks: [Tick]) -> String {
        "[" + ticks.map { "[\($0.time),\(JSONString.quoted($0.label)),\($0.ordinal)]" }.joined(separator: ",") + "]"
    }
}
