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
            if case .eventsDropped(let count) = recorder {
                droppedEvents &+= count
                report(.eventsDropped, ordinal, time, nil, "the recorder dropped \(count) events here; state may be incomplete")
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
        guard let existing = controllers[ref.serial] else {
            controllers[ref.serial] = ControllerState(ref: ref, firstSeen: time, ordinal: ordinal)
            return
        }
        if existing.deinitTime != nil, !existing.callbacks.contains(where: { $0.callback == .deinitialize }) {
            report(.eventAfterDeinit, ordinal, time, existing.ref, "\(what()) after deinit")
        }
    }

    /// Makes `child` a child of `parent`, unlinking it from a previous parent.
    mutating func link(_ child: UInt32, to parent: UInt32) {
        guard child != parent else { return }
        if case .controller(let old) = controllers[child]?.parent, old != parent {
            controllers[old]?.children.removeAll { $0 == child }
        }
        controllers[child]?.parent = .controller(parent)
        if controllers[parent]?.children.contains(child) == false {
            controllers[parent]?.children.append(child)
        }
    }

    /// Detaches `child` from its parent, if it has one.
    mutating func unlink(_ child: UInt32) {
        if case .controller(let old) = controllers[child]?.parent {
            controllers[old]?.children.removeAll { $0 == child }
        }
        if controllers[child] != nil { controllers[child]!.parent = .none }
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
            if let index = controllers[serial]!.callbacks.lastIndex(where: { $0.callback == event.callback }) {
                let count = controllers[serial]!.callbacks.count
                if index != count - 1 {
                    let inner = controllers[serial]!.callbacks[count - 1]
                    report(.unbalancedEnd, ordinal, time, ref, "\(event.callback.name) ended while \(inner.name) (begun at event \(inner.ordinal)) is still executing")
                }
                controllers[serial]!.callbacks.remove(at: index)
                removeExecuting { $0.controller?.serial == serial && $0.callback == event.callback }
                if event.callback == .deinitialize { compactDead(serial) }
            } else {
                report(.unbalancedEnd, ordinal, time, ref, "\(event.callback.name) end without a begin; applied as an instant")
                controllers[serial]!.lastCallback = active
                lastCallback = active
                takeEffect(of: event, time, ordinal)
                if event.callback == .deinitialize { compactDead(serial) }
            }
        case .begin, .instant:
            controllers[serial]!.lastCallback = active
            lastCallback = active
            if event.phase == .begin {
                controllers[serial]!.callbacks.append(active)
                executing.append(active)
            }
            takeEffect(of: event, time, ordinal)
            if event.phase == .instant, event.callback == .deinitialize { compactDead(serial) }
        }
    }

    private mutating func removeExecuting(where matches: (ActiveCallback) -> Bool) {
        if let index = executing.lastIndex(where: matches) { executing.remove(at: index) }
    }

    /// A dead controller keeps its record; only what cannot outlive it is cleared (callbacks still on its stack).
    private mutating func compactDead(_ serial: UInt32) {
        guard let state = controllers[serial], !state.callbacks.isEmpty else { return }
        controllers[serial]!.callbacks.removeAll()
        executing.removeAll { $0.controller?.serial == serial }
    }

    private mutating func takeEffect(of event: CallbackEvent, _ time: UInt64, _ ordinal: UInt64) {
        let serial = event.controller.serial
        switch event.callback {
        case .initialize:
            controllers[serial]!.isCreatedInTrace = true
            controllers[serial]!.isStructureKnown = true
            if controllers[serial]!.parent == .unknown { controllers[serial]!.parent = .none }
            settleLoaded(serial, time)
        case .loadView:
            controllers[serial]!.isViewLoaded = true
            settleLoaded(serial, time)
        case .viewDidLoad:
            controllers[serial]!.isViewLoaded = true
            controllers[serial]!.viewDidLoadCount &+= 1
            let count = controllers[serial]!.viewDidLoadCount
            if count > 1 {
                report(.duplicateViewDidLoad, ordinal, time, event.controller, "viewDidLoad ran \(count) times")
            }
            settleLoaded(serial, time)
        case .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear:
            controllers[serial]!.isViewLoaded = true
            applyAppearance(event.callback, serial, time, ordinal)
        case .viewIsAppearing, .viewWillLayoutSubviews, .viewDidLayoutSubviews:
            controllers[serial]!.isViewLoaded = true
        case .deinitialize:
            if controllers[serial]!.deinitTime == nil {
                controllers[serial]!.deinitTime = time
                controllers[serial]!.deinitOrdinal = ordinal
            }
        case .didMoveToParent:
            switch event.parent {
            case .none?:
                unlink(serial)
                if controllers[serial]!.removal == nil { setRemoval(serial, .movedToNilParent, time, ordinal) }
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

    /// A controller first seen by init/loadView/viewDidLoad is not on screen: its view is only now being made.
    private mutating func settleLoaded(_ serial: UInt32, _ time: UInt64) {
        if controllers[serial]!.appearance == .unknown {
            controllers[serial]!.appearance = .disappeared
            controllers[serial]!.appearanceSince = time
        }
    }

    private mutating func applyAppearance(_ callback: Callback, _ serial: UInt32, _ time: UInt64, _ ordinal: UInt64) {
        let current = controllers[serial]!.appearance
        let outcome = Self.appearanceStep(from: current, callback)
        if let anomaly = outcome.anomaly {
            report(anomaly.kind, ordinal, time, controllers[serial]!.ref, anomaly.message)
        }
        if outcome.next != current || controllers[serial]!.appearanceSince == nil {
            controllers[serial]!.appearanceSince = time
        }
        controllers[serial]!.appearance = outcome.next
        if callback == .viewDidAppear {
            // A sheet that appears again was not dismissed: the swipe-down was abandoned.
            transitions.removeAll { $0.kind == .sheetDismiss && $0.from == serial }
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
