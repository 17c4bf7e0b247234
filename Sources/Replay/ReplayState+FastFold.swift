import TraceLog
import TraceModel

extension ReplayState {
    /// How `foldQuietCallbacks` stopped.
    enum QuietRunEnd {
        /// At an entry the quiet path does not take (or at the end of the entries): fold it the general way.
        case general
        /// At an entry whose timestamp is after the `until` instant.
        case instant
    }

    /// Folds the run of callback entries (with the marks without an effect and the ends of the innermost app
    /// callback between them) from `index` on that change nothing but the records of the controller (and, for
    /// `didMove(toParent:)`, of its old and new parents), the callback stacks, `lastCallback` and the time
    /// bookkeeping, and report nothing: the common callback, folded with the controller table reached through
    /// pointers (`ControllerTable.foldAccess()`) instead of a lookup and a copy-on-write check per field.
    ///
    /// The other marks, app and scene callbacks and SwiftUI actions whose controller, if they name one, has a
    /// record and is alive do not end the run either: they are folded where they stand by the general functions
    /// (`applyMark`, `applyApp`, `applySwiftUI`, with `lastCallback` brought up to date first), which change
    /// records in place and never insert or remove one; the table's snapshot is taken again after each.
    ///
    /// The state after it is exactly the general fold's (`applyCallback`, and `applyImmediateEnd` for a begin
    /// whose very next event is its own end): an entry is taken only when the general fold would neither report
    /// a diagnostic nor touch anything else: its controller is known and alive, a parent argument names a known
    /// and alive controller, it is not a deinit end or instant (which compact the dead), its time does not go
    /// backwards, the appearance step is legal, viewDidLoad runs for the first time, viewDidAppear finds no
    /// transition in flight, an end finds its begin on top of the controller's stack. It stops before the first
    /// entry that is not taken. `time`, `eventCount`, `lastOrdinal` and `lastCallback` are written once, when
    /// the run ends.
    ///
    /// - Parameters:
    ///   - entries: The batch's entries; `index` is the next one to fold (its ordinal is at least the replay's
    ///     starting ordinal), and is left at the first entry not folded.
    ///   - records: The batch's records (`RecordBatch.records`), which record entries index.
    ///   - sceneIndexes: `applyAppRecord`'s interned scenes by frame string slot (0: not interned yet); only read
    ///     (`inout` so that a call does not retain and release it).
    ///   - first: The ordinal of `entries[0]`.
    ///   - instant: The replay stops before the first event after this timestamp, when given.
    ///   - refs: The frame's tables, for the records folded by the general functions.
    @inline(__always)
    mutating func foldQuietCallbacks(
        _ entries: RecordBatch.Entries, _ records: [EventRecord], sceneIndexes: inout [UInt32], _ index: inout Int, first: UInt64,
        until instant: UInt64?, _ refs: CursorRefs
    ) -> QuietRunEnd {
        if let instant {
            return foldQuietCallbacks(entries, records, sceneIndexes: &sceneIndexes, &index, first: first, limit: InstantLimit(instant: instant), refs)
        }
        return foldQuietCallbacks(entries, records, sceneIndexes: &sceneIndexes, &index, first: first, limit: NoLimit(), refs)
    }

