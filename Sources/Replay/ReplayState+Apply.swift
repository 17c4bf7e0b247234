import TraceLog
import TraceModel

extension ReplayState {
    /// Folds one event into the state. Pure and deterministic; never traps, whatever the input.
    ///
    /// Effects take place at an event's `begin` (or `instant`, a zero-length interval); an `end` only closes
    /// the interval (pops the callback stack). Anomalies become `diagnostics` entries and the event is still
    /// applied as the trace says (never a silent fix): did without will, a repeated did (viewDidAppear while
    /// appeared, viewDidDisappear while disappeared), a repeated will, viewDidLoad twice, events about a
    /// controller after its deinit, time going backwards, unbalanced ends, dropped events.
    /// The appearance machine and its legal cancellations are DESIGN.md §2's.
    ///
    /// - Parameters:
    ///   - event: The event; its timestamp is nanoseconds on the trace clock.
    ///   - ordinal: The event's position in the trace (0-based), used in diagnostics and for attribution.
    public mutating func apply(_ event: Event, ordinal: UInt64) {
        let time = event.timestamp
        advance(to: time, ordinal)
        switch event.payload {
        case .callback(let callback):
            applyCallback(CallbackFacts(callback, at: time, ordinal: ordinal), CallbackEventRefs(event: callback))
        case .container(let container): applyContainer(container, time, ordinal)
        case .app(let app): applyApp(app, time, ordinal)
        case .swiftUI(let swiftUI): applySwiftUI(swiftUI, time, ordinal)
        case .mark(let mark): applyMark(mark, time, ordinal)
        case .recorder(let recorder):
            switch recorder {
            case .eventsDropped(let count):
                droppedEvents &+= count
                report(.eventsDropped, ordinal, time, nil, "the recorder dropped \(count) events here; state may be incomplete")
            case .runStarted(let process):
                if eventCount > 1 { endProcess(time, ordinal, nextProcess: process) }
            case .note:
                break
            }
        case .unknown:
            break
        }
    }

    /// Folds one event decoded by `cursor` (a record from `cursor.next()`): the same fold as `apply(_:ordinal:)`
    /// with the record's ordinal, without building an `Event` for a callback record.
    ///
    /// - Parameters:
    ///   - record: The record `cursor.next()` just returned (for a record of kind `.other`, the cursor's `event`
    ///     is the event applied).
    ///   - cursor: The cursor of the frame the record comes from; its controller table gives the whole
    ///     `ControllerRef` of a controller seen for the first time.
    public mutating func apply(_ record: EventRecord, from cursor: FrameCursor) {
        if record.kind == .callback {
            advance(to: record.timestamp, record.ordinal)
            applyCallback(CallbackFacts(record), cursor)
        } else if record.kind == .other {
            apply(cursor.event(of: record), ordinal: record.ordinal)
        } else {
            applyRecord(record, cursor)
        }
    }

    /// `apply(_:from:)` with the cursor reached through a pointer (valid for the call): nothing is copied per
    /// record, and the frame's tables are read as `applyRest`'s batch fold reads them.
    public mutating func apply(_ record: EventRecord, from cursor: UnsafePointer<FrameCursor>) {
        if record.kind == .callback {
            advance(to: record.timestamp, record.ordinal)
            applyCallback(CallbackFacts(record), CursorRefs(cursor: cursor))
        } else if record.kind == .other {
            apply(cursor.event(of: record), ordinal: record.ordinal)
        } else {
            applyRecord(record, CursorRefs(cursor: cursor))
        }
    }

    /// Folds the callback entry of a `RecordBatch` (`isRecord` is `false`) with ordinal `ordinal`, decoded from
    /// the frame `cursor` points to: the same fold as `apply(_:from:)` of its record, without building the record.
    public mutating func apply(callback entry: RecordBatch.Entry, ordinal: UInt64, from cursor: UnsafePointer<FrameCursor>) {
        advance(to: entry.timestamp, ordinal)
        applyCallback(CallbackFacts(entry, ordinal: ordinal), CursorRefs(cursor: cursor))
    }

