import TraceModel

// The begin/outcome state machine of transitions run by a transition coordinator.
//
// Apple, UIViewControllerTransitionCoordinator: `notifyWhenInteractionChanges(_:)` runs its handler "any time
// the transition changes from interactive to noninteractive", with the context's `isCancelled` telling whether
// it will be reversed; `animate(alongsideTransition:completion:)`'s completion runs when the transition has
// ended; `isInterruptible` transitions (property animators, such as iOS 18's zoom transition) can be grabbed
// again after the finger lifted, so only a transition that is not interruptible is decided when the finger lifts.
//
// Per coordinator: seen (first viewWillAppear/viewWillDisappear under it) → begun (it is or was interactive:
// begin recorded) → decided (finished or cancelled recorded, once). A transition that was never interactive
// records nothing here (its push, pop, present or dismiss was recorded by its own method).
extension Adapter {
    /// Follows the transition coordinator `controller` is taking part in, if there is one not yet followed:
    /// records its begin now if it is interactive, and registers for its interaction changes and completion.
    ///
    /// Classification: a sheet being dismissed (`from` is presented as pageSheet, formSheet or automatic and
    /// `isBeingDismissed`) is a presentation dismissal, recorded as `presentationControllerWillDismiss` then
    /// `…DidDismiss` — never as a navigation transition; a transition between two children of a navigation
    /// controller is a navigation transition (swipe-back, or a push made interactive). Others (custom
    /// interactive presentations) are not followed.
    func observeTransition(of controller: UI.Controller) {
        guard let context = ui.transition(of: controller), transitions[context.coordinator] == nil,
            let from = context.from, let to = context.to
        else { return }
        var tracked: TrackedTransition
        if let presenter = ui.presentingController(of: from), ui.isBeingDismissed(from), Self.isSheet(ui.modalStyle(of: from)) {
            tracked = TrackedTransition(
                kind: .sheet, from: ref(for: from), to: ref(for: to), container: ref(for: presenter),
                sheetKey: ObjectIdentifier(from))
        } else if let nav = ui.parent(of: from) ?? ui.parent(of: to), ui.navigationStack(of: nav) != nil {
            tracked = TrackedTransition(kind: .container, from: ref(for: from), to: ref(for: to), container: ref(for: nav))
            let navKey = ObjectIdentifier(nav)
            if pendingInteractivePops[navKey] == ObjectIdentifier(from) {
                // Its begin was recorded at popViewController(animated:), while the edge swipe was recognised.
                pendingInteractivePops[navKey] = nil
                tracked.begun = true
            }
        } else {
            return
        }
        transitions[context.coordinator] = tracked
        if context.isInteractive { begin(context.coordinator) }
        ui.notifyWhenInteractionChanges(context) { [self] changed in interactionChanged(changed) }
        ui.whenTransitionCompletes(context) { [self] final in transitionCompleted(final) }
    }

    /// A pageSheet, formSheet or automatic (a page sheet on iPhone) presentation: the styles a user can swipe
    /// down (Apple, `UIModalPresentationStyle`; `isModalInPresentation`).
    static func isSheet(_ style: ModalPresentationStyle) -> Bool {
        style == .pageSheet || style == .formSheet || style == .automatic
    }

    /// The finger lifted: a transition not yet begun was interactive after all (a push or zoom grabbed midway)
    /// and begins now; one that is not interruptible is decided now.
    func interactionChanged(_ context: TransitionContext<UI.Controller>) {
        guard admit("notifyWhenInteractionChanges handler"), let tracked = transitions[context.coordinator],
            !tracked.decided
        else { return }
        if !tracked.begun { begin(context.coordinator) }
        if !context.isInterruptible { decide(context.coordinator, cancelled: context.isCancelled) }
    }

    /// The transition ended: decides it if it began and is not decided yet; forgets it.
    func transitionCompleted(_ context: TransitionContext<UI.Controller>) {
        guard admit("transition completion"), let tracked = transitions[context.coordinator] else { return }
        if tracked.begun && !tracked.decided { decide(context.coordinator, cancelled: context.isCancelled) }
        transitions[context.coordinator] = nil
        if let sheet = tracked.sheetKey { sheetDismissals[sheet] = nil }
    }

    private func begin(_ coordinator: ObjectIdentifier) {
        guard var tracked = transitions[coordinator], !tracked.begun else { return }
        tracked.begun = true
        transitions[coordinator] = tracked
        noteActivity()
        switch tracked.kind {
        case .container:
            recorder.interactiveTransitionBegan(from: tracked.from, to: tracked.to, in: tracked.container)
        case .sheet:
            recordSheet(.presentationControllerWillDismiss, sheetKey: tracked.sheetKey!, sheet: tracked.from, presenter: tracked.container)
        }
    }

    private func decide(_ coordinator: ObjectIdentifier, cancelled: Bool) {
        guard var tracked = transitions[coordinator], !tracked.decided else { return }
        tracked.decided = true
        transitions[coordinator] = tracked
        noteActivity()
        switch tracked.kind {
        case .container:
            if cancelled {
                recorder.interactiveTransitionCancelled(from: tracked.from, to: tracked.to, in: tracked.container)
            } else {
                recorder.interactiveTransitionFinished(from: tracked.from, to: tracked.to, in: tracked.container)
            }
        case .sheet:
            // A swipe-down let go before the threshold: UIKit calls no delegate method; the sheet's viewDidAppear
            // that follows ends the dismissal in the replay.
            if !cancelled {
                recordSheet(.presentationControllerDidDismiss, sheetKey: tracked.sheetKey!, sheet: tracked.from, presenter: tracked.container)
            }
        }
    }

    /// Records a sheet's WillDismiss or DidDismiss once per swipe-down, whether the delegate's method or the
    /// coordinator reported it first.
    func recordSheet(_ operation: ContainerOperation, sheetKey: ObjectIdentifier, sheet: ControllerRef, presenter: ControllerRef?) {
        var dismissal = sheetDismissals[sheetKey] ?? SheetDismissal()
        switch operation {
        case .presentationControllerWillDismiss:
            guard !dismissal.willDismissRecorded else { return }
            dismissal.willDismissRecorded = true
        case .presentationControllerDidDismiss:
            guard !dismissal.didDismissRecorded else { return }
            dismissal.didDismissRecorded = true
        default:
            break
        }
        sheetDismissals[sheetKey] = dismissal
        recorder.presentationController(operation, presented: sheet, presenter: presenter)
    }
}
