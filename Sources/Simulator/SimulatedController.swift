import TraceModel

/// Where a controller stands in the appearance state machine of docs/LIFECYCLE.md.
public enum AppearanceState: Sendable, Hashable {
    case disappeared, appearing, appeared, disappearing
}

/// An interactive transition in progress on a navigation or page controller (the user's finger is down).
struct InteractiveTransition: Sendable, Hashable {
    var from: Int
    var to: Int
    /// The scenario line that began it.
    var line: Int
}

/// The simulator's model of one controller instance.
struct SimulatedController: Sendable {
    var ref: ControllerRef
    /// The scenario name (`editor`), used in error messages.
    var name: String
    var spec: ClassSpec
    var isViewLoaded = false
    var appearance = AppearanceState.disappeared
    var parent: Int?
    /// Navigation: the stack, bottom first. Tab bar: the tabs. Page: the loaded pages, current first.
    /// Plain/hosting: children added with `addChild`.
    var children: [Int] = []
    var selectedIndex = 0
    var presented: Int?
    var presenting: Int?
    var presentationStyle: ModalPresentationStyle?
    var isWindowRoot = false
    /// Held by something outside the controller tree (a `create` step, or a generator's reference).
    var isHeld = false
    /// A closure it owns captures it strongly: it never deinitializes.
    var isCapturedBySelf = false
    /// The controller whose view holds this controller's view without `addChild` (the orphan mistake).
    var orphanSuperview: Int?
    var orphans: [Int] = []
    var isAlive = true
    /// The view's bounds in points, as code reading `view.bounds` would see them.
    var bounds: Size
    /// Hosting controllers: whether the SwiftUI root view is in the render tree (between onAppear and onDisappear).
    var isInRenderTree = false
    var interactive: InteractiveTransition?
    /// The scenario line that created it.
    var line: Int

    var kind: ControllerKind { spec.kind }
}