    /// The fold of a container, app, SwiftUI or mark record, reading strings and controllers from the frame's
    /// tables (no `Event`).
    mutating func applyRecord<T: RecordTables>(_ record: EventRecord, _ tables: T) {
        let time = record.timestamp
        let ordinal = record.ordinal
        advance(to: time, ordinal)
        switch record.kind {
        case .container: applyContainer(RecordContainer(record: record, tables: tables), time, ordinal)
        case .mark: applyMark(RecordMark(record: record, tables: tables), time, ordinal)
        case .app:
            let scene = record.stringSlot == EventRecord.noString ? nil : tables.string(atSlot: record.stringSlot)
            applyApp(AppEvent(record.appTransition ?? .didFinishLaunching, record.phase, scene: scene), time, ordinal)
        case .swiftUI:
            applySwiftUI(
                record.swiftUIAction ?? .onAppear, view: tables.string(atSlot: record.stringSlot),
                host: record.hasController ? record.controller : nil, slot: record.controllerSlot, tables, time, ordinal
            )
        case .callback, .other:
            break
        }
    }

    /// Whether the quiet path may take `record` (a mark, an app or scene callback, a SwiftUI action): worth
    /// entering it for.
    @inline(__always)
    static func mayBeQuiet(_ record: EventRecord) -> Bool {
        record.kind == .mark || record.kind == .app || record.kind == .swiftUI
    }

    /// Folds the events `cursor` has left whose ordinal is ≥ `ordinal`, stopping before the first whose timestamp
    /// is after `instant` (the replayer's loop without a visitor).
    ///
    /// - Returns: `false` when it stopped at `instant`, `true` when the frame ended.
    /// - Throws: `TraceError` from `FrameCursor.next()`; the events before the bad one are applied.
    mutating func applyRest(of cursor: inout FrameCursor, from ordinal: UInt64, until instant: UInt64?) throws -> Bool {
        var batch = RecordBatch()
        return try applyRest(of: &cursor, from: ordinal, until: instant, batch: &batch)
    }

    /// `applyRest(of:from:until:)` decoding through `batch` (reused from frame to frame): the frame is decoded a
    /// run of events at a time (`FrameCursor.decode(into:limit:)`) and each run folded in one loop.
    mutating func applyRest(of cursor: inout FrameCursor, from ordinal: UInt64, until instant: UInt64?, batch: inout RecordBatch) throws -> Bool {
        // Through a pointer, so that handing the cursor to the fold (for a first sight) copies nothing.
        try withUnsafeMutablePointer(to: &cursor) { cursor in
            let refs = CursorRefs(cursor: UnsafePointer(cursor))
            var sceneIndexes: [UInt32] = []
            while true {
                cursor.pointee.decode(into: &batch, limit: 1024)
                let first = batch.firstOrdinal
                // The batch's arrays held once per batch (read through `batch` per record, each read retained and
                // released its buffer).
                let records = batch.records
                let events = batch.events
                let stopped = batch.withEntries { entries -> Bool in
                    var index = 0
                    if first < ordinal { index = Int(min(ordinal &- first, UInt64(entries.count))) }
                    while index < entries.count {
                        // The common callbacks (and marks) through the table's pointers; the general fold below takes
                        // the rest (any other record at once: the quiet path would stop before it).
                        if !entries[index].isRecord || Self.mayBeQuiet(records[Int(entries[index].record)]),
                           foldQuietCallbacks(entries, records, sceneIndexes: &sceneIndexes, &index, first: first, until: instant, refs) == .instant {
                            return true
                        }
                        if index == entries.count { break }
                        let entry = entries[index]
                        let eventOrdinal = first &+ UInt64(index)
                        index += 1
                        if eventOrdinal < ordinal { continue }
                        if let instant, entry.timestamp > instant { return true }
                        if !entry.isRecord {
                            advance(to: entry.timestamp, eventOrdinal)
                            // A begin whose very next event is its own end (not deinit's: the end's liveness check
                            // looks for deinit on the stack) leaves both stacks as they were: fold the pair without
                            // pushing and popping.
                            if entry.phaseCode == Phase.begin.rawValue, index < entries.count {
                                let next = entries[index]
                                if !next.isRecord, next.phaseCode == Phase.end.rawValue, next.serial == entry.serial,
                                   next.callbackCode == entry.callbackCode, next.callbackCode != Callback.deinitialize.rawValue,
                                   instant.map({ next.timestamp <= $0 }) ?? true {
                                    applyCallback(CallbackFacts(entry, ordinal: eventOrdinal), refs, endsAtOnce: true)
                                    let endOrdinal = eventOrdinal &+ 1
                                    advance(to: next.timestamp, endOrdinal)
                                    applyImmediateEnd(CallbackFacts(next, ordinal: endOrdinal), refs)
                                    index += 1
                                    continue
                                }
                            }
                            applyCallback(CallbackFacts(entry, ordinal: eventOrdinal), refs)
                            continue
                        }
                        applyBatchRecord(Int(entry.record), records, events, ordinal: eventOrdinal, refs, sceneIndexes: &sceneIndexes)
                    }
                    return false
                }
                if stopped { return false }
                if let error = batch.error { throw error }
                if batch.isFinished { return true }
            }
        }
    }

