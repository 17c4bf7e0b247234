import TraceModel

/// One transition coordinator the adapter follows, from the first callback that saw it to its completion.
struct TrackedTransition {
    enum Kind {
        /// A navigation (or other container) transition: a swipe-back, or a push made interactive.
        case container
        /// A presented sheet being dismissed: recorded as `presentationControllerWillDismiss`/`…DidDismiss`.
        case sheet
    }

    var kind: Kind
    var from: ControllerRef
    var to: ControllerRef
    /// The navigation controller (container kind) or the presenter (sheet kind).
    var container: ControllerRef?
    /// The sheet's identity (sheet kind), for `Adapter.sheetDismissals`.
    var sheetKey: ObjectIdentifier?
    /// Its begin is recorded (it was interactive at some point).
    var begun = false
    /// Its outcome is recorded.
    var decided = false
}
