import AdapterCore
import TraceModel

/// A stand-in for a `UIViewController`: the properties `UIKitSurface` reads, set by the test as UIKit would.
final class FakeController {
    let typeName: String
    var parent: FakeController?
    /// Set on the presented controller only (UIKit's own link); `FakeUIKit` answers for children as UIKit does.
    var presenting: FakeController?
    /// Set on the presenting controller only.
    var presented: FakeController?
    /// `viewControllers` of a navigation controller.
    var stack: [FakeController]?
    var tabs: [FakeController]?
    var pages: [FakeController]?
    var columns: [FakeController]?
    var style: ModalPresentationStyle = .automatic
    var isBeingDismissed = false
    var coordinator: FakeCoordinator?
    var popGesture: GestureState = .possible

    init(_ typeName: String) {
        self.typeName = typeName
    }

    static func navigation() -> FakeController {
        let nav = FakeController("UINavigationController")
        nav.stack = []
        return nav
    }
}