    /// The bookkeeping every event does: time (a diagnostic when it goes backwards), counts, ordinal.
    @inline(__always)
    mutating func advance(to time: UInt64, _ ordinal: UInt64) {
        if let previous = self.time, time < previous {
            report(.timeWentBackwards, ordinal, time, nil, "timestamp \(time) ns is before the previous event's \(previous) ns")
        }
        if startTime == nil { startTime = time }
        self.time = time
        eventCount &+= 1
        lastOrdinal = ordinal
    }

    // MARK: - Shared helpers

    mutating func report(_ kind: Diagnostic.Kind, _ ordinal: UInt64, _ time: UInt64, _ controller: ControllerRef?, _ message: String) {
        diagnostics.append(Diagnostic(kind: kind, ordinal: ordinal, time: time, controller: controller, message: message))
    }

    /// Makes sure `ref` has a record; reports `eventAfterDeinit` when it is dead (its deinit has ended).
    mutating func touch(_ ref: ControllerRef, _ time: UInt64, _ ordinal: UInt64, what: @autoclosure () -> String) {
        _ = touch(ref.serial, slot: 0, SingleControllerRef(ref: ref), time, ordinal, what: what())
    }

    /// Makes sure `serial` has a record (starting one from `refs` at `slot` on first sight); reports
    /// `eventAfterDeinit` when it is dead. Returns the record's position in `controllers` (`subscript(at:)`).
    @inline(__always)
    mutating func touch<R: ControllerRefSource>(
        _ serial: UInt32, slot: UInt32, _ refs: R, _ time: UInt64, _ ordinal: UInt64, what: @autoclosure () -> String
    ) -> Int {
        if let position = controllers.position(of: serial) {
            if controllers[at: position].deinitTime != nil || controllers[at: position].processEndTime != nil {
                reportIfDead(position, slot: slot, refs, time, ordinal, what: what())
            }
            return position
        }
        if !deadSerials.isEmpty, deadSerials.contains(serial) {
            report(.eventAfterDeinit, ordinal, time, refs.controllerRef(slot: slot), "\(what()) after deinit (record no longer kept; starting a new one)")
        }
        return controllers.insertNew(refs.controllerRef(slot: slot), firstSeen: time, ordinal: ordinal, serial: serial)
    }

    private mutating func reportIfDead<R: ControllerRefSource>(
        _ position: Int, slot: UInt32, _ refs: R, _ time: UInt64, _ ordinal: UInt64, what: @autoclosure () -> String
    ) {
        // The record's fields read in place (a copy of the whole `ControllerState` cost ≈ 500 Ir per event on a
        // dead controller, deinit's own end included).
        let deinitTime = controllers[at: position].deinitTime
        let ended = controllers[at: position].processEndTime != nil
        guard (deinitTime != nil && !controllers[at: position].callbacks.contains(where: { $0.callback == .deinitialize })) || ended else { return }
        report(.eventAfterDeinit, ordinal, time, refs.controllerRef(slot: slot), "\(what()) after \(deinitTime == nil ? "its process ended" : "deinit")")
    }

    /// Makes `child` a child of `parent`, unlinking it from a previous parent.
    mutating func link(_ child: UInt32, to parent: UInt32) {
        guard child != parent, let position = controllers.position(of: child) else { return }
        let old = controllers[at: position].parent.serial
        controllers[at: position].parent = .controller(parent)
        if let old, old != parent, let oldPosition = controllers.position(of: old) {
            Self.removeChild(child, from: &controllers[at: oldPosition].children)
        }
        if let parentPosition = controllers.position(of: parent), !controllers[at: parentPosition].children.contains(child) {
            controllers[at: parentPosition].children.append(child)
        }
    }