    /// `foldQuietCallbacks(_:_:sceneIndexes:_:first:until:_:)` with the instant given as `limit`.
    mutating func foldQuietCallbacks<L: QuietLimit>(
        _ entries: RecordBatch.Entries, _ records: [EventRecord], sceneIndexes: inout [UInt32], _ index: inout Int, first: UInt64,
        limit: L, _ refs: CursorRefs
    ) -> QuietRunEnd {
        guard !controllers.isEmpty, startTime != nil, let start = time, index < entries.count else { return .general }
        // Time going backwards is reported by the general fold. A batch's timestamps never decrease (they are its
        // frame's, sums of unsigned deltas), so only the run's first entry can be before the state's time.
        guard entries.timestamp(at: index) >= start else { return .general }
        let transitionsInFlight = !transitions.isEmpty
        let firstIndex = index
        let count = entries.count
        // The entry whose callback becomes `lastCallback` (the last begin or instant taken), -1 for none.
        var lastActive = -1

        defer {
            if index != firstIndex {
                time = entries.timestamp(at: index &- 1)
                eventCount &+= UInt64(index &- firstIndex)
                lastOrdinal = first &+ UInt64(index &- 1)
                if lastActive >= 0 { lastCallback = Self.activeCallback(entries, lastActive, first: first) }
            }
        }
        // No insertion or removal happens in the run, so the snapshot stays valid until a record is folded by the
        // general functions, which write through `controllers`; it is taken again after each (in the outer loop,
        // so that the inner loop's snapshot is a constant, not a variable kept across its iterations).
        snapshot: while true {
            let table = controllers.foldAccess()
            // Each entry is read by column (its word, its time, its parent only when it has one): the gathered `Entry`
            // would load every column.
            run: while index < count {
                let word = entries.word(at: index)
                let timestamp = entries.timestamp(at: index)
                if limit.isPast(timestamp) { return .instant }
                if word.isRecord {
                    // A mark that changes nothing, and the end of the innermost app callback, are taken too (only the
                    // time bookkeeping, and the pop), so that they do not cut the run.
                    let record = records[Int(word.record)]
                    if record.kind == .mark, Self.isQuietMark(record, table) {
                        index += 1
                        continue
                    }
                    if record.kind == .app, record.phase == .end, let transition = record.appTransition,
                       popInnermostApp(transition, slot: record.stringSlot, &sceneIndexes) {
                        index += 1
                        continue
                    }
                    // Any other mark, app or scene callback and SwiftUI action that neither starts a controller's record
                    // nor reports one dead (its controller, if it names one, known and alive) goes through the general
                    // functions without leaving the run: they change records in place, never insert or remove one.
                    guard Self.namesOnlyLive(record, table) else { return .general }
                    if lastActive >= 0 {
                        // `lastCallback` as the run has it so far: read by the mark fold, written by the app fold.
                        lastCallback = Self.activeCallback(entries, lastActive, first: first)
                        lastActive = -1
                    }
                    guard foldRecordInRun(record, timestamp, first &+ UInt64(index), refs, sceneIndexes) else { return .general }
                    index += 1
                    // The general functions wrote through `controllers`: the snapshot is taken again.
                    continue snapshot
                }
                let code = word.callbackCode
                guard code <= Callback.didMoveToParent.rawValue, let position = table.position(of: word.serial) else { return .general }
                let state = table.states + position
                guard state.pointee.deinitTime == nil, state.pointee.processEndTime == nil else { return .general }
                let hasParent = word.parentCode == EventRecord.Parent.controller.rawValue
                if hasParent, !Self.isKnownAlive(entries.parentSerial(at: index), table) { return .general }
                let serial = word.serial
                switch word.phaseCode {
                case Phase.end.rawValue:
                    let depth = state.pointee.callbacks.count
                    guard code != Callback.deinitialize.rawValue, depth > 0, state.pointee.callbacks[depth - 1].isCallback(code, of: serial) else {
                        return .general
                    }
                    state.pointee.callbacks.removeLast()
                    Self.popExecuting(&executing, code, serial)
                    index += 1
                case Phase.begin.rawValue:
                    let ordinal = first &+ UInt64(index)
                    if code == Callback.deinitialize.rawValue {
                        // applyLocal's deinit (the record is alive, so `deinitTime` is nil); never paired with its end,
                        // whose liveness check looks for deinit on the stack.
                        state.pointee.deinitTime = timestamp
                        state.pointee.deinitOrdinal = ordinal
                        let active = ActiveCallback(code, serial: serial, since: timestamp, ordinal: ordinal, isInstant: false)
                        state.pointee.callbacks.append(active)
                        executing.append(active)
                        lastActive = index
                        index += 1
                        continue
                    }
                    // A begin whose very next event is its own end (`applyRest`'s pair): neither is pushed.
                    var pairs = false
                    if index + 1 < count {
                        let next = entries.word(at: index + 1)
                        if word.isSameCallback(as: next), next.phaseCode == Phase.end.rawValue {
                            if !limit.isPast(entries.timestamp(at: index + 1)) {
                                // The general fold pairs these too; what it does for them the quiet path does not.
                                if next.parentCode == EventRecord.Parent.controller.rawValue,
                                   !Self.isKnownAlive(entries.parentSerial(at: index + 1), table) {
                                    return .general
                                }
                                pairs = true
                            }
                        }
                    }
                    guard Self.quietEffect(
                        code, timestamp, state, ordinal, table, transitionsInFlight: transitionsInFlight,
                        parent: word.parentCode, parentSerial: hasParent ? entries.parentSerial(at: index) : 0, serial: serial
                    ) else { return .general }
                    lastActive = index
                    if pairs {
                        index += 2
                    } else {
                        let active = ActiveCallback(code, serial: serial, since: timestamp, ordinal: ordinal, isInstant: false)
                        state.pointee.callbacks.append(active)
                        executing.append(active)
                        index += 1
                    }
                case Phase.instant.rawValue:
                    guard code != Callback.deinitialize.rawValue,
                          Self.quietEffect(
                            code, timestamp, state, first &+ UInt64(index), table, transitionsInFlight: transitionsInFlight,
                            parent: word.parentCode, parentSerial: hasParent ? entries.parentSerial(at: index) : 0, serial: serial
                          )
                    else { return .general }
                    lastActive = index
                    index += 1
                default:
                    return .general
                }
            }
            return .general
        }
    }

