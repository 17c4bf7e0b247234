/// One UIViewController callback, or one end of its interval.
public struct CallbackEvent: Sendable, Hashable {
    public var callback: Callback
    public var phase: Phase
    public var controller: ControllerRef
    /// The `animated` argument, for callbacks that take one (`Callback.takesAnimated`); `nil` when not known
    /// (for example in an imported log).
    public var animated: Bool?
    /// The `parent` argument of `willMove(toParent:)` and `didMove(toParent:)`; `nil` when the callback has no
    /// such argument or the source did not record it.
    public var parent: ParentArgument?
    /// The size argument of `viewWillTransition(to:with:)`, in points; `nil` otherwise.
    public var size: Size?

    public init(
        _ callback: Callback,
        _ phase: Phase,
        controller: ControllerRef,
        animated: Bool? = nil,
        parent: ParentArgument? = nil,
        size: Size? = nil
    ) {
        self.callback = callback
        self.phase = phase
        self.controller = controller
        self.animated = animated
        self.parent = parent
        self.size = size
    }
}

/// The value passed as `parent` to `willMove(toParent:)` / `didMove(toParent:)`.
///
/// `none` is UIKit's `nil`: the controller is being removed from its parent (Apple: "willMove(toParent:)",
/// "didMove(toParent:)").
public enum ParentArgument: Sendable, Hashable {
    case none
    case controller(ControllerRef)

    /// The parent controller, or `nil` for `.none`.
    public var controller: ControllerRef? {
        if case .controller(let ref) = self { return ref }
        return nil
    }
}

/// A size in points.
public struct Size: Sendable, Hashable {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}
