import Replay
import TraceLog
import TraceModel

/// One audit of one trace: feed it every event in order, then `finish()`.
///
/// Callback events (most of a trace) are dispatched through a table: for each (callback, phase) the monitors whose
/// `RuleMonitor.callbackFilter` holds it, plus the monitors whose `callbackDemand` asks for it now; a callback no
/// monitor watches costs the replay's fold and a table lookup. Monitors get callbacks as `EventRecord`s
/// (`RuleMonitor.observe(callback:_:_:)`), whether the session is fed records (`observe(_:from:)`) or `Event`s
/// (`observe(_:ordinal:)`, which turns a callback event into the same record), so both paths find the same.
///
/// Streaming: memory is bounded by what the monitors keep per live controller, not by the number of events.
/// Not `Sendable`: use one session on one thread.
public final class AuditSession {
    /// The callback dispatch table: the monitors for key `k` (`callbackKey(_:_:)`) are
    /// `callbackTargets[callbackStart[k]..<callbackStart[k + 1]]`, in registry order.
    private let callbackStart: [Int]
    private let callbackTargets: [MonitorRef]
    /// The callback monitors with a `callbackDemand`: called for the callbacks its `extra` holds and the filter
    /// does not.
    private let demandTargets: [DemandRef]
    private let containerMonitors: [any RuleMonitor]
    private let appMonitors: [any RuleMonitor]
    /// The mark monitors by the interned code of the mark's name (`KnownName` raw value; `markFilter`), and
    /// those that may want a name that has no code (`KnownName.other`), with their filters.
    private let markTargets: [[any RuleMonitor]]
    private let customMarkTargets: [(monitor: any RuleMonitor, filter: MarkFilter)]
    private let swiftUIMonitors: [any RuleMonitor]
    private let recorderMonitors: [any RuleMonitor]
    private let monitors: [any RuleMonitor]
    /// The replayed state (the `Replay` fold) after the last event observed, and the event being observed.
    let replay = ReplayBox()
    @exclusivity(unchecked) private var findings: [Finding] = []
    @exclusivity(unchecked) private var eventCount: UInt64 = 0
    @exclusivity(unchecked) private var firstTimestamp: UInt64 = 0
    @exclusivity(unchecked) private var lastTimestamp: UInt64 = 0

    init(monitors: [any RuleMonitor]) {
        self.monitors = monitors
        let callbackMonitors = monitors.filter { $0.interests.contains(.callbacks) }
        var start: [Int] = []
        var targets: [MonitorRef] = []
        for key in 0..<Self.callbackKeys {
            start.append(targets.count)
            guard let callback = Callback(rawValue: UInt8(key & 0xF)), let phase = Phase(rawValue: UInt8(key >> 4)) else { continue }
            targets += callbackMonitors.filter { $0.callbackFilter.contains(callback, phase) }.map(MonitorRef.init)
        }
        start.append(targets.count)
        callbackStart = start
        callbackTargets = targets
        demandTargets = callbackMonitors.compactMap { monitor in monitor.callbackDemand.map { DemandRef(monitor: monitor, filter: monitor.callbackFilter, demand: $0) } }
        containerMonitors = monitors.filter { $0.interests.contains(.containers) }
        appMonitors = monitors.filter { $0.interests.contains(.app) }
        let markMonitors = monitors.filter { $0.interests.contains(.marks) }
        let filters = markMonitors.map(\.markFilter)
        markTargets = (0...255).map { raw in
            guard let code = KnownName(rawValue: UInt8(raw)), code != .other else { return [] }
            return markMonitors.indices.filter { filters[$0].contains(known: code) }.map { markMonitors[$0] }
        }
        customMarkTargets = markMonitors.indices.filter { filters[$0].holdsCustomNames }.map { (markMonitors[$0], filters[$0]) }
        swiftUIMonitors = monitors.filter { $0.interests.contains(.swiftUI) }
        recorderMonitors = monitors.filter { $0.interests.contains(.recorder) }
    }

    /// Keys of the dispatch table: 16 callback values × 3 phases.
    private static let callbackKeys = 48

    @inline(__always)
    private static func callbackKey(_ callback: Callback, _ phase: Phase) -> Int {
        Int(phase.rawValue) &<< 4 | Int(callback.rawValue & 0xF)
    }

