import Replay
import TraceLog
import TraceModel

/// One audit of one trace: feed it every event in order, then `finish()`.
///
/// Events are dispatched through tables: callbacks per (callback, phase) to the monitors whose
/// `RuleMonitor.callbackFilter` holds it, plus the monitors whose `callbackDemand` asks for it now; container
/// events per operation (`containerFilter`), app events per transition and phase (`appFilter`, widened by
/// `CallbackDemand.app`), marks per interned name (`markFilter`). An event no monitor wants costs the replay's
/// fold and a table lookup. Monitors get callbacks as `EventRecord`s (`RuleMonitor.observe(callback:_:_:)`) and
/// container, app, SwiftUI and mark events as records too (`observe(record:_:_:)`), whether the session is fed
/// records (`observeRest(of:batch:)`, `observe(_:from:)`) or `Event`s (`observe(_:ordinal:)`, which turns the
/// event into the same record), so both paths find the same; an `Event` is built from a record only when a
/// monitor asks for it (`EventContext.event(of:)`), once per event.
///
/// Streaming: memory is bounded by what the monitors keep per live controller, not by the number of events.
/// Not `Sendable`: use one session on one thread.
public final class AuditSession {
    private let callbackTable: DispatchTable
    /// The monitors with a `callbackDemand`: called for the callbacks (and app events) its demand holds and the
    /// fixed filter does not. Manually allocated, as `DispatchTable`'s storage (no reference counting per read).
    private let demandTargets: UnsafeMutableBufferPointer<DemandRef>
    private let containerTable: DispatchTable
    private let appTable: DispatchTable
    /// The mark monitors by the interned code of the mark's name (`KnownName` raw value; `markFilter`), and
    /// those that may want a name that has no code (`KnownName.other`), with their filters.
    private let markTable: DispatchTable
    private let customMarkTargets: [(target: MonitorRef, filter: MarkFilter)]
    private let swiftUITable: DispatchTable
    private let recorderTable: DispatchTable
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
        callbackTable = DispatchTable(keys: Self.callbackKeys, callbackMonitors) { monitor, key in
            guard let callback = Callback(rawValue: UInt8(key & 0xF)), let phase = Phase(rawValue: UInt8(key >> 4)) else { return false }
            return monitor.callbackFilter.contains(callback, phase)
        }
        let demands = monitors.compactMap { monitor in
            monitor.callbackDemand.map {
                DemandRef(
                    monitor: monitor, filter: monitor.interests.contains(.callbacks) ? monitor.callbackFilter : .all,
                    appFilter: monitor.interests.contains(.app) ? monitor.appFilter : .all, demand: $0)
            }
        }
        demandTargets = .allocate(capacity: demands.count)
        _ = demandTargets.initialize(from: demands)
        containerTable = DispatchTable(keys: Self.containerKeys, monitors.filter { $0.interests.contains(.containers) }) { monitor, key in
            monitor.containerFilter.contains(code: UInt8(key))
        }
        appTable = DispatchTable(keys: Self.appKeys, monitors.filter { $0.interests.contains(.app) }) { monitor, key in
            monitor.appFilter.contains(code: UInt8(key & 0xF), key & 16 != 0 ? .end : .begin)
        }
        let markMonitors = monitors.filter { $0.interests.contains(.marks) }
        markTable = DispatchTable(keys: 256, markMonitors) { monitor, key in
            guard let code = KnownName(rawValue: UInt8(key)), code != .other else { return false }
            return monitor.markFilter.contains(known: code)
        }
        customMarkTargets = markMonitors.compactMap { monitor in
            let filter = monitor.markFilter
            return filter.holdsCustomNames ? (MonitorRef(monitor), filter) : nil
        }
        swiftUITable = DispatchTable(keys: 1, monitors.filter { $0.interests.contains(.swiftUI) }) { _, _ in true }
        recorderTable = DispatchTable(keys: 1, monitors.filter { $0.interests.contains(.recorder) }) { _, _ in true }
    }

    deinit {
        callbackTable.deallocate()
        containerTable.deallocate()
        appTable.deallocate()
        markTable.deallocate()
        swiftUITable.deallocate()
        recorderTable.deallocate()
        demandTargets.deallocate()
    }

    /// Keys of the callback table: 16 callback values × 3 phases.
    private static let callbackKeys = 48
    /// Keys of the container table: operation raw values.
    private static let containerKeys = 32
    /// Keys of the app table: transition raw value, plus 16 for an `end`.
    private static let appKeys = 32

    @inline(__always)
    private static func callbackKey(_ callbackCode: UInt8, _ phaseCode: UInt8) -> Int {
        Int(phaseCode) &<< 4 | Int(callbackCode & 0xF)
    }

    /// The container table's key of a record's `code` (an unknown code stands for `setRoot`, as the `Event` built
    /// from the record says).
    @inline(__always)
    private static func containerKey(_ code: UInt8) -> Int {
        code < 32 && ContainerOperation(rawValue: code) != nil ? Int(code) : 0
    }

    /// The app table's key of a record's `code` and phase (an unknown code stands for `didFinishLaunching`).
    @inline(__always)
    private static func appKey(_ code: UInt8, _ phase: Phase) -> Int {
        (AppTransition(rawValue: code) != nil ? Int(code & 0xF) : 0) | (phase == .end ? 16 : 0)
    }

    /// Feeds the event with ordinal `ordinal` (0-based, consecutive) to every interested monitor.
    public func observe(_ event: Event, ordinal: UInt64) {
        let previousTimestamp = advance(to: event.timestamp)
        replay.state.apply(event, ordinal: ordinal)
        switch event.payload {
        case .callback(let callback):
            let record = Self.record(of: callback, at: event.timestamp, ordinal: ordinal)
            let key = Self.callbackKey(record.callback.rawValue, record.phase.rawValue)
            guard isWatched(record, key) else { return }
            replay.event = EventBox(event)
            replay.isEvent = true
            dispatch(record, key, previousTimestamp)
            replay.isEvent = false
            replay.event = nil
        case .container, .app, .swiftUI, .mark:
            guard let record = EventRecord(auditing: event, ordinal: ordinal) else { return }
            replay.event = EventBox(event)
            replay.isEvent = true
            dispatchOther(record, previousTimestamp)
            replay.isEvent = false
            replay.event = nil
        case .recorder:
            if recorderTable.isEmpty(0) { return }
            let context = EventContext(ordinal: ordinal, traceStart: firstTimestamp, previousTimestamp: previousTimestamp, replay: replay)
            var found = takeFindings()
            for position in recorderTable.positions(0) {
                recorderTable[position].monitor.observe(event, context, &found)
            }
            swap(&found, &findings)
        case .unknown:
            return
        }
    }

    /// Feeds one event decoded by a `FrameCursor` (the record `cursor.next()` just returned): the same as
    /// `observe(_:ordinal:)` with the record's ordinal, but the event is folded from the record and handed to the
    /// monitors as the record; an `Event` is built only if a monitor asks for one.
    public func observe(_ record: EventRecord, from cursor: FrameCursor) {
        withUnsafePointer(to: cursor) { cursor in
            observe(record, from: cursor)
        }
    }

    /// `observe(_:from:)` with the cursor reached through a pointer (valid for the call).
    private func observe(_ record: EventRecord, from cursor: UnsafePointer<FrameCursor>) {
        if record.kind == .other {
            observe(cursor.event(of: record), ordinal: record.ordinal)
            return
        }
        let previousTimestamp = advance(to: record.timestamp)
        replay.state.apply(record, from: cursor)
        let saved = replay.cursor
        replay.cursor = cursor
        defer { replay.cursor = saved }
        if record.kind == .callback {
            let key = Self.callbackKey(record.callback.rawValue, record.phase.rawValue)
            guard isWatched(record, key) else { return }
            dispatch(record, key, previousTimestamp)
        } else {
            dispatchOther(record, previousTimestamp)
            replay.event = nil
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
        try withUnsafeMutablePointer(to: &cursor) { cursor in
            let pointer = UnsafePointer(cursor)
            var observed: UInt64 = 0
            while true {
                cursor.pointee.decode(into: &batch, limit: 1024)
                let first = batch.firstOrdinal
                let count = batch.count
                batch.withEntries { entries in
                    for index in 0..<entries.count {
                        let entry = entries[index]
                        let ordinal = first &+ UInt64(index)
                        if !entry.isRecord {
                            observe(callback: entry, ordinal: ordinal, from: pointer)
                        } else if batch.records[Int(entry.record)].kind != .other {
                            observe(batch.records[Int(entry.record)], from: pointer)
                        } else if let event = batch.events[Int(entry.record)] {
                            observe(event, ordinal: ordinal)
                        }
                    }
                }
                observed &+= UInt64(count)
                if let error = batch.error { throw error }
                if batch.isFinished { return observed }
            }
        }
    }

    /// A callback entry of a batch: folded from the entry; its record is built only when a monitor watches it.
    @inline(__always)
    private func observe(callback entry: RecordBatch.Entry, ordinal: UInt64, from cursor: UnsafePointer<FrameCursor>) {
        let previousTimestamp = advance(to: entry.timestamp)
        replay.state.apply(callback: entry, ordinal: ordinal, from: cursor)
        let key = Self.callbackKey(entry.callbackCode, entry.phaseCode)
        let callback = entry.callback
        let phase = entry.phase
        if callbackTable.isEmpty(key), !isDemanded(callback, phase) { return }
        var record = EventRecord(
            timestamp: entry.timestamp, ordinal: ordinal, callback: callback, phase: phase,
            animated: entry.animated, controller: entry.serial, controllerSlot: entry.slot)
        record.parent = entry.parent
        record.parentSerial = entry.parentSerial
        record.parentSlot = entry.parentSlot
        replay.cursor = cursor
        dispatch(record, key, previousTimestamp)
        replay.cursor = nil
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
    private func isWatched(_ record: EventRecord, _ key: Int) -> Bool {
        !callbackTable.isEmpty(key) || isDemanded(record.callback, record.phase)
    }

    /// Whether some monitor's demand asks for the callback beyond its filter.
    @inline(__always)
    private func isDemanded(_ callback: Callback, _ phase: Phase) -> Bool {
        for target in demandTargets where target.demand.extra.contains(callback, phase) { return true }
        return false
    }

    /// Calls the monitors that look at the callback record now.
    private func dispatch(_ record: EventRecord, _ key: Int, _ previousTimestamp: UInt64?) {
        let context = EventContext(ordinal: record.ordinal, traceStart: firstTimestamp, previousTimestamp: previousTimestamp, replay: replay)
        var found = takeFindings()
        for position in callbackTable.positions(key) {
            callbackTable[position].monitor.observe(callback: record, context, &found)
        }
        for target in demandTargets
        where !target.filter.contains(record.callback, record.phase) && target.demand.extra.contains(record.callback, record.phase) {
            target.monitor.observe(callback: record, context, &found)
        }
        swap(&found, &findings)
    }

    /// Calls the monitors that want a container, app, SwiftUI or mark record (the table of its kind, by operation,
    /// transition or name; plus the demands for app events).
    private func dispatchOther(_ record: EventRecord, _ previousTimestamp: UInt64?) {
        let table: DispatchTable
        let key: Int
        var demanded = false
        var custom = false
        switch record.kind {
        case .container:
            table = containerTable
            key = Self.containerKey(record.code)
        case .app:
            table = appTable
            key = Self.appKey(record.code, record.phase)
            for target in demandTargets where target.demand.app.contains(code: record.code, record.phase) {
                demanded = true
                break
            }
        case .swiftUI:
            table = swiftUITable
            key = 0
        case .mark:
            table = markTable
            key = Int(record.code)
            custom = record.code == KnownName.other.rawValue && !customMarkTargets.isEmpty
        case .callback, .other:
            return
        }
        if table.isEmpty(key), !demanded, !custom { return }
        let context = EventContext(ordinal: record.ordinal, traceStart: firstTimestamp, previousTimestamp: previousTimestamp, replay: replay)
        var found = takeFindings()
        for position in table.positions(key) {
            table[position].monitor.observe(record: record, context, &found)
        }
        if demanded {
            let code = AppTransition(rawValue: record.code) != nil ? record.code : 0
            for target in demandTargets
            where !target.appFilter.contains(code: code, record.phase) && target.demand.app.contains(code: code, record.phase) {
                target.monitor.observe(record: record, context, &found)
            }
        }
        if custom, let name = context.string(of: record) {
            for target in customMarkTargets where target.filter.contains(name) {
                target.target.monitor.observe(record: record, context, &found)
            }
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
    /// The monitor's fixed filters (`.all` for a kind it has no interest in, so the demand adds nothing there).
    let filter: CallbackSet
    let appFilter: AppTransitionSet
    unowned(unsafe) let demand: CallbackDemand
}

/// Holds the session's `ReplayState` so contexts can reach it without copying it per event, and the event being
/// observed, from which `EventContext` resolves a record's controllers, strings and fields: the `Event` when the
/// session was fed one (`isEvent`), else the `FrameCursor` the record came from (valid only while the monitors
/// run) and the `Event` built from it once a monitor asked for it.
///
/// The session is used on one thread and never reenters itself, so its stored properties (and `state`) skip the
/// runtime exclusivity check (`@exclusivity(unchecked)`): a check per access cost ≈ 80 instructions, several
/// per event. The compile-time exclusivity diagnostics still apply.
final class ReplayBox {
    @exclusivity(unchecked) var state = ReplayState()
    /// Whether the event being observed came as an `Event` (`event`) rather than as a record (`cursor`).
    @exclusivity(unchecked) var isEvent = false
    /// The event being observed: the one fed when `isEvent`, else the one built from the record (or `nil`).
    @exclusivity(unchecked) var event: EventBox?
    /// The cursor of the record being observed when it came as a record.
    @exclusivity(unchecked) var cursor: UnsafePointer<FrameCursor>?

    /// The `ControllerRef` at `slot` of the record being observed, of kind `kind` (for an `Event`: a callback's
    /// slot 0 is the controller and 1 the parent; other kinds name one controller), else the replayed state's
    /// record of `serial`.
    func controllerRef(slot: UInt32, serial: UInt32, kind: EventRecord.Kind) -> ControllerRef {
        if isEvent, let event = event?.event {
            switch event.payload {
            case .callback(let callback):
                return slot == 1 ? callback.parent?.controller ?? callback.controller : callback.controller
            case .container(let container):
                if let ref = container.container { return ref }
            case .swiftUI(let swiftUI):
                if let ref = swiftUI.host { return ref }
            case .mark(let mark):
                if let ref = mark.controller { return ref }
            default:
                break
            }
        } else if let cursor {
            return cursor.controller(atSlot: slot)
        }
        return state.controllers[serial]?.ref ?? ControllerRef(serial: serial, typeName: "")
    }
}

/// An `Event` in a box, so monitors can be lent it (a class's `let` property) instead of each copying it out of
/// the session.
final class EventBox {
    let event: Event

    init(_ event: Event) {
        self.event = event
    }
}