    /// Detaches `child` from its parent, if it has one.
    mutating func unlink(_ child: UInt32) {
        guard let position = controllers.position(of: child) else { return }
        let old = controllers[at: position].parent.serial
        controllers[at: position].parent = .none
        if let old, let oldPosition = controllers.position(of: old) {
            Self.removeChild(child, from: &controllers[at: oldPosition].children)
        }
    }

    /// `children.removeAll { $0 == child }` without its partition pass: a child is listed once (`link` appends
    /// only when absent), so the one occurrence is removed (`removeLast` when it is the last); a list holding it
    /// more than once (a state built some other way) still loses every occurrence.
    @inline(__always)
    static func removeChild(_ child: UInt32, from children: inout [UInt32]) {
        guard let index = children.firstIndex(of: child) else { return }
        let last = children.count - 1
        if index == last {
            children.removeLast()
        } else if children[(index + 1)...].contains(child) {
            children.removeAll { $0 == child }
        } else {
            children.remove(at: index)
        }
    }

    mutating func setRemoval(_ serial: UInt32, _ kind: Removal.Kind, _ time: UInt64, _ ordinal: UInt64) {
        guard let position = controllers.position(of: serial) else { return }
        controllers[at: position].removal = Removal(kind: kind, time: time, ordinal: ordinal)
    }

    // MARK: - Callbacks

    /// The one fold of a callback event, from a record (`EventRecord`): controllers as serials, `refs` consulted
    /// only for a first sight or a diagnostic.
    ///
    /// - Parameter endsAtOnce: The record is a begin whose end is the very next event (folded by
    ///   `applyImmediateEnd`): the callback is not pushed on the stacks, since that end would pop it at once.
    @inline(__always)
    private mutating func applyCallback<R: ControllerRefSource>(_ record: CallbackFacts, _ refs: R, endsAtOnce: Bool = false) {
        let time = record.timestamp
        let ordinal = record.ordinal
        let serial = record.controller
        let callback = record.callback
        let position = touch(serial, slot: record.controllerSlot, refs, time, ordinal, what: "\(callback.name) \(record.phase)")
        if record.parent == .controller {
            _ = touch(record.parentSerial, slot: record.parentSlot, refs, time, ordinal, what: "named as parent in \(callback.name)")
        }
        let active = ActiveCallback(callback, serial: serial, since: time, ordinal: ordinal, isInstant: record.phase == .instant)
        switch record.phase {
        case .end:
            // Whether a begin was found, and the callback still executing inside it if it was not the innermost.
            var found = false
            var inner: ActiveCallback?
            let stackCount = controllers[at: position].callbacks.count
            if stackCount > 0, controllers[at: position].callbacks[stackCount - 1].isCallback(callback, of: serial) {
                // The common case: the innermost callback ends.
                found = true
                controllers[at: position].callbacks.removeLast()
            } else if let index = controllers[at: position].callbacks.lastIndex(where: { $0.isCallback(callback, of: serial) }) {
                found = true
                let count = controllers[at: position].callbacks.count
                if index == count - 1 {
                    controllers[at: position].callbacks.removeLast()
                } else {
                    inner = controllers[at: position].callbacks[count - 1]
                    controllers[at: position].callbacks.remove(at: index)
                }
            }
            if found {
                if let inner {
                    report(.unbalancedEnd, ordinal, time, refs.controllerRef(slot: record.controllerSlot), "\(callback.name) ended while \(inner.name) (begun at event \(inner.ordinal)) is still executing")
                }
                if let last = executing.last, last.isCallback(callback, of: serial) {
                    executing.removeLast()
                } else if let index = executing.lastIndex(where: { $0.isCallback(callback, of: serial) }) {
                    executing.remove(at: index)
                }
                if callback == .deinitialize { compactDead(serial) }
            } else {
                report(.unbalancedEnd, ordinal, time, refs.controllerRef(slot: record.controllerSlot), "\(callback.name) end without a begin; applied as an instant")
                lastCallback = active
                takeEffect(of: record, position, refs)
                if callback == .deinitialize { compactDead(serial) }
            }
        case .begin, .instant:
            let isBegin = record.phase == .begin
            let pushes = isBegin && !endsAtOnce
            if pushes { controllers[at: position].callbacks.append(active) }
            lastCallback = active
            if pushes { executing.append(active) }
            takeEffect(of: record, position, refs)
            if !isBegin, callback == .deinitialize { compactDead(serial) }
        }
    }

