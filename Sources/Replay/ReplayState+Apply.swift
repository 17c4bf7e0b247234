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
        if let previous = self.time, time < previous {
            report(.timeWentBackwards, ordinal, time, nil, "timestamp \(time) ns is before the previous event's \(previous) ns")
        }
        if startTime == nil { startTime = time }
        self.time = time
        eventCount &+= 1
        lastOrdinal = ordinal
        switch event.payload {
        case .callback(let callback): applyCallback(callback, time, ordinal)
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

    // MARK: - Shared helpers

    mutating func report(_ kind: Diagnostic.Kind, _ ordinal: UInt64, _ time: UInt64, _ controller: ControllerRef?, _ message: String) {
        diagnostics.append(Diagnostic(kind: kind, ordinal: ordinal, time: time, controller: controller, message: message))
    }

    /// Makes sure `ref` has a record; reports `eventAfterDeinit` when it is dead (its deinit has ended).
    mutating func touch(_ ref: ControllerRef, _ time: UInt64, _ ordinal: UInt64, what: @autoclosure () -> String) {
        guard let index = controllers.index(forKey: ref.serial) else {
            if !deadSerials.isEmpty, deadSerials.contains(ref.serial) {
                report(.eventAfterDeinit, ordinal, time, ref, "\(what()) after deinit (record no longer kept; starting a new one)")
            }
            controllers[ref.serial] = ControllerState(ref: ref, firstSeen: time, ordinal: ordinal)
            return
        }
        let isDead = Self.inPlace(&controllers.values[index]) { c in
            (c.deinitTime != nil && !c.callbacks.contains(where: { $0.callback == .deinitialize })) || c.processEndTime != nil
        }
        if isDead {
            let ended = controllers[ref.serial]!.deinitTime == nil
            report(.eventAfterDeinit, ordinal, time, ref, "\(what()) after \(ended ? "its process ended" : "deinit")")
        }
    }

    /// Runs `body` on a value in place (through a `_modify` access, so reading a field does not copy the whole
    /// controller record, as a dictionary subscript's getter would).
    @inline(__always)
    static func inPlace<T, R>(_ value: inout T, _ body: (inout T) -> R) -> R {
        body(&value)
    }

    /// Makes `child` a child of `parent`, unlinking it from a previous parent.
    mutating func link(_ child: UInt32, to parent: UInt32) {
        guard child != parent, controllers.index(forKey: child) != nil else { return }
        let old = Self.inPlace(&controllers[child]!) { c -> UInt32? in
            let old = c.parent.serial
            c.parent = .controller(parent)
            return old
        }
        if let old, old != parent {
            controllers[old]?.children.removeAll { $0 == child }
        }
        if controllers.index(forKey: parent) != nil {
            Self.inPlace(&controllers[parent]!) { p in
                if !p.children.contains(child) { p.children.append(child) }
            }
        }
    }

    /// Detaches `child` from its parent, if it has one.
    mutating func unlink(_ child: UInt32) {
        guard controllers.index(forKey: child) != nil else { return }
        let old = Self.inPlace(&controllers[child]!) { c -> UInt32? in
            let old = c.parent.serial
            c.parent = .none
            return old
        }
        if let old {
            controllers[old]?.children.removeAll { $0 == child }
        }
    }

    mutating func setRemoval(_ serial: UInt32, _ kind: Removal.Kind, _ time: UInt64, _ ordinal: UInt64) {
        controllers[serial]?.removal = Removal(kind: kind, time: time, ordinal: ordinal)
    }

    // MARK: - Callbacks

    private mutating func applyCallback(_ event: CallbackEvent, _ time: UInt64, _ ordinal: UInt64) {
        let ref = event.controller
        let serial = ref.serial
        touch(ref, time, ordinal, what: "\(event.callback.name) \(event.phase)")
        if let parent = event.parent?.controller {
            touch(parent, time, ordinal, what: "named as parent in \(event.callback.name)")
        }
        let active = ActiveCallback(
            kind: .controller(event.callback), controller: ref, since: time, ordinal: ordinal, isInstant: event.phase == .instant
        )
        switch event.phase {
        case .end:
            // Whether a begin was found, and the callback still executing inside it if it was not the innermost.
            let outcome: (found: Bool, inner: ActiveCallback?) = Self.inPlace(&controllers[serial]!) { c in
                guard let index = c.callbacks.lastIndex(where: { $0.callback == event.callback }) else { return (false, nil) }
                let inner = index == c.callbacks.count - 1 ? nil : c.callbacks[c.callbacks.count - 1]
                c.callbacks.remove(at: index)
                return (true, inner)
            }
            if outcome.found {
                if let inner = outcome.inner {
                    report(.unbalancedEnd, ordinal, time, ref, "\(event.callback.name) ended while \(inner.name) (begun at event \(inner.ordinal)) is still executing")
                }
                removeExecuting { $0.callback == event.callback && $0.controller?.serial == serial }
                if event.callback == .deinitialize { compactDead(serial) }
            } else {
                report(.unbalancedEnd, ordinal, time, ref, "\(event.callback.name) end without a begin; applied as an instant")
                lastCallback = active
                takeEffect(of: event, time, ordinal)
                if event.callback == .deinitialize { compactDead(serial) }
            }
        case .begin, .instant:
            let isBegin = event.phase == .begin
            if isBegin { controllers[serial]!.callbacks.append(active) }
            lastCallback = active
            if isBegin { executing.append(active) }
            takeEffect(of: event, time, ordinal)
            if !isBegin, event.callback == .deinitialize { compactDead(serial) }
        }
    }

    private mutating func removeExecuting(where matches: (ActiveCallback) -> Bool) {
        if let index = executing.lastIndex(where: matches) { executing.remove(at: index) }
    }

    /// A controller's deinit ended: callbacks left on its stack are dropped, its serial joins `deadSerials`, and
    /// its record is retained until `retainedDeadLimit` later deaths push it out.
    mutating func compactDead(_ serial: UInt32) {
        guard controllers.index(forKey: serial) != nil else { return }
        let hadCallbacks = Self.inPlace(&controllers[serial]!) { c -> Bool in
            defer { c.callbacks.removeAll() }
            return !c.callbacks.isEmpty
        }
        if hadCallbacks {
            executing.removeAll { $0.controller?.serial == serial }
        }
        deadSerials.insert(serial)
        retainedDead.removeAll { $0 == serial }
        retainedDead.append(serial)
        if retainedDead.count > Self.retainedDeadLimit {
            let oldest = retainedDead.removeFirst()
            if controllers.index(forKey: oldest) != nil, Self.inPlace(&controllers[oldest]!, { !$0.isAlive }) {
                controllers[oldest] = nil
            }
        }
    }

    private mutating func takeEffect(of event: CallbackEvent, _ time: UInt64, _ ordinal: UInt64) {
        let serial = event.controller.serial
        let callback = event.callback
        switch callback {
        case .initialize, .loadView, .viewDidLoad, .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear,
             .viewIsAppearing, .viewWillLayoutSubviews, .viewDidLayoutSubviews, .deinitialize:
            let anomaly = Self.inPlace(&controllers[serial]!) { c in c.applyLocal(callback, time, ordinal) }
            if let anomaly {
                report(anomaly.kind, ordinal, time, event.controller, anomaly.message)
            }
            if callback == .viewDidAppear, !transitions.isEmpty {
                // A sheet that appears again was not dismissed: the swipe-down was abandoned.
                transitions.removeAll { $0.kind == .sheetDismiss && $0.from == serial }
            }
        case .didMoveToParent:
            switch event.parent {
            case .none?:
                unlink(serial)
                let needsRemoval = Self.inPlace(&controllers[serial]!) { $0.removal == nil }
                if needsRemoval { setRemoval(serial, .movedToNilParent, time, ordinal) }
            case .controller(let parent)?:
                link(serial, to: parent.serial)
                controllers[serial]!.removal = nil
            case nil:
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
        let active = ActiveCallback(
            kind: .app(event.transition), controller: nil, scene: event.scene, since: time, ordinal: ordinal, isInstant: event.phase == .instant
        )
        switch event.phase {
        case .end:
            if let index = appCallbacks.lastIndex(where: { $0.appTransition == event.transition && $0.scene == event.scene }) {
                appCallbacks.remove(at: index)
                removeExecuting { $0.controller == nil && $0.appTransition == event.transition && $0.scene == event.scene }
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
        scenes[scene] = next
        if event.transition == .willTerminate {
            app = .terminated
            return
        }
        let best = scenes.values.max { $0.foregroundRank < $1.foregroundRank }
        if let best, best.foregroundRank > 0 { app = best }
    }

    // MARK: - SwiftUI

    private mutating func applySwiftUI(_ event: SwiftUIEvent, _ time: UInt64, _ ordinal: UInt64) {
        func update(_ views: inout [SwiftUIViewState]) {
            let index: Int
            if let found = views.firstIndex(where: { $0.view == event.view }) {
                index = found
            } else {
                views.append(SwiftUIViewState(view: event.view, isInRenderTree: false, appearCount: 0))
                index = views.count - 1
            }
            switch event.action {
            case .onAppear:
                views[index].isInRenderTree = true
                views[index].appearCount &+= 1
            case .onDisappear:
                views[index].isInRenderTree = false
            }
        }
        if let host = event.host {
            touch(host, time, ordinal, what: "\(event.view).\(event.action)")
            update(&controllers[host.serial]!.swiftUIViews)
        } else {
            update(&unhostedSwiftUIViews)
        }
    }
}