    /// Folds `record` (a mark, app or scene callback or SwiftUI action for which `namesOnlyLive` holds) at `time`
    /// with ordinal `ordinal` by the general functions, inside a run (out of line: inlined, it made the run's loop
    /// longer for every callback). `false`, with nothing changed, for an app record whose scene the frame has not
    /// interned yet (`sceneIndexes`, only read): the general fold interns it.
    @inline(never)
    private mutating func foldRecordInRun(
        _ record: EventRecord, _ time: UInt64, _ ordinal: UInt64, _ refs: CursorRefs, _ sceneIndexes: borrowing [UInt32]
    ) -> Bool {
        switch record.kind {
        case .mark:
            applyMark(RecordMark(record: record, tables: refs), time, ordinal)
        case .app:
            var scene: String?
            var sceneIndex: UInt32 = 0
            if record.stringSlot != EventRecord.noString {
                let slot = Int(record.stringSlot)
                guard slot < sceneIndexes.count, sceneIndexes[slot] != 0 else { return false }
                sceneIndex = sceneIndexes[slot]
                scene = refs.string(atSlot: record.stringSlot)
            }
            applyApp(AppEvent(record.appTransition ?? .didFinishLaunching, record.phase, scene: scene), sceneIndex: sceneIndex, time, ordinal)
        default:
            applySwiftUI(
                record.swiftUIAction ?? .onAppear, view: refs.string(atSlot: record.stringSlot),
                host: record.hasController ? record.controller : nil, slot: record.controllerSlot, refs, time, ordinal
            )
        }
        return true
    }

    /// The callback of the callback entry `entries[index]` (a begin or an instant), as `lastCallback` holds it.
    @inline(__always)
    private static func activeCallback(_ entries: RecordBatch.Entries, _ index: Int, first: UInt64) -> ActiveCallback {
        let word = entries.word(at: index)
        return ActiveCallback(
            word.callbackCode, serial: word.serial, since: entries.timestamp(at: index), ordinal: first &+ UInt64(index),
            isInstant: word.phaseCode == Phase.instant.rawValue
        )
    }

    /// Whether `record` is a mark, an app or scene callback or a SwiftUI action whose controller (a mark's, or a
    /// SwiftUI action's host), if it names one, has a record and is alive: its fold then neither inserts a record
    /// nor reports an event after deinit.
    @inline(__always)
    private static func namesOnlyLive(_ record: EventRecord, _ table: ControllerTable.FoldAccess) -> Bool {
        switch record.kind {
        case .mark, .swiftUI:
            return !record.hasController || isKnownAlive(record.controller, table)
        case .app:
            return true
        case .callback, .container, .other:
            return false
        }
    }

    /// `applyApp`'s end of `transition` (its scene the frame's string `slot`, interned in `sceneIndexes` by
    /// `applyAppRecord`) when the callback it ends is the innermost of both `appCallbacks` and `executing`: pops
    /// both and returns `true`; otherwise changes nothing and returns `false` (the general fold takes the event,
    /// as it does when the scene was not interned yet). `sceneIndexes` is only read.
    @inline(__always)
    private mutating func popInnermostApp(_ transition: AppTransition, slot: UInt32, _ sceneIndexes: inout [UInt32]) -> Bool {
        var sceneIndex: UInt32 = 0
        if slot != EventRecord.noString {
            let position = Int(slot)
            guard position < sceneIndexes.count, sceneIndexes[position] != 0 else { return false }
            sceneIndex = sceneIndexes[position]
        }
        guard let app = appCallbacks.last, app.isApp(transition, sceneIndex: sceneIndex),
              let top = executing.last, top.isApp(transition, sceneIndex: sceneIndex)
        else { return false }
        appCallbacks.removeLast()
        executing.removeLast()
        return true
    }

