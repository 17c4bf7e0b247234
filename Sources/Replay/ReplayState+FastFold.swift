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

    /// Folds the run of callback entries from `index` on that change nothing but the controller's own record,
    /// the callback stacks, `lastCallback` and the time bookkeeping, and report nothing: the common callback,
    /// folded with the controller table reached through pointers (`ControllerTable.withFoldAccess`) instead of
    /// a lookup and a copy-on-write check per field.
    ///
    /// The state after it is exactly the general fold's (`applyCallback`, and `applyImmediateEnd` for a begin
    /// whose very next event is its own end): an entry is taken only when the general fold would neither report
    /// a diagnostic nor touch anything else: its controller is known and alive, it names no parent controller,
    /// it is not deinit or `didMove(toParent:)`, its time does not go backwards, the appearance step is legal,
    /// viewDidLoad runs for the first time, viewDidAppear finds no transition in flight, an end finds its begin
    /// on top of the controller's stack. It stops before the first entry that is not taken.
    ///
    /// - Parameters:
    ///   - entries: The batch's entries; `index` is the next one to fold (its ordinal is at least the replay's
    ///     starting ordinal), and is left at the first entry not folded.
    ///   - first: The ordinal of `entries[0]`.
    ///   - instant: The replay stops before the first event after this timestamp, when given.
    mutating func foldQuietCallbacks(
        _ entries: RecordBatch.Entries, _ index: inout Int, first: UInt64, until instant: UInt64?
    ) -> QuietRunEnd {
        guard !controllers.isEmpty, startTime != nil, var now = time else { return .general }
        let limit = instant ?? UInt64.max
        let transitionsInFlight = !transitions.isEmpty
        return withUnsafeMutablePointer(to: &self) { me in
            me.pointee.controllers.withFoldAccess { table -> QuietRunEnd in
                var count = me.pointee.eventCount
                defer {
                    me.pointee.time = now
                    me.pointee.eventCount = count
                }
                while index < entries.count {
                    let entry = entries[index]
                    if entry.isRecord { return .general }
                    if entry.timestamp > limit { return .instant }
                    let code = entry.callbackCode
                    guard entry.timestamp >= now, code <= Callback.didMoveToParent.rawValue, code != Callback.deinitialize.rawValue,
                          code != Callback.didMoveToParent.rawValue, entry.parentCode != EventRecord.Parent.controller.rawValue,
                          let position = table.position(of: entry.serial)
                    else { return .general }
                    let state = table.states + position
                    guard state.pointee.deinitTime == nil, state.pointee.processEndTime == nil else { return .general }
                    let serial = entry.serial
                    let ordinal = first &+ UInt64(index)
                    switch entry.phaseCode {
                    case Phase.end.rawValue:
                        let depth = state.pointee.callbacks.count
                        guard depth > 0, state.pointee.callbacks[depth - 1].isCallback(code, of: serial) else { return .general }
                        state.pointee.callbacks.removeLast()
                        Self.popExecuting(&me.pointee.executing, code, serial)
                        now = entry.timestamp
                        count &+= 1
                        me.pointee.lastOrdinal = ordinal
                        index += 1
                    case Phase.begin.rawValue:
                        // A begin whose very next event is its own end (`applyRest`'s pair): neither is pushed.
                        var pairs = false
                        if index + 1 < entries.count {
                            let next = entries[index + 1]
                            if !next.isRecord, next.phaseCode == Phase.end.rawValue, next.serial == serial, next.callbackCode == code,
                               next.timestamp <= limit {
                                // The general fold pairs these too; what it does for them the quiet path does not.
                                guard next.parentCode != EventRecord.Parent.controller.rawValue, next.timestamp >= entry.timestamp else {
                                    return .general
                                }
                                pairs = true
                            }
                        }
                        guard Self.quietEffect(code, state, entry.timestamp, transitionsInFlight: transitionsInFlight) else { return .general }
                        let active = ActiveCallback(code, serial: serial, since: entry.timestamp, ordinal: ordinal, isInstant: false)
                        me.pointee.lastCallback = active
                        if pairs {
                            let next = entries[index + 1]
                            now = next.timestamp
                            count &+= 2
                            me.pointee.lastOrdinal = ordinal &+ 1
                            index += 2
                        } else {
                            state.pointee.callbacks.append(active)
                            me.pointee.executing.append(active)
                            now = entry.timestamp
                            count &+= 1
                            me.pointee.lastOrdinal = ordinal
                            index += 1
                        }
                    case Phase.instant.rawValue:
                        guard Self.quietEffect(code, state, entry.timestamp, transitionsInFlight: transitionsInFlight) else { return .general }
                        me.pointee.lastCallback = ActiveCallback(code, serial: serial, since: entry.timestamp, ordinal: ordinal, isInstant: true)
                        now = entry.timestamp
                        count &+= 1
                        me.pointee.lastOrdinal = ordinal
                        index += 1
                    default:
                        return .general
                    }
                }
                return .general
            }
        }
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

    /// `takeEffect` of a begin or instant of `code` (not deinit, not didMove(toParent:)) on the record at
    /// `state`, when it reports nothing and touches nothing else; `false`, with the record untouched, when it
    /// would (the general fold then takes the event).
    @inline(__always)
    private static func quietEffect(_ code: UInt8, _ state: UnsafeMutablePointer<ControllerState>, _ time: UInt64, transitionsInFlight: Bool) -> Bool {
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
        default:
            // didReceiveMemoryWarning, viewWillTransition, willMove(toParent:): no effect of their own.
            break
        }
        return true
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
