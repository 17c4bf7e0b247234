import Replay
import TraceLog
import TraceModel

/// One audit of one trace: feed it every event in order, then `finish()`.
///
/// Events are dispatched through tables: callbacks per callback and end-or-not (a `CallbackSet` bit) to the
/// monitors whose `RuleMonitor.callbackFilter` holds it, plus the monitors whose `callbackDemand` asks for it now; container
/// events per operation (`containerFilter`), app events per transition and phase (`appFilter`, widened by
/// `CallbackDemand.app`), marks per interned name (`markFilter`). An event no monitor wants costs the replay's
/// fold and a table lookup. Monitors get callbacks as `EventRecord`s (`RuleMonitor.observe(callback:_:_:)`) and
/// container, app, SwiftUI and mark events as records too (`observe(record:_:_:)`), whether the session is fed
/// records (`observeRest(of:batch:)`, `observe(_:from:)`) or `Event`s (`observe(_:ordinal:)`, which turns the
/// event into the same record), so both paths find the same; an `Event` is built from a record only when a
/// monitor asks for it (`EventContext.event(of:)`), once per event.
///
/// From batches (`observeRest(of:batch:)`) the events no monitor reads the replayed state at are folded a run at a
/// time, by the replayer's fast paths; a monitor that reads nothing of the state for an event
/// (`RuleMonitor.stateFreeCallbacks`, `stateFreeRecords`, `stateFreeContainers`) is called as the loop scans the
/// run, before the run is folded. Each monitor still sees its events in trace order, and sees the state after the
/// event wherever it reads it (`BatchDispatchAgreementTests`).
///
/// Streaming: memory is bounded by what the monitors keep per live controller, not by the number of events.
/// Not `Sendable`: use one session on one thread.
public final class AuditSession {
    /// The callback monitors by `CallbackSet` bit (the callback's raw value, plus 16 for an `end`).
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
    /// The monitors, in registry order (the tables hold unmanaged references to these boxes).
    private let boxes: [MonitorBox]
    /// The callbacks some monitor's fixed filter holds, by `CallbackSet` bit: what the batch loop tests per
    /// callback entry (with `demandedCallbacks`) to fold the entries no monitor looks at in runs.
    private let watchedCallbacks: UInt32
    /// The bits no fixed filter holds, or every monitor whose fixed filter holds it reads nothing of the replayed
    /// state there (`RuleMonitor.stateFreeCallbacks`): with no demand in the way, the batch loop calls them as it
    /// scans, without ending the fold's run.
    private let freeCallbacks: UInt32
    /// Of the container operations and app keys some monitor looks at, those every monitor of which reads nothing
    /// of the replayed state there (`RuleMonitor.stateFreeRecords`, `stateFreeContainers`), by table key; whether
    /// the SwiftUI monitors do; and per mark name code what the batch loop does (`RecordAction` raw values).
    private let freeContainers: UInt32
    private let freeApp: UInt32
    private let freeSwiftUI: Bool
    private let markActions: UnsafeMutablePointer<UInt8>
    /// What the demands add now, as `CallbackSet` and `AppTransitionSet` bits (re-read after every call of a
    /// monitor, which may change its own demand).
    @exclusivity(unchecked) private var demandedCallbacks: UInt32 = 0
    /// Of `demandedCallbacks`, the bits some demanding monitor reads the replayed state at (not in its
    /// `stateFreeCallbacks`): those end the fold's run; the other demanded bits are called as the loop scans.
    @exclusivity(unchecked) private var demandedStateful: UInt32 = 0
    @exclusivity(unchecked) private var demandedApp: UInt32 = 0
    /// A callback record whose fields `record(of:ordinal:)` fills in (copying it costs less than `EventRecord`'s
    /// initializers, which are not inlined across modules).
    private let callbackTemplate = EventRecord(timestamp: 0, ordinal: 0, callback: .initialize, phase: .instant, animated: nil, controller: 0, controllerSlot: 0)
    /// The replayed state (the `Replay` fold) after the last event observed, and the event being observed.
    let replay = ReplayBox()
    /// The monitors that deferred the event the batch loop stopped at to the folded state
    /// (`EventContext.deferUntilFolded()`), in call order; empty between events.
    @exclusivity(unchecked) private var deferredTargets: [MonitorRef] = []
    @exclusivity(unchecked) private var findings: [Finding] = []
    @exclusivity(unchecked) private var eventCount: UInt64 = 0
    @exclusivity(unchecked) private var firstTimestamp: UInt64 = 0
    @exclusivity(unchecked) private var lastTimestamp: UInt64 = 0