    /// The end of a callback (not deinit) whose begin was the event just before it, folded with `endsAtOnce`:
    /// what `applyCallback` does for that end (the begin it pops was never pushed, so the stacks stay as they are).
    @inline(__always)
    private mutating func applyImmediateEnd<R: ControllerRefSource>(_ record: CallbackFacts, _ refs: R) {
        let time = record.timestamp
        let ordinal = record.ordinal
        let callback = record.callback
        _ = touch(record.controller, slot: record.controllerSlot, refs, time, ordinal, what: "\(callback.name) \(record.phase)")
        if record.parent == .controller {
            _ = touch(record.parentSerial, slot: record.parentSlot, refs, time, ordinal, what: "named as parent in \(callback.name)")
        }
    }

    /// A controller's deinit ended: callbacks left on its stack are dropped, its serial joins `deadSerials`, and
    /// its record is retained until `retainedDeadLimit` later deaths push it out (the record of the controller
    /// `lastCallback` names is kept one more death, so the latest callback can always be named).
    mutating func compactDead(_ serial: UInt32) {
        guard let position = controllers.position(of: serial) else { return }
        let hadCallbacks = !controllers[at: position].callbacks.isEmpty
        // Capacity kept: the record is reused (`ControllerTable.insertNew`) once evicted, buffers and all.
        if hadCallbacks { controllers[at: position].callbacks.removeAll(keepingCapacity: true) }
        if hadCallbacks {
            executing.removeAll { $0.isOf(serial) }
        }
        deadSerials.insert(serial)
        // At most once there (every append is preceded by this removal).
        if let index = retainedDead.firstIndex(of: serial) { retainedDead.remove(at: index) }
        retainedDead.append(serial)
        if retainedDead.count > Self.retainedDeadLimit {
            let named = lastCallback?.controllerSerial
            let oldest = retainedDead.remove(at: retainedDead.count > 1 && retainedDead[0] == named ? 1 : 0)
            if let oldestPosition = controllers.position(of: oldest), !controllers[at: oldestPosition].isAlive {
                // Callbacks begun after its deinit leave `executing` with the record, so that every callback there
                // belongs to a controller the state still holds.
                if !controllers[at: oldestPosition].callbacks.isEmpty { executing.removeAll { $0.isOf(oldest) } }
                controllers.remove(oldest)
            }
        }
    }

    private mutating func takeEffect<R: ControllerRefSource>(of record: CallbackFacts, _ position: Int, _ refs: R) {
        let serial = record.controller
        let callback = record.callback
        let time = record.timestamp
        let ordinal = record.ordinal
        switch callback {
        case .initialize, .loadView, .viewDidLoad, .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear,
             .viewIsAppearing, .viewWillLayoutSubviews, .viewDidLayoutSubviews, .deinitialize, .viewDidUnload:
            if let anomaly = controllers[at: position].applyLocal(callback, time, ordinal) {
                report(anomaly.kind, ordinal, time, refs.controllerRef(slot: record.controllerSlot), anomaly.message)
            }
            if callback == .viewDidAppear, !transitions.isEmpty {
                // A sheet that appears again was not dismissed: the swipe-down was abandoned.
                transitions.removeAll { $0.kind == .sheetDismiss && $0.from == serial }
            }
        case .didMoveToParent:
            switch record.parent {
            case .none:
                unlink(serial)
                if controllers[at: position].removal == nil { setRemoval(serial, .movedToNilParent, time, ordinal) }
            case .controller:
                link(serial, to: record.parentSerial)
                controllers[at: position].removal = nil
            case .absent:
                break
            }
        case .willMoveToParent, .didReceiveMemoryWarning, .viewWillTransition:
            break
        }
    }

