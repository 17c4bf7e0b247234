import TraceModel

// Modal presentation, dismissal, and the sheet delegate calls.
extension Adapter {
    /// `present(_:animated:completion:)` of `presented` by `presenter` (the receiver): records it with the
    /// presented controller's `modalPresentationStyle`, then calls the original.
    public func present(_ presenter: UI.Controller, _ presented: UI.Controller, animated: Bool, original: () -> Void) {
        guard admit("present(_:animated:completion:)") else { return original() }
        noteActivity()
        recorder.present(ref(for: presented), from: ref(for: presenter), style: ui.modalStyle(of: presented), animated: animated)
        original()
    }

    /// What `dismiss(animated:completion:)` called on `controller` dismisses: `(presented, presenter)`, or `nil`
    /// when it dismisses nothing.
    ///
    /// Apple, `dismiss(animated:completion:)`: "The presenting view controller is responsible for dismissing the
    /// view controller it presented. If you call this method on the presented view controller itself, UIKit asks
    /// the presenting view controller to handle the dismissal", and called lower in a stack of presentations it
    /// dismisses "its immediate child view controller and all view controllers above that child". With
    /// `presentedViewController` ("the view controller that is presented by this view controller, or one of its
    /// ancestors") and `presentingViewController` (for a controller not itself presented, "the view controller
    /// presenting the nearest ancestor"), that is: what `controller` (or an ancestor) presents, if anything;
    /// otherwise the controller its presenter presents — the presented **container** when `controller` is a
    /// child inside it (a form in a presented navigation controller dismisses that navigation controller).
    public func dismissTarget(of controller: UI.Controller) -> (presented: UI.Controller, presenter: UI.Controller)? {
        if let presented = ui.presentedController(of: controller) {
            return (presented, ui.presentingController(of: presented) ?? controller)
        }
        if let presenter = ui.presentingController(of: controller), let presented = ui.presentedController(of: presenter) {
            return (presented, presenter)
        }
        return nil
    }

    /// `dismiss(animated:completion:)` called on `controller`: records the dismissal of `dismissTarget(of:)`,
    /// then calls the original. Not recorded when the target's swipe-down already recorded its WillDismiss (the
    /// dismissal is then the swipe-down's, recorded as its DidDismiss).
    public func dismiss(_ controller: UI.Controller, animated: Bool, original: () -> Void) {
        guard admit("dismiss(animated:completion:)") else { return original() }
        if let target = dismissTarget(of: controller), sheetDismissals[ObjectIdentifier(target.presented)]?.willDismissRecorded != true {
            noteActivity()
            recorder.dismiss(ref(for: target.presented), from: ref(for: target.presenter), animated: animated)
        }
        original()
    }

    /// A `UIAdaptivePresentationControllerDelegate` method of the app's delegate ran for the presentation of
    /// `presented` (the `presentedViewController` of the delegate's presentation controller):
    /// `presentationControllerShouldDismiss`, `…WillDismiss`, `…DidDismiss` or `…DidAttemptToDismiss`. Records it
    /// (WillDismiss and DidDismiss once per swipe-down: the transition coordinator reports them too), then calls
    /// the original.
    ///
    /// Apple: WillDismiss and DidDismiss are "not called if the presentation is dismissed programmatically";
    /// DidAttemptToDismiss follows a swipe-down refused by `isModalInPresentation` or by ShouldDismiss returning
    /// `false`.
    public func presentationDelegateCall<R>(_ operation: ContainerOperation, presented: UI.Controller, original: () -> R) -> R {
        guard admit(operation.name) else { return original() }
        noteActivity()
        let sheet = ref(for: presented)
        let presenter = ui.presentingController(of: presented).map { ref(for: $0) }
        switch operation {
        case .presentationControllerWillDismiss, .presentationControllerDidDismiss:
            recordSheet(operation, sheetKey: ObjectIdentifier(presented), sheet: sheet, presenter: presenter)
        default:
            recorder.presentationController(operation, presented: sheet, presenter: presenter)
        }
        let result = original()
        if operation == .presentationControllerDidDismiss || operation == .presentationControllerDidAttemptToDismiss {
            sheetDismissals[ObjectIdentifier(presented)] = nil
        }
        return result
    }
}
