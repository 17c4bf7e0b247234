/// Operations of UIKit's containers, recorded so stacks and trees can be rebuilt rather than guessed.
///
/// The meaning of `ContainerEvent.container` and `ContainerEvent.controllers` for each operation:
///
/// | operation | container | controllers |
/// |---|---|---|
/// | `setRoot` | the window's root, or `nil` | `[root]` |
/// | `push` | navigation controller | `[pushed]` |
/// | `pop` | navigation controller | the popped controllers, top first |
/// | `setViewControllers` | navigation, tab bar or page controller | the new list, bottom/first first |
/// | `interactiveTransitionBegin`, `…Cancel`, `…Finish` | navigation or page controller | `[from, to]` |
/// | `present` | presenting controller | `[presented]` (+ `style`) |
/// | `dismiss` | presenting controller | `[presented]` |
/// | `presentationControllerShouldDismiss`, `…WillDismiss`, `…DidDismiss`, `…DidAttemptToDismiss` | presenting controller or `nil` | `[presented]` |
/// | `addChild` | parent | `[child]` |
/// | `removeFromParent` | former parent or `nil` | `[child]` |
/// | `selectTab` | tab bar controller | `[newly selected]` (+ `index`) |
/// | `attachView` | controller whose view received the subview | `[controller whose view was added]` |
///
/// Sources: Apple's UINavigationController, UIViewController (presentation, containment),
/// UIAdaptivePresentationControllerDelegate, UITabBarController and UIPageViewController documentation.
public enum ContainerOperation: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case setRoot = 0
    case push = 1
    case pop = 2
    case setViewControllers = 3
    case interactiveTransitionBegin = 4
    case interactiveTransitionCancel = 5
    case interactiveTransitionFinish = 6
    case present = 7
    case dismiss = 8
    case presentationControllerShouldDismiss = 9
    case presentationControllerWillDismiss = 10
    case presentationControllerDidDismiss = 11
    case presentationControllerDidAttemptToDismiss = 12
    case addChild = 13
    case removeFromParent = 14
    case selectTab = 15
    case attachView = 16

    public var name: String {
        switch self {
        case .setRoot: "setRoot"
        case .push: "pushViewController"
        case .pop: "popViewController"
        case .setViewControllers: "setViewControllers"
        case .interactiveTransitionBegin: "interactiveTransitionBegin"
        case .interactiveTransitionCancel: "interactiveTransitionCancel"
        case .interactiveTransitionFinish: "interactiveTransitionFinish"
        case .present: "present"
        case .dismiss: "dismiss"
        case .presentationControllerShouldDismiss: "presentationControllerShouldDismiss"
        case .presentationControllerWillDismiss: "presentationControllerWillDismiss"
        case .presentationControllerDidDismiss: "presentationControllerDidDismiss"
        case .presentationControllerDidAttemptToDismiss: "presentationControllerDidAttemptToDismiss"
        case .addChild: "addChild"
        case .removeFromParent: "removeFromParent"
        case .selectTab: "selectTab"
        case .attachView: "attachView"
        }
    }

    public var description: String { name }

    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }
}