    /// One step of the appearance machine (DESIGN.md §2). From `unknown` the first callback settles the state
    /// without a diagnostic (a first viewWillDisappear means the controller was appeared).
    static func appearanceStep(from state: Appearance, _ callback: Callback) -> (next: Appearance, anomaly: (kind: Diagnostic.Kind, message: String)?) {
        switch (state, callback) {
        case (.unknown, .viewWillAppear): return (.appearing, nil)
        case (.unknown, .viewDidAppear): return (.appeared, nil)
        case (.unknown, .viewWillDisappear): return (.disappearing, nil)
        case (.unknown, .viewDidDisappear): return (.disappeared, nil)

        case (.disappeared, .viewWillAppear): return (.appearing, nil)
        case (.disappeared, .viewDidAppear): return (.appeared, (.didWithoutWill, "viewDidAppear without viewWillAppear (was disappeared)"))
        case (.disappeared, .viewWillDisappear): return (.disappearing, (.willFromWrongState, "viewWillDisappear while disappeared"))
        case (.disappeared, .viewDidDisappear): return (.disappeared, (.duplicateDidDisappear, "viewDidDisappear while already disappeared"))

        case (.appearing, .viewWillAppear): return (.appearing, (.repeatedWill, "viewWillAppear again while appearing, without viewDidAppear"))
        case (.appearing, .viewDidAppear): return (.appeared, nil)
        case (.appearing, .viewWillDisappear): return (.disappearing, nil)  // legal cancellation
        case (.appearing, .viewDidDisappear): return (.disappeared, (.didWithoutWill, "viewDidDisappear without viewWillDisappear (was appearing)"))

        case (.appeared, .viewWillAppear): return (.appearing, (.willFromWrongState, "viewWillAppear while appeared"))
        case (.appeared, .viewDidAppear): return (.appeared, (.duplicateDidAppear, "viewDidAppear while already appeared"))
        case (.appeared, .viewWillDisappear): return (.disappearing, nil)
        case (.appeared, .viewDidDisappear): return (.disappeared, (.didWithoutWill, "viewDidDisappear without viewWillDisappear (was appeared)"))

        case (.disappearing, .viewWillAppear): return (.appearing, nil)  // legal cancellation
        case (.disappearing, .viewDidAppear): return (.appeared, (.didWithoutWill, "viewDidAppear without viewWillAppear (was disappearing)"))
        case (.disappearing, .viewWillDisappear): return (.disappearing, (.repeatedWill, "viewWillDisappear again while disappearing, without viewDidDisappear"))
        case (.disappearing, .viewDidDisappear): return (.disappeared, nil)

        default: return (state, nil)
        }
    }

    // MARK: - App and scenes

    private mutating func applyApp(_ event: AppEvent, _ time: UInt64, _ ordinal: UInt64) {
        applyApp(event, sceneIndex: SceneNames.shared.index(of: event.scene), time, ordinal)
    }

    /// Folds record `index` of a batch (`RecordBatch.records`, and `events` for a record of kind `.other`) with
    /// ordinal `ordinal`: an app record with its scene interned once per frame string slot (`sceneIndexes`), any
    /// other standard record from the frame's tables, an `.other` record as its `Event`. The batch loops' common
    /// step (`applyRest`, `fold(_:_:end:…)`).
    @inline(__always)
    mutating func applyBatchRecord<T: RecordTables>(
        _ index: Int, _ records: [EventRecord], _ events: RecordBatch.OtherEvents, ordinal: UInt64, _ tables: T,
        sceneIndexes: inout [UInt32]
    ) {
        let record = records[index]
        if record.kind == .app {
            applyAppRecord(record, tables, sceneIndexes: &sceneIndexes)
        } else if record.kind != .other {
            applyRecord(record, tables)
        } else if let event = events[index] {
            apply(event, ordinal: ordinal)
        }
    }

    /// An `.app` record of `applyRest`'s batch, its scene interned once per frame string slot (`sceneIndexes`:
    /// the `SceneNames` index by slot, 0 when not yet looked up).
    mutating func applyAppRecord<T: RecordTables>(_ record: EventRecord, _ tables: T, sceneIndexes: inout [UInt32]) {
        let time = record.timestamp
        let ordinal = record.ordinal
        advance(to: time, ordinal)
        let (scene, sceneIndex) = Self.internScene(of: record, tables, &sceneIndexes)
        applyApp(AppEvent(record.appTransition ?? .didFinishLaunching, record.phase, scene: scene), sceneIndex: sceneIndex, time, ordinal)
    }

    /// The scene of the `.app` record `record` (`nil` for an app delegate callback) and its `SceneNames` index,
    /// interned once per frame string slot (`sceneIndexes`: the index by slot, 0 when not yet looked up).
    @inline(__always)
    static func internScene<T: RecordTables>(of record: EventRecord, _ tables: T, _ sceneIndexes: inout [UInt32]) -> (String?, UInt32) {
        guard record.stringSlot != EventRecord.noString else { return (nil, 0) }
        let name = tables.string(atSlot: record.stringSlot)
        let slot = Int(record.stringSlot)
        if slot < sceneIndexes.count, sceneIndexes[slot] != 0 { return (name, sceneIndexes[slot]) }
        let sceneIndex = SceneNames.shared.index(of: name)
        if slot < 1 << 16 {
            if slot >= sceneIndexes.count { sceneIndexes.append(contentsOf: repeatElement(0, count: slot + 1 - sceneIndexes.count)) }
            sceneIndexes[slot] = sceneIndex
        }
        return (name, sceneIndex)
    }