    init(monitors: [any RuleMonitor]) {
        let boxes = monitors.map(MonitorBox.init)
        self.boxes = boxes
        let callbackMonitors = boxes.filter { $0.monitor.interests.contains(.callbacks) }
        callbackTable = DispatchTable(keys: 32, callbackMonitors) { monitor, key in
            monitor.callbackFilter.rawValue & (1 << UInt32(key)) != 0
        }
        let demands = boxes.compactMap { box -> DemandRef? in
            let monitor = box.monitor
            guard box.demand != nil else { return nil }
            return DemandRef(
                target: MonitorRef(box), filter: monitor.interests.contains(.callbacks) ? monitor.callbackFilter : .all,
                appFilter: monitor.interests.contains(.app) ? monitor.appFilter : .all, stateFree: monitor.stateFreeCallbacks)
        }
        demandTargets = .allocate(capacity: demands.count)
        _ = demandTargets.initialize(from: demands)
        containerTable = DispatchTable(keys: Self.containerKeys, boxes.filter { $0.monitor.interests.contains(.containers) }) { monitor, key in
            monitor.containerFilter.contains(code: UInt8(key))
        }
        appTable = DispatchTable(keys: Self.appKeys, boxes.filter { $0.monitor.interests.contains(.app) }) { monitor, key in
            monitor.appFilter.contains(code: UInt8(key & 0xF), key & 16 != 0 ? .end : .begin)
        }
        let markMonitors = boxes.filter { $0.monitor.interests.contains(.marks) }
        markTable = DispatchTable(keys: 256, markMonitors) { monitor, key in
            guard let code = KnownName(rawValue: UInt8(key)), code != .other else { return false }
            return monitor.markFilter.contains(known: code)
        }
        customMarkTargets = markMonitors.compactMap { box in
            let filter = box.monitor.markFilter
            return filter.holdsCustomNames ? (MonitorRef(box), filter) : nil
        }
        swiftUITable = DispatchTable(keys: 1, boxes.filter { $0.monitor.interests.contains(.swiftUI) }) { _, _ in true }
        recorderTable = DispatchTable(keys: 1, boxes.filter { $0.monitor.interests.contains(.recorder) }) { _, _ in true }
        var watched: UInt32 = 0
        var free: UInt32 = 0
        for key in 0..<32 {
            let bit: UInt32 = 1 << UInt32(key)
            let watching = callbackMonitors.filter { $0.monitor.callbackFilter.rawValue & bit != 0 }
            if watching.isEmpty { continue }
            watched |= bit
            if watching.allSatisfy({ $0.monitor.stateFreeCallbacks.rawValue & bit != 0 }) { free |= bit }
        }
        watchedCallbacks = watched
        freeCallbacks = free | ~watched
        func allFree(_ table: DispatchTable, _ key: Int, _ isFree: (any RuleMonitor) -> Bool) -> Bool {
            !table.isEmpty(key) && table.positions(key).allSatisfy { isFree(table[$0].box.takeUnretainedValue().monitor) }
        }
        var containers: UInt32 = 0
        for key in 0..<Self.containerKeys
        where allFree(containerTable, key, { $0.stateFreeRecords.contains(.containers) || $0.stateFreeContainers.contains(code: UInt8(key)) }) {
            containers |= 1 << UInt32(key)
        }
        freeContainers = containers
        var app: UInt32 = 0
        for key in 0..<Self.appKeys where allFree(appTable, key, { $0.stateFreeRecords.contains(.app) }) { app |= 1 << UInt32(key) }
        freeApp = app
        freeSwiftUI = allFree(swiftUITable, 0) { $0.stateFreeRecords.contains(.swiftUI) }
        markActions = .allocate(capacity: 256)
        for code in 0..<256 {
            let action: RecordAction =
                markTable.isEmpty(code) ? .skip : allFree(markTable, code, { $0.stateFreeRecords.contains(.marks) }) ? .dispatch : .stop
            markActions[code] = action.rawValue
        }
        if !customMarkTargets.isEmpty { markActions[Int(KnownName.other.rawValue)] = RecordAction.stop.rawValue }
        updateDemands()
    }

