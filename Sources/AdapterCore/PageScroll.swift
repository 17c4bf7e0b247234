import TraceModel

/// A page scroll under way in a `UIPageViewController`, inferred from its pages' appearance callbacks.
struct PageScroll {
    var container: ControllerRef
    var from: ControllerRef
    var fromKey: ObjectIdentifier
    var to: ControllerRef
    var toKey: ObjectIdentifier
}