    /// Whether `applyMark` of `record` changes nothing and reports nothing: a mark whose controller, if it names
    /// one, is known and alive (`touch` neither starts a record nor reports), and that is an end, a custom mark or
    /// a standard mark without an effect on the state (`analytics.screen`, `geometry.read`, `work`, …), or a
    /// `save` on that controller while it has no unsaved edit.
    @inline(__always)
    private static func isQuietMark(_ record: EventRecord, _ table: ControllerTable.FoldAccess) -> Bool {
        guard record.kind == .mark else { return false }
        var state: UnsafeMutablePointer<ControllerState>?
        if record.hasController {
            guard let position = table.position(of: record.controller) else { return false }
            let controller = table.states + position
            guard controller.pointee.deinitTime == nil, controller.pointee.processEndTime == nil else { return false }
            state = controller
        }
        guard record.phase != .end, let name = record.markName else { return true }
        switch name {
        case .save:
            // The owner is the mark's controller; clearing an empty list changes nothing.
            return state?.pointee.unsaved.isEmpty ?? false
        case .edit, .timerStart, .timerStop, .observerAdd, .observerRemove, .taskStart, .taskCancel, .requestStart, .requestCancel:
            return false
        default:
            return true
        }
    }

    /// Whether `serial` has a record and it is alive: `touch` then neither starts a record nor reports.
    @inline(__always)
    private static func isKnownAlive(_ serial: UInt32, _ table: ControllerTable.FoldAccess) -> Bool {
        guard let position = table.position(of: serial) else { return false }
        return table.states[position].deinitTime == nil && table.states[position].processEndTime == nil
    }

    /// `applyCallback`'s pop of `executing` at the end of `code` on `serial` (the innermost such entry).
    @inline(__always)
    private static func popExecuting(_ executing: inout [ActiveCallback], _ code: UInt8, _ serial: UInt32) {
        let depth = executing.count
        if depth > 0, executing[depth - 1].isCallback(code, of: serial) {
            executing.removeLast()
        } else if let index = executing.lastIndex(where: { $0.isCallback(code, of: serial) }) {
            executing.remove(at: index)
        }
    }

    /// `takeEffect` of the begin or instant of callback `code` (not deinit) at `time` with ordinal `ordinal` on the
    /// record at `state` (of `serial`; `parent` the entry's `EventRecord.Parent` raw value, `parentSerial` its
    /// controller when it names one), when it reports nothing and touches nothing but the records
    /// (`didMove(toParent:)` links and unlinks through `table`); `false`, with every record untouched, when it
    /// would (the general fold then takes the event).
    @inline(__always)
    private static func quietEffect(
        _ code: UInt8, _ time: UInt64, _ state: UnsafeMutablePointer<ControllerState>, _ ordinal: UInt64,
        _ table: ControllerTable.FoldAccess, transitionsInFlight: Bool, parent: UInt8, parentSerial: UInt32, serial: UInt32
    ) -> Bool {
        switch code {
        case Callback.initialize.rawValue:
            state.pointee.isCreatedInTrace = true
            state.pointee.isStructureKnown = true
            if state.pointee.parent == .unknown { state.pointee.parent = .none }
            settleLoaded(state, time)
        case Callback.loadView.rawValue:
            state.pointee.isViewLoaded = true
            settleLoaded(state, time)
        case Callback.viewDidLoad.rawValue:
            let loads = state.pointee.viewDidLoadCount &+ 1
            if loads > 1 { return false }
            state.pointee.isViewLoaded = true
            state.pointee.viewDidLoadCount = loads
            settleLoaded(state, time)
        case Callback.viewWillAppear.rawValue, Callback.viewDidAppear.rawValue, Callback.viewWillDisappear.rawValue,
             Callback.viewDidDisappear.rawValue:
            if code == Callback.viewDidAppear.rawValue, transitionsInFlight { return false }
            let from = state.pointee.appearance
            guard let next = quietAppearanceStep(from: from, code) else { return false }
            state.pointee.isViewLoaded = true
            if next != from || state.pointee.appearanceSince == nil { state.pointee.appearanceSince = time }
            state.pointee.appearance = next
        case Callback.viewIsAppearing.rawValue, Callback.viewWillLayoutSubviews.rawValue, Callback.viewDidLayoutSubviews.rawValue:
            state.pointee.isViewLoaded = true
        case Callback.didMoveToParent.rawValue:
            didMove(parent, parentSerial, serial, time, state, ordinal, table)
        default:
            // didReceiveMemoryWarning, viewWillTransition, willMove(toParent:): no effect of their own.
            break
        }
        return true
    }