    /// The one fold of an app or scene delegate callback; `sceneIndex` is `event.scene` interned (`SceneNames`).
    mutating func applyApp(_ event: AppEvent, sceneIndex: UInt32, _ time: UInt64, _ ordinal: UInt64) {
        let active = ActiveCallback(event.transition, sceneIndex: sceneIndex, since: time, ordinal: ordinal, isInstant: event.phase == .instant)
        switch event.phase {
        case .end:
            if let index = appCallbacks.lastIndex(where: { $0.isApp(event.transition, sceneIndex: sceneIndex) }) {
                // The innermost ends, most of the time: `removeLast` is inlined, `remove(at:)` is a call.
                if index == appCallbacks.count - 1 { appCallbacks.removeLast() } else { appCallbacks.remove(at: index) }
                if let index = executing.lastIndex(where: { $0.isApp(event.transition, sceneIndex: sceneIndex) }) {
                    if index == executing.count - 1 { executing.removeLast() } else { executing.remove(at: index) }
                }
            } else {
                report(.unbalancedEnd, ordinal, time, nil, "\(event.delegateMethodName) end without a begin; applied as an instant")
                lastAppCallback = active
                lastCallback = active
                applyRunState(event)
            }
        case .begin, .instant:
            lastAppCallback = active
            lastCallback = active
            if event.phase == .begin {
                appCallbacks.append(active)
                executing.append(active)
            }
            applyRunState(event)
        }
    }

    private mutating func applyRunState(_ event: AppEvent) {
        guard let next = RunState(after: event.transition) else { return }
        guard let scene = event.scene else {
            app = next
            return
        }
        // A trace has a handful of scenes: found by comparing keys (no hashing), written in place, and the most
        // foreground state taken in the same pass over the few values.
        var found: Dictionary<String, RunState>.Index?
        if scenes.count <= 8 {
            var index = scenes.startIndex
            while index != scenes.endIndex {
                if scenes[index].key == scene {
                    found = index
                    break
                }
                scenes.formIndex(after: &index)
            }
        } else {
            found = scenes.index(forKey: scene)
        }
        if let found {
            scenes.values[found] = next
        } else {
            scenes[scene] = next
        }
        if event.transition == .willTerminate {
            app = .terminated
            return
        }
        var best = RunState.unknown
        for state in scenes.values where state.foregroundRank > best.foregroundRank { best = state }
        if best.foregroundRank > 0 { app = best }
    }

    // MARK: - SwiftUI

    private mutating func applySwiftUI(_ event: SwiftUIEvent, _ time: UInt64, _ ordinal: UInt64) {
        let refs = SingleControllerRef(ref: event.host ?? ControllerRef(serial: 0, typeName: ""))
        applySwiftUI(event.action, view: event.view, host: event.host?.serial, slot: 0, refs, time, ordinal)
    }

    /// The one fold of a SwiftUI action; `refs` at `slot` gives the host's `ControllerRef` on first sight.
    mutating func applySwiftUI<R: ControllerRefSource>(
        _ action: SwiftUIEvent.Action, view: String, host: UInt32?, slot: UInt32, _ refs: R, _ time: UInt64, _ ordinal: UInt64
    ) {
        func update(_ views: inout [SwiftUIViewState]) {
            let index: Int
            if let found = views.firstIndex(where: { $0.view == view }) {
                index = found
            } else {
                views.append(SwiftUIViewState(view: view, isInRenderTree: false, appearCount: 0))
                index = views.count - 1
            }
            switch action {
            case .onAppear:
                views[index].isInRenderTree = true
                views[index].appearCount &+= 1
            case .onDisappear:
                views[index].isInRenderTree = false
            }
        }
        if let host {
            let position = touch(host, slot: slot, refs, time, ordinal, what: "\(view).\(action)")
            update(&controllers[at: position].swiftUIViews)
        } else {
            update(&unhostedSwiftUIViews)
        }
    }
}
