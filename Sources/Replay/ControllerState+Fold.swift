import TraceModel

extension ControllerState {
    /// The effects of a callback's begin (or instant) that concern this controller alone: view loading and
    /// unloading, viewDidLoad count, the appearance machine (DESIGN.md §2), deinit time.
    ///
    /// - Returns: The anomaly to report, if any.
    mutating func applyLocal(_ callback: Callback, _ time: UInt64, _ ordinal: UInt64) -> (kind: Diagnostic.Kind, message: String)? {
        switch callback {
        case .initialize:
            isCreatedInTrace = true
            isStructureKnown = true
            if parent == .unknown { parent = .none }
            settleLoaded(time)
        case .loadView:
            isViewLoaded = true
            settleLoaded(time)
        case .viewDidLoad:
            isViewLoaded = true
            viewDidLoadCount &+= 1
            settleLoaded(time)
            if viewDidLoadCount > 1 { return (.duplicateViewDidLoad, "viewDidLoad ran \(viewDidLoadCount) times") }
        case .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear:
            isViewLoaded = true
            let outcome = ReplayState.appearanceStep(from: appearance, callback)
            if outcome.next != appearance || appearanceSince == nil { appearanceSince = time }
            appearance = outcome.next
            return outcome.anomaly
        case .viewIsAppearing, .viewWillLayoutSubviews, .viewDidLayoutSubviews:
            isViewLoaded = true
        case .deinitialize:
            if deinitTime == nil {
                deinitTime = time
                deinitOrdinal = ordinal
            }
        case .viewDidUnload:
            // The view was released under memory pressure (iOS 3–5): the next access loads it again.
            isViewLoaded = false
            viewDidLoadCount = 0
        case .willMoveToParent, .didMoveToParent, .didReceiveMemoryWarning, .viewWillTransition:
            break
        }
        return nil
    }

    /// A controller first seen by init/loadView/viewDidLoad is not on screen: its view is only now being made.
    private mutating func settleLoaded(_ time: UInt64) {
        if appearance == .unknown {
            appearance = .disappeared
            appearanceSince = time
        }
    }
}