    /// Feeds the event with ordinal `ordinal` (0-based, consecutive) to every interested monitor.
    public func observe(_ event: Event, ordinal: UInt64) {
        let previousTimestamp = advance(to: event.timestamp)
        replay.state.apply(event, ordinal: ordinal)
        let interested: [any RuleMonitor]
        switch event.payload {
        case .callback(let callback):
            let record = Self.record(of: callback, at: event.timestamp, ordinal: ordinal)
            guard isWatched(record) else { return }
            replay.currentCallback = callback
            replay.currentSource = event.source
            replay.isEvent = true
            dispatch(record, previousTimestamp)
            replay.isEvent = false
            replay.currentCallback = nil
            replay.currentSource = nil
            return
        case .container: interested = containerMonitors
        case .app: interested = appMonitors
        case .mark(let mark): interested = markTargets(KnownName(mark.name), mark.name)
        case .swiftUI: interested = swiftUIMonitors
        case .recorder: interested = recorderMonitors
        case .unknown: return
        }
        if interested.isEmpty { return }
        deliver(event, ordinal: ordinal, previousTimestamp, to: interested)
    }

    /// Calls `monitors` with a non-callback event.
    private func deliver(_ event: Event, ordinal: UInt64, _ previousTimestamp: UInt64?, to monitors: [any RuleMonitor]) {
        let context = EventContext(ordinal: ordinal, traceStart: firstTimestamp, previousTimestamp: previousTimestamp, replay: replay)
        var found = takeFindings()
        for monitor in monitors {
            monitor.observe(event, context, &found)
        }
        swap(&found, &findings)
    }

    /// The mark monitors whose `markFilter` holds a mark named `name` (interned as `code`).
    @inline(__always)
    private func markTargets(_ code: KnownName, _ name: @autoclosure () -> String) -> [any RuleMonitor] {
        if code != .other { return markTargets[Int(code.rawValue)] }
        if customMarkTargets.isEmpty { return [] }
        let name = name()
        return customMarkTargets.filter { $0.filter.contains(name) }.map(\.monitor)
    }

    /// Feeds one event decoded by a `FrameCursor` (the record `cursor.next()` just returned): the same as
    /// `observe(_:ordinal:)` with the record's ordinal, but a callback is folded from the record and handed to the
    /// monitors as the record; no `Event` is built for it.
    public func observe(_ record: EventRecord, from cursor: FrameCursor) {
        guard record.kind == .callback else {
            observeOther(record, from: cursor)
            return
        }
        let previousTimestamp = advance(to: record.timestamp)
        replay.state.apply(record, from: cursor)
        guard isWatched(record) else { return }
        withUnsafePointer(to: cursor) { cursor in
            replay.cursor = cursor
            dispatch(record, previousTimestamp)
            replay.cursor = nil
        }
    }

    /// Feeds every event `cursor`'s frame has left, decoded a run at a time into `batch`
    /// (`FrameCursor.decode(into:limit:)`, the replay's columnar fast path; reuse one batch from frame to frame):
    /// the same as `observe(_:from:)` for each record, and `observe(_:ordinal:)` for an event that has no record.
    ///
    /// - Returns: The number of events observed.
    /// - Throws: What decoding the frame throws (`TraceError`); the events before the bad one are observed.
    @discardableResult
    public func observeRest(of cursor: inout FrameCursor, batch: inout RecordBatch) throws -> UInt64 {
        var observed: UInt64 = 0
        while true {
            cursor.decode(into: &batch, limit: 1024)
            let first = batch.firstOrdinal
            let count = batch.count
            for index in 0..<count {
                let entry = batch[index]
                let ordinal = first &+ UInt64(index)
                if !entry.isRecord {
                    var record = EventRecord(
                        timestamp: entry.timestamp, ordinal: ordinal, callback: entry.callback, phase: entry.phase,
                        animated: entry.animated, controller: entry.serial, controllerSlot: entry.slot)
                    record.parent = entry.parent
                    record.parentSerial = entry.parentSerial
                    record.parentSlot = entry.parentSlot
                    observe(record, from: cursor)
                } else if batch.records[Int(entry.record)].kind != .other {
                    observe(batch.records[Int(entry.record)], from: cursor)
                } else if let event = batch.events[Int(entry.record)] {
                    observe(event, ordinal: ordinal)
                }
            }
            observed &+= UInt64(count)
            if let error = batch.error { throw error }
            if batch.isFinished { return observed }
        }
    }

    /// A record of a kind other than `.callback`: a container, app, SwiftUI or mark record is folded from the
    /// record and becomes an `Event` only when a monitor looks at it; a record of kind `.other` is the cursor's
    /// `Event`.
    private func observeOther(_ record: EventRecord, from cursor: FrameCursor) {
        let interested: [any RuleMonitor]
        switch record.kind {
        case .container: interested = containerMonitors
        case .app: interested = appMonitors
        case .swiftUI: interested = swiftUIMonitors
        case .mark:
            interested = markTargets(KnownName(rawValue: record.code) ?? .other, cursor.string(atSlot: record.stringSlot))
        case .callback, .other:
            observe(cursor.event(of: record), ordinal: record.ordinal)
            return
        }
        let previousTimestamp = advance(to: record.timestamp)
        replay.state.apply(record, from: cursor)
        if interested.isEmpty { return }
        deliver(cursor.event(of: record), ordinal: record.ordinal, previousTimestamp, to: interested)
    }

