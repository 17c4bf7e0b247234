import Replay
import TraceLog
import TraceModel

/// One audit of one trace: feed it every event in order, then `finish()`.
///
/// Streaming: memory is bounded by what the monitors keep per live controller, not by the number of events.
/// Not `Sendable`: use one session on one thread.
public final class AuditSession {
    private let callbackMonitors: [any RuleMonitor]
    private let callbackFilters: [CallbackSet]
    /// Every callback some callback monitor looks at (the union of `callbackFilters`).
    private let wantedCallbacks: CallbackSet
    private let containerMonitors: [any RuleMonitor]
    private let appMonitors: [any RuleMonitor]
    private let markMonitors: [any RuleMonitor]
    private let swiftUIMonitors: [any RuleMonitor]
    private let recorderMonitors: [any RuleMonitor]
    private let monitors: [any RuleMonitor]
    /// The replayed state (the `Replay` fold) after the last event observed.
    let replay = ReplayBox()
    private var findings: [Finding] = []
    private var eventCount: UInt64 = 0
    private var firstTimestamp: UInt64 = 0
    private var lastTimestamp: UInt64 = 0

    init(monitors: [any RuleMonitor]) {
        self.monitors = monitors
        callbackMonitors = monitors.filter { $0.interests.contains(.callbacks) }
        callbackFilters = callbackMonitors.map(\.callbackFilter)
        wantedCallbacks = callbackFilters.reduce(CallbackSet()) { $0.union($1) }
        containerMonitors = monitors.filter { $0.interests.contains(.containers) }
        appMonitors = monitors.filter { $0.interests.contains(.app) }
        markMonitors = monitors.filter { $0.interests.contains(.marks) }
        swiftUIMonitors = monitors.filter { $0.interests.contains(.swiftUI) }
        recorderMonitors = monitors.filter { $0.interests.contains(.recorder) }
    }

    /// Feeds the event with ordinal `ordinal` (0-based, consecutive) to every interested monitor.
    public func observe(_ event: Event, ordinal: UInt64) {
        if eventCount == 0 { firstTimestamp = event.timestamp }
        let previousTimestamp = eventCount == 0 ? nil : lastTimestamp
        eventCount += 1
        lastTimestamp = event.timestamp
        replay.state.apply(event, ordinal: ordinal)
        let interested: [any RuleMonitor]
        switch event.payload {
        case .callback(let callback):
            let context = EventContext(ordinal: ordinal, traceStart: firstTimestamp, previousTimestamp: previousTimestamp, replay: replay)
            var found = takeFindings()
            for index in callbackMonitors.indices where callbackFilters[index].contains(callback.callback) {
                callbackMonitors[index].observe(event, context, &found)
            }
            swap(&found, &findings)
            return
        case .container: interested = containerMonitors
        case .app: interested = appMonitors
        case .mark: interested = markMonitors
        case .swiftUI: interested = swiftUIMonitors
        case .recorder: interested = recorderMonitors
        case .unknown: return
        }
        if interested.isEmpty { return }
        let context = EventContext(ordinal: ordinal, traceStart: firstTimestamp, previousTimestamp: previousTimestamp, replay: replay)
        var found = takeFindings()
        for monitor in interested {
            monitor.observe(event, context, &found)
        }
        swap(&found, &findings)
    }

    /// Feeds one event decoded by a `FrameCursor` (the record `cursor.next()` just returned): the same as
    /// `observe(_:ordinal:)` with the record's ordinal, but a callback is folded from the record and becomes an
    /// `Event` only when a monitor looks at that callback.
    public func observe(_ record: EventRecord, from cursor: FrameCursor) {
        guard record.kind == .callback else {
            observe(cursor.event(of: record), ordinal: record.ordinal)
            return
        }
        if eventCount == 0 { firstTimestamp = record.timestamp }
        let previousTimestamp = eventCount == 0 ? nil : lastTimestamp
        eventCount += 1
        lastTimestamp = record.timestamp
        replay.state.apply(record, from: cursor)
        guard wantedCallbacks.contains(record.callback) else { return }
        let event = cursor.event(of: record)
        let context = EventContext(ordinal: record.ordinal, traceStart: firstTimestamp, previousTimestamp: previousTimestamp, replay: replay)
        var found = takeFindings()
        for index in callbackMonitors.indices where callbackFilters[index].contains(record.callback) {
            callbackMonitors[index].observe(event, context, &found)
        }
        swap(&found, &findings)
    }

    /// Moves `findings` out (leaving it empty) so monitors append to a local array: one exclusivity check per
    /// event instead of one per monitor call on the class property. Put it back with `swap(&found, &findings)`.
    @inline(__always)
    private func takeFindings() -> [Finding] {
        var found: [Finding] = []
        swap(&found, &findings)
        return found
    }

    /// The replayed state after the last event observed.
    public var state: ReplayState { replay.state }

    /// Ends the trace: lets monitors report what is still pending and returns every finding, in event order
    /// (then by rule id, controller and message).
    public func finish() -> [Finding] {
        let end = TraceEnd(eventCount: eventCount, firstTimestamp: firstTimestamp, lastTimestamp: lastTimestamp)
        for monitor in monitors {
            monitor.finish(end, &findings)
        }
        // A total order, so the same trace always gives the same report (monitors may emit ties from dictionaries).
        return findings.sorted {
            ($0.ordinal, $0.ruleID, $0.controller ?? "", $0.message) < ($1.ordinal, $1.ruleID, $1.controller ?? "", $1.message)
        }
    }
}

/// Holds the session's `ReplayState` so contexts can reach it without copying it per event.
final class ReplayBox {
    var state = ReplayState()
}