    /// takeEffect's `didMove(toParent:)` of `serial` at `time` (its parent argument `parent`, an
    /// `EventRecord.Parent` raw value, naming `parentSerial` when a controller) on the record at `state`: `unlink`
    /// and `setRemoval`, or `link` and the removal cleared.
    @inline(never)
    private static func didMove(
        _ parent: UInt8, _ parentSerial: UInt32, _ serial: UInt32, _ time: UInt64, _ state: UnsafeMutablePointer<ControllerState>,
        _ ordinal: UInt64, _ table: ControllerTable.FoldAccess
    ) {
        switch parent {
        case EventRecord.Parent.none.rawValue:
            unlink(state, serial, table)
            if state.pointee.removal == nil { state.pointee.removal = Removal(kind: .movedToNilParent, time: time, ordinal: ordinal) }
        case EventRecord.Parent.controller.rawValue:
            link(state, serial, to: parentSerial, table)
            state.pointee.removal = nil
        default:
            break
        }
    }

    /// `ReplayState.link(_:to:)` of the record at `state` (of `child`) through `table`.
    private static func link(_ state: UnsafeMutablePointer<ControllerState>, _ child: UInt32, to parent: UInt32, _ table: ControllerTable.FoldAccess) {
        guard child != parent else { return }
        let old = state.pointee.parent.serial
        state.pointee.parent = .controller(parent)
        if let old, old != parent, let oldPosition = table.position(of: old) {
            removeChild(child, from: &table.states[oldPosition].children)
        }
        if let parentPosition = table.position(of: parent), !table.states[parentPosition].children.contains(child) {
            table.states[parentPosition].children.append(child)
        }
    }

    /// `ReplayState.unlink(_:)` of the record at `state` (of `child`) through `table`.
    private static func unlink(_ state: UnsafeMutablePointer<ControllerState>, _ child: UInt32, _ table: ControllerTable.FoldAccess) {
        let old = state.pointee.parent.serial
        state.pointee.parent = .none
        if let old, let oldPosition = table.position(of: old) {
            removeChild(child, from: &table.states[oldPosition].children)
        }
    }

    /// `ControllerState.settleLoaded` through the pointer.
    @inline(__always)
    private static func settleLoaded(_ state: UnsafeMutablePointer<ControllerState>, _ time: UInt64) {
        if state.pointee.appearance == .unknown {
            state.pointee.appearance = .disappeared
            state.pointee.appearanceSince = time
        }
    }

    /// `appearanceStep(from:_:)`'s next state when the step reports no anomaly; `nil` when it does.
    @inline(__always)
    static func quietAppearanceStep(from state: Appearance, _ code: UInt8) -> Appearance? {
        switch (state, code) {
        case (.unknown, Callback.viewWillAppear.rawValue): .appearing
        case (.unknown, Callback.viewDidAppear.rawValue): .appeared
        case (.unknown, Callback.viewWillDisappear.rawValue): .disappearing
        case (.unknown, Callback.viewDidDisappear.rawValue): .disappeared
        case (.disappeared, Callback.viewWillAppear.rawValue): .appearing
        case (.appearing, Callback.viewDidAppear.rawValue): .appeared
        case (.appearing, Callback.viewWillDisappear.rawValue): .disappearing
        case (.appeared, Callback.viewWillDisappear.rawValue): .disappearing
        case (.disappearing, Callback.viewWillAppear.rawValue): .appearing
        case (.disappearing, Callback.viewDidDisappear.rawValue): .disappeared
        default: nil
        }
    }
}

/// When a quiet run stops for time: `ReplayState.foldQuietCallbacks` is specialized for each (a replay to the end tests
/// no instant per entry).
protocol QuietLimit {
    /// Whether an event at `time` is past the instant the fold stops before.
    func isPast(_ time: UInt64) -> Bool
}

/// No instant: the run goes to the end of the entries.
struct NoLimit: QuietLimit {
    @inline(__always) func isPast(_ time: UInt64) -> Bool { false }
}

/// The fold stops before the first event after `instant`.
struct InstantLimit: QuietLimit {
    let instant: UInt64
    @inline(__always) func isPast(_ time: UInt64) -> Bool { time > instant }
}