    /// Counts the event and moves the clock; returns the previous event's timestamp (`nil` for the first).
    @inline(__always)
    private func advance(to timestamp: UInt64) -> UInt64? {
        let previous = eventCount == 0 ? nil : lastTimestamp
        if eventCount == 0 { firstTimestamp = timestamp }
        eventCount += 1
        lastTimestamp = timestamp
        return previous
    }

    /// Whether some monitor looks at the callback record now (its filter or its demand).
    @inline(__always)
    private func isWatched(_ record: EventRecord) -> Bool {
        let key = Self.callbackKey(record.callback, record.phase)
        if callbackStart[key] != callbackStart[key &+ 1] { return true }
        for target in demandTargets where target.demand.extra.contains(record.callback, record.phase) { return true }
        return false
    }

    /// Calls the monitors that look at the callback record now.
    private func dispatch(_ record: EventRecord, _ previousTimestamp: UInt64?) {
        let context = EventContext(ordinal: record.ordinal, traceStart: firstTimestamp, previousTimestamp: previousTimestamp, replay: replay)
        let key = Self.callbackKey(record.callback, record.phase)
        var found = takeFindings()
        for index in callbackStart[key]..<callbackStart[key &+ 1] {
            callbackTargets[index].monitor.observe(callback: record, context, &found)
        }
        for target in demandTargets
        where !target.filter.contains(record.callback, record.phase) && target.demand.extra.contains(record.callback, record.phase) {
            target.monitor.observe(callback: record, context, &found)
        }
        swap(&found, &findings)
    }

    /// The record of a callback event: serials from its `ControllerRef`s; slot 0 stands for the controller and 1
    /// for the parent (`ReplayBox.controllerRef(slot:serial:)` reads them back from the event).
    static func record(of callback: CallbackEvent, at timestamp: UInt64, ordinal: UInt64) -> EventRecord {
        var record = EventRecord(
            timestamp: timestamp, ordinal: ordinal, callback: callback.callback, phase: callback.phase, animated: callback.animated,
            controller: callback.controller.serial, controllerSlot: 0)
        switch callback.parent {
        case nil:
            break
        case ParentArgument.none?:
            record.parent = .none
        case .controller(let parent)?:
            record.parent = .controller
            record.parentSerial = parent.serial
            record.parentSlot = 1
        }
        return record
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

/// A monitor as the dispatch table holds it: `AuditSession.monitors` keeps every monitor alive for the session's
/// lifetime, so the table's references are unowned and calling through them costs no retain/release (≈ 4 pairs
/// per callback event before).
struct MonitorRef {
    unowned(unsafe) let monitor: any RuleMonitor

    init(_ monitor: any RuleMonitor) {
        self.monitor = monitor
    }
}

/// A monitor with a `CallbackDemand`, its filter and its demand, held as `MonitorRef` is (no retain/release per
/// callback event when the session checks the demand).
struct DemandRef {
    unowned(unsafe) let monitor: any RuleMonitor
    let filter: CallbackSet
    unowned(unsafe) let demand: CallbackDemand
}

/// Holds the session's `ReplayState` so contexts can reach it without copying it per event, and the event being
/// observed, from which `EventContext` resolves a callback record's controllers: the `Event` when the session was
/// fed one, else the `FrameCursor` the record came from (valid only while the monitors run).
///
/// The session is used on one thread and never reenters itself, so its stored properties (and `state`) skip the
/// runtime exclusivity check (`@exclusivity(unchecked)`): a check per access cost ≈ 80 instructions, several
/// per event. The compile-time exclusivity diagnostics still apply.
final class ReplayBox {
    @exclusivity(unchecked) var state = ReplayState()
    /// Whether the callback being observed came as an `Event` (`currentCallback`, `currentSource`) rather than
    /// as a record (`cursor`).
    @exclusivity(unchecked) var isEvent = false
    /// The callback event being observed when it came as an `Event`, and its source.
    @exclusivity(unchecked) var currentCallback: CallbackEvent?
    @exclusivity(unchecked) var currentSource: EventSource?
    /// The cursor of the callback record being observed when it came as a record.
    @exclusivity(unchecked) var cursor: UnsafePointer<FrameCursor>?

    /// The `ControllerRef` at `slot` of the event being observed (for an `Event`: 0 the controller, 1 the
    /// parent), else the replayed state's record of `serial`.
    func controllerRef(slot: UInt32, serial: UInt32) -> ControllerRef {
        if isEvent, let callback = currentCallback {
            return slot == 1 ? callback.parent?.controller ?? callback.controller : callback.controller
        }
        if let cursor { return cursor.pointee.controller(atSlot: slot) }
        return state.controllers[serial]?.ref ?? ControllerRef(serial: serial, typeName: "")
    }
}