    deinit {
        callbackTable.deallocate()
        containerTable.deallocate()
        appTable.deallocate()
        markTable.deallocate()
        swiftUITable.deallocate()
        recorderTable.deallocate()
        demandTargets.deallocate()
        markActions.deallocate()
    }

    /// What the batch loop does with an entry: nothing (no monitor looks at it), dispatch it as it scans (every
    /// monitor that looks at it is state-free there), or stop the run there (fold up to it, then dispatch).
    private enum RecordAction: UInt8 {
        case skip
        case dispatch
        case stop
    }

    /// Keys of the container table: operation raw values.
    private static let containerKeys = 32
    /// Keys of the app table: transition raw value, plus 16 for an `end`.
    private static let appKeys = 32

    /// The callback table's key (a `CallbackSet` bit) of a callback code and phase code.
    @inline(__always)
    private static func callbackKey(_ callbackCode: UInt8, _ phaseCode: UInt8) -> Int {
        Int(callbackCode & 0xF) &+ (phaseCode == Phase.end.rawValue ? 16 : 0)
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

    /// Re-reads the monitors' demands (after any call of a monitor, which may have changed its own).
    @inline(__always)
    private func updateDemands() {
        guard demandTargets.count > 0 else { return }
        var callbacks: UInt32 = 0
        var stateful: UInt32 = 0
        var app: UInt32 = 0
        for target in demandTargets {
            let extra = target.extra.rawValue & ~target.filter.rawValue
            callbacks |= extra
            stateful |= extra & ~target.stateFree.rawValue
            app |= target.app.rawValue
        }
        demandedCallbacks = callbacks
        demandedStateful = stateful
        demandedApp = app
    }

    /// Feeds the event with ordinal `ordinal` (0-based, consecutive) to every interested monitor.
    public func observe(_ event: Event, ordinal: UInt64) {
        let previousTimestamp = advance(to: event.timestamp)
        replay.state.apply(event, ordinal: ordinal)
        switch event.payload {
        case .callback(let callback):
            let record = Self.record(of: callback, at: event.timestamp, ordinal: ordinal)
            let key = Self.callbackKey(record.callback.rawValue, record.phase.rawValue)
            guard isWatched(key) else { return }
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
            for position in recorderTable.positions(0) {
                recorderTable[position].observe(event, context, &findings)
            }
            updateDemands()
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
            guard isWatched(key) else { return }
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
    /// The events no monitor looks at (by the masks of what each kind's table holds, and the demands) are folded
    /// a run at a time (`ReplayState.fold(_:_:end:first:records:events:from:sceneIndexes:)`, the replayer's fast
    /// paths); each event a monitor looks at ends a run and is dispatched after it is folded.
    ///
    /// - Returns: The number of events observed.
    /// - Throws: What decoding the frame throws (`TraceError`); the events before the bad one are observed.
    @discardableResult
    public func observeRest(of cursor: inout FrameCursor, batch: inout RecordBatch) throws -> UInt64 {
        try withUnsafeMutablePointer(to: &cursor) { cursor in
            let pointer = UnsafePointer(cursor)
            let saved = replay.cursor
            replay.cursor = pointer
            defer { replay.cursor = saved }
            var observed: UInt64 = 0
            var sceneIndexes: [UInt32] = []
            while true {
                cursor.pointee.decode(into: &batch, limit: 1024)
                let first = batch.firstOrdinal
                let count = batch.count
                // Held once per batch (each read through `batch` retained and released its buffer).
                let records = batch.records
                let events = batch.events
                records.withUnsafeBufferPointer { recordBuffer in
                    batch.withEntries { entries in
                        observeEntries(
                            entries, first: first, records: records, recordBase: recordBuffer.baseAddress, events: events, from: pointer,
                            sceneIndexes: &sceneIndexes)
                    }
                }
                observed &+= UInt64(count)
                if let error = batch.error { throw error }
                if batch.isFinished { return observed }
            }
        }
    }

    /// The batch loop of `observeRest(of:batch:)`: runs of entries no monitor reads the state at are folded
    /// together; each entry a monitor reads the state at ends a run, is folded with it and dispatched. An entry
    /// whose monitors are all state-free there (`freeCallbacks`, `RecordAction.dispatch`) is dispatched as the loop
    /// scans the run, before the run is folded (each monitor still sees its events in trace order).
    ///
    /// - Parameter recordBase: `records`' storage (`nil` when empty).
    private func observeEntries(
        _ entries: RecordBatch.Entries, first: UInt64, records: [EventRecord], recordBase: UnsafePointer<EventRecord>?,
        events: RecordBatch.OtherEvents, from cursor: UnsafePointer<FrameCursor>, sceneIndexes: inout [UInt32]
    ) {
        let count = entries.count
        let base = entries
        // The record dispatched for a callback entry: its fields set in place per dispatch (no copy per event).
        var record = callbackTemplate
        var index = 0
        while index < count {
            // The timestamp of the event before the run (`nil` before the first event of the trace); inside the run,
            // the entry before is the event before.
            let runPrevious: UInt64? = eventCount == 0 ? nil : lastTimestamp
            if eventCount == 0 { firstTimestamp = base[index].timestamp }
            let runStart = index
            @inline(__always) func previous(_ position: Int) -> UInt64? {
                position > runStart ? base[position &- 1].timestamp : runPrevious
            }
            // The next entry some monitor reads the state at (`count` when none); the callbacks watched now, and of
            // those, the ones every monitor of which is state-free (re-read after each dispatch: demands change).
            var stop = index
            var other = false
            var watched = watchedCallbacks | demandedCallbacks
            var free = freeCallbacks & ~demandedStateful
            scan: while stop < count {
                let entry = base[stop]
                if !entry.isRecord {
                    let bit: UInt32 = 1 << UInt32(Self.callbackKey(entry.callbackCode, entry.phaseCode))
                    if watched & bit != 0 {
                        if free & bit == 0 { break }
                        // A monitor that needs the state after all (`EventContext.deferUntilFolded()`) ends the run here.
                        if dispatch(callback: entry, ordinal: first &+ UInt64(stop), previous(stop), in: &record, unfolded: true) { break }
                        watched = watchedCallbacks | demandedCallbacks
                        free = freeCallbacks & ~demandedStateful
                    }
                } else {
                    let recordPointer = recordBase.unsafelyUnwrapped + Int(entry.record)
                    if recordPointer.pointee.kind == .other {
                        other = true
                        break
                    }
                    switch action(recordPointer) {
                    case .skip:
                        break
                    case .dispatch:
                        let deferred = dispatchOther(recordPointer.pointee, previous(stop), unfolded: true)
                        replay.event = nil
                        if deferred { break scan }
                        watched = watchedCallbacks | demandedCallbacks
                        free = freeCallbacks & ~demandedStateful
                    case .stop:
                        break scan
                    }
                }
                stop += 1
            }
            // Fold the run and the entry that ends it (not an `.other` one: `observe(_:ordinal:)` folds that).
            let end = other || stop == count ? stop : stop + 1
            if end > index {
                eventCount &+= UInt64(end &- index)
                lastTimestamp = base[end &- 1].timestamp
                replay.state.fold(entries, &index, end: end, first: first, records: records, events: events, from: cursor, sceneIndexes: &sceneIndexes)
                if stop < end {
                    let entry = base[stop]
                    let ordinal = first &+ UInt64(stop)
                    if !deferredTargets.isEmpty {
                        // Dispatched as the loop scanned, but some monitors deferred to the folded state: only they
                        // are called again.
                        let deferred = entry.isRecord ? recordBase.unsafelyUnwrapped[Int(entry.record)] : self.record(of: entry, ordinal: ordinal)
                        redispatchDeferred(deferred, previous(stop))
                    } else if !entry.isRecord {
                        dispatch(callback: entry, ordinal: ordinal, previous(stop), in: &record)
                    } else {
                        dispatchOther(recordBase.unsafelyUnwrapped[Int(entry.record)], previous(stop))
                        replay.event = nil
                    }
                }
            }
            if other {
                if let event = events[Int(base[index].record)] { observe(event, ordinal: first &+ UInt64(index)) }
                index += 1
            }
        }
    }

    /// What the batch loop does with a record entry (`dispatchOther` calls no monitor for a `.skip`).
    @inline(__always)
    private func action(_ record: UnsafePointer<EventRecord>) -> RecordAction {
        switch record.pointee.kind {
        case .container:
            let key = Self.containerKey(record.pointee.code)
            if containerTable.isEmpty(key) { return .skip }
            return freeContainers & (1 << UInt32(key)) != 0 ? .dispatch : .stop
        case .app:
            if demandedApp & (1 << (UInt32(record.pointee.code & 0xF) &+ (record.pointee.phase == .end ? 16 : 0))) != 0 { return .stop }
            let key = Self.appKey(record.pointee.code, record.pointee.phase)
            if appTable.isEmpty(key) { return .skip }
            return freeApp & (1 << UInt32(key)) != 0 ? .dispatch : .stop
        case .swiftUI:
            if swiftUITable.isEmpty(0) { return .skip }
            return freeSwiftUI ? .dispatch : .stop
        case .mark:
            return RecordAction(rawValue: markActions[Int(record.pointee.code)]) ?? .stop
        case .callback, .other:
            return .stop
        }
    }

    /// A callback entry of a batch a monitor looks at: its record is built and dispatched (`unfolded`: before the
    /// state is folded through it; returns whether a monitor deferred, see `dispatch(_:_:_:unfolded:)`).
    @inline(__always)
    @discardableResult
    private func dispatch(callback entry: RecordBatch.Entry, ordinal: UInt64, _ previousTimestamp: UInt64?, in record: inout EventRecord, unfolded: Bool = false) -> Bool {
        Self.fill(&record, from: entry, ordinal: ordinal)
        return dispatch(record, Self.callbackKey(entry.callbackCode, entry.phaseCode), previousTimestamp, unfolded: unfolded)
    }

    /// Calls again, now that the state is folded through the event, the monitors that deferred it
    /// (`deferredTargets`, emptied), in the order they were first called.
    @inline(never)
    private func redispatchDeferred(_ record: EventRecord, _ previousTimestamp: UInt64?) {
        let context = EventContext(ordinal: record.ordinal, traceStart: firstTimestamp, previousTimestamp: previousTimestamp, replay: replay)
        let targets = deferredTargets
        deferredTargets.removeAll(keepingCapacity: true)
        for target in targets {
            if record.kind == .callback {
                target.observe(callback: record, context, &findings)
            } else {
                target.observe(record: record, context, &findings)
            }
        }
        replay.event = nil
        updateDemands()
    }

    /// The record of a callback entry (what `RecordBatch.record(of:)` builds), field by field from its codes: the
    /// decoder's fast path stores only valid codes in a callback entry (a callback ≤ 14, a phase ≤ 2, animated and
    /// parent ≤ 2), whose raw values are the enums' case numbers (`CallbackCodeTests`).
    @inline(__always)
    func record(of entry: RecordBatch.Entry, ordinal: UInt64) -> EventRecord {
        var record = callbackTemplate
        Self.fill(&record, from: entry, ordinal: ordinal)
        return record
    }

    /// Sets the fields of a callback record (made from `callbackTemplate`) that differ from entry to entry.
    @inline(__always)
    static func fill(_ record: inout EventRecord, from entry: RecordBatch.Entry, ordinal: UInt64) {
        record.timestamp = entry.timestamp
        record.ordinal = ordinal
        record.callback = entry.callbackCode <= 14 ? unsafeBitCast(entry.callbackCode, to: Callback.self) : .initialize
        record.phase = entry.phaseCode <= 2 ? unsafeBitCast(entry.phaseCode, to: Phase.self) : .instant
        record.animated = entry.animatedCode == 0 ? nil : entry.animatedCode == 2
        record.controller = entry.serial
        record.controllerSlot = entry.slot
        record.parent = entry.parentCode <= 2 ? unsafeBitCast(entry.parentCode, to: EventRecord.Parent.self) : .absent
        record.parentSerial = entry.parentSerial
        record.parentSlot = entry.parentSlot
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

    /// Whether some monitor looks at the callback with table key `key` now (its filter or its demand).
    @inline(__always)
    private func isWatched(_ key: Int) -> Bool {
        (watchedCallbacks | demandedCallbacks) & (1 << UInt32(key)) != 0
    }

    /// Calls the monitors that look at the callback record now (kept out of the batch loop, whose scan stays small).
    ///
    /// - Parameter unfolded: The state is not yet folded through the event (the batch loop's call of state-free
    ///   monitors as it scans): a monitor that asks for the folded state (`EventContext.deferUntilFolded()`) is
    ///   kept in `deferredTargets`, to be called again after the fold (`redispatchDeferred`).
    /// - Returns: Whether some monitor deferred.
    @inline(never)
    @discardableResult
    private func dispatch(_ record: EventRecord, _ key: Int, _ previousTimestamp: UInt64?, unfolded: Bool = false) -> Bool {
        let context = EventContext(ordinal: record.ordinal, traceStart: firstTimestamp, previousTimestamp: previousTimestamp, replay: replay)
        replay.isFolded = !unfolded
        for position in callbackTable.positions(key) {
            callbackTable[position].observe(callback: record, context, &findings)
            if replay.deferRequested {
                replay.deferRequested = false
                deferredTargets.append(callbackTable[position])
            }
        }
        if demandedCallbacks & (1 << UInt32(key)) != 0 {
            // Unfolded too when every demand of the callback is state-free (`demandedStateful`).
            for target in demandTargets
            where !target.filter.contains(record.callback, record.phase) && target.extra.contains(record.callback, record.phase) {
                target.target.observe(callback: record, context, &findings)
                if replay.deferRequested {
                    replay.deferRequested = false
                    deferredTargets.append(target.target)
                }
            }
        }
        replay.isFolded = true
        updateDemands()
        return !deferredTargets.isEmpty
    }

    /// Calls the monitors that want a container, app, SwiftUI or mark record (the table of its kind, by operation,
    /// transition or name; plus the demands for app events). `unfolded` and the result: as `dispatch(_:_:_:unfolded:)`'s
    /// (for the kind's table; the batch loop never calls the demands' or custom marks' monitors unfolded).
    @inline(never)
    @discardableResult
    private func dispatchOther(_ record: EventRecord, _ previousTimestamp: UInt64?, unfolded: Bool = false) -> Bool {
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
            demanded = demandedApp & (1 << (UInt32(record.code & 0xF) &+ (record.phase == .end ? 16 : 0))) != 0
        case .swiftUI:
            table = swiftUITable
            key = 0
        case .mark:
            table = markTable
            key = Int(record.code)
            custom = record.code == KnownName.other.rawValue && !customMarkTargets.isEmpty
        case .callback, .other:
            return false
        }
        if table.isEmpty(key), !demanded, !custom { return false }
        let context = EventContext(ordinal: record.ordinal, traceStart: firstTimestamp, previousTimestamp: previousTimestamp, replay: replay)
        replay.isFolded = !unfolded
        for position in table.positions(key) {
            table[position].observe(record: record, context, &findings)
            if replay.deferRequested {
                replay.deferRequested = false
                deferredTargets.append(table[position])
            }
        }
        replay.isFolded = true
        if demanded {
            let code = AppTransition(rawValue: record.code) != nil ? record.code : 0
            for target in demandTargets
            where !target.appFilter.contains(code: code, record.phase) && target.app.contains(code: code, record.phase) {
                target.target.observe(record: record, context, &findings)
            }
        }
        if custom, let name = context.string(of: record) {
            for target in customMarkTargets where target.filter.contains(name) {
                target.target.observe(record: record, context, &findings)
            }
        }
        updateDemands()
        return !deferredTargets.isEmpty
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

    /// The replayed state after the last event observed.
    public var state: ReplayState { replay.state }

    /// Ends the trace: lets monitors report what is still pending and returns every finding, in event order
    /// (then by rule id, controller and message).
    public func finish() -> [Finding] {
        let end = TraceEnd(eventCount: eventCount, firstTimestamp: firstTimestamp, lastTimestamp: lastTimestamp)
        for box in boxes {
            box.monitor.finish(end, &findings)
        }
        // A total order, so the same trace always gives the same report (monitors may emit ties from dictionaries).
        return findings.sorted {
            ($0.ordinal, $0.ruleID, $0.controller ?? "", $0.message) < ($1.ordinal, $1.ruleID, $1.controller ?? "", $1.message)
        }
    }
}

/// A monitor held strongly for the session's lifetime (`AuditSession` keeps every box), with its demand.
final class MonitorBox {
    let monitor: any RuleMonitor
    /// `monitor.callbackDemand`, read once (a monitor keeps one demand object and changes its sets).
    let demand: CallbackDemand?

    init(_ monitor: any RuleMonitor) {
        self.monitor = monitor
        demand = monitor.callbackDemand
    }
}

/// A monitor as the dispatch tables hold it: an unmanaged reference to its box, called through
/// `_withUnsafeGuaranteedRef`, so a call costs no retain/release (an `unowned(unsafe)` existential was retained and
/// released around every call; the session keeps the boxes alive).
struct MonitorRef {
    let box: Unmanaged<MonitorBox>

    init(_ box: MonitorBox) {
        self.box = .passUnretained(box)
    }

    @inline(__always)
    func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        box._withUnsafeGuaranteedRef { $0.monitor.observe(callback: record, context, &findings) }
    }

    @inline(__always)
    func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        box._withUnsafeGuaranteedRef { $0.monitor.observe(record: record, context, &findings) }
    }

    @inline(__always)
    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {
        box._withUnsafeGuaranteedRef { $0.monitor.observe(event, context, &findings) }
    }
}

/// A monitor with a `CallbackDemand`, its fixed filters (`.all` for a kind it has no interest in, so the demand
/// adds nothing there), held as `MonitorRef` is.
struct DemandRef {
    let target: MonitorRef
    let filter: CallbackSet
    let appFilter: AppTransitionSet
    /// The monitor's `stateFreeCallbacks`: demanded callbacks in it are called as the batch loop scans.
    let stateFree: CallbackSet

    /// The demand's callbacks now.
    @inline(__always)
    var extra: CallbackSet { target.box._withUnsafeGuaranteedRef { $0.demand?.extra ?? [] } }

    /// The demand's app events now.
    @inline(__always)
    var app: AppTransitionSet { target.box._withUnsafeGuaranteedRef { $0.demand?.app ?? [] } }
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
    /// Whether `state` is folded through the event being observed (`false` while the batch loop calls state-free
    /// monitors as it scans; `EventContext.isFolded`).
    @exclusivity(unchecked) var isFolded = true
    /// Set by `EventContext.deferUntilFolded()` in an unfolded call; the session reads and clears it after the call.
    @exclusivity(unchecked) var deferRequested = false

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
