// Declaration-only stand-in for the parts of Apple's UIKit (and of the Foundation and CoreGraphics it
// re-exports) that Sources/LifetraceUIKit uses, so tools/check-uikit can type-check LifetraceUIKit on Linux.
// NOT a package target: nothing here is linked or shipped; bodies only satisfy the compiler.
//
// Compiled with Objective-C interop on (see ObjectiveC.swift) and with library evolution, so that, as with
// Apple's imported NS_ENUMs, a `switch` over `UIModalPresentationStyle` must handle unknown future cases.
//
// Rules: each declaration has the Swift signature (labels, parameter and result types, optionality,
// `@MainActor` isolation) shown on the Apple documentation page named next to it, under
// https://developer.apple.com/documentation/ (uikit/..., foundation/..., corefoundation/...); each method's
// `@objc(...)` selector is the Objective-C selector of that page's symbol (its `c:objc(cs)Class(im)selector`
// identifier), so `#selector` in LifetraceUIKit yields the selector UIKit really has. Objective-C methods and
// C functions imported by Swift are implicitly `@discardableResult`; the stubs say so where they return a
// value. Only what LifetraceUIKit uses (plus close neighbours) is declared: a missing declaration makes the
// check fail, it never makes it pass.

@_exported import CoreGraphics  // tools/uikit-stubs/CoreGraphics: the C struct CGSize, CGFloat = Double
@_exported import ObjectiveC

// MARK: - C library (Darwin on Apple platforms)

/// `free(_:)` from the C library (Darwin), needed to release `class_copyMethodList`'s array.
public func free(_ ptr: UnsafeMutableRawPointer?) { fatalError("stub") }

// MARK: - CoreGraphics

/// corefoundation/cgfloat — a struct wrapping `Double` in Apple's CoreGraphics overlay; Swift drops the C
/// typedef of tools/uikit-stubs/CoreGraphics without that overlay, so it is `Double` here (LifetraceUIKit only
/// converts it with `Double(_:)`, which accepts both).
public typealias CGFloat = Double

// MARK: - Foundation

/// foundation/timeinterval — `typealias TimeInterval = Double`.
public typealias TimeInterval = Double

/// foundation/nsselectorfromstring(_:) — `func NSSelectorFromString(_ aSelectorName: String) -> Selector`.
public func NSSelectorFromString(_ aSelectorName: String) -> Selector { fatalError("stub") }

/// foundation/nsstring — `class NSString`, to which Foundation bridges `String`.
open class NSString: NSObject {}

// Foundation's bridging of `String` to `NSString` and `Array` to `NSArray` (what lets `String` and
// `[UIViewController]` appear in `@objc` declarations and Objective-C blocks). The compiler looks these
// conformances up under Objective-C interop; the stubs only declare them.
extension String: @retroactive _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSString { fatalError("stub") }
    public static func _forceBridgeFromObjectiveC(_ source: NSString, result: inout String?) { fatalError("stub") }
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSString, result: inout String?) -> Bool {
        fatalError("stub")
    }
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSString?) -> String { fatalError("stub") }
}

extension Array: @retroactive _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSArray { fatalError("stub") }
    public static func _forceBridgeFromObjectiveC(_ source: NSArray, result: inout Array?) { fatalError("stub") }
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSArray, result: inout Array?) -> Bool {
        fatalError("stub")
    }
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSArray?) -> Array { fatalError("stub") }
}

/// foundation/nscoder — `class NSCoder`.
open class NSCoder: NSObject {}

/// foundation/bundle — `class Bundle`.
open class Bundle: NSObject {}

/// foundation/nsvalue — `class NSValue`.
open class NSValue: NSObject {}

/// foundation/nsnumber — `class NSNumber`; foundation/nsnumber/init(value:)-... — `init(value: Bool)`.
open class NSNumber: NSValue {
    public init(value: Bool) { fatalError("stub") }
    public init(value: Int) { fatalError("stub") }
}

/// foundation/nsarray — `class NSArray`; Foundation makes it a `Sequence` of `Any`
/// (foundation/nsarray/makeiterator() — `func makeIterator() -> NSFastEnumerationIterator`).
open class NSArray: NSObject {
    open var count: Int { fatalError("stub") }
}

extension NSArray: Sequence {
    public func makeIterator() -> NSFastEnumerationIterator { fatalError("stub") }
}

/// foundation/nsfastenumerationiterator — `struct NSFastEnumerationIterator: IteratorProtocol` (Element `Any`).
public struct NSFastEnumerationIterator: IteratorProtocol {
    public mutating func next() -> Any? { fatalError("stub") }
}

/// foundation/thread — `class Thread : NSObject`; foundation/thread/ismainthread — `class var isMainThread: Bool
/// { get }`.
open class Thread: NSObject {
    open class var isMainThread: Bool { fatalError("stub") }
}

/// foundation/operationqueue — `class OperationQueue`.
open class OperationQueue: NSObject {}

/// foundation/nsnotification — `class NSNotification`, whose nested foundation/nsnotification/name is
/// `struct Name: Hashable, Equatable, RawRepresentable, Sendable` (`init(_ rawValue: String)`,
/// `init(rawValue: String)`).
open class NSNotification: NSObject {
    public struct Name: Hashable, Equatable, RawRepresentable, Sendable {
        public var rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public init(rawValue: String) { self.rawValue = rawValue }
    }
}

/// foundation/notification — `struct Notification` (`typealias Name = NSNotification.Name`;
/// `var name: Notification.Name`; `var object: Any?`). Not `Sendable` (its `object` and `userInfo` are `Any`).
public struct Notification {
    public typealias Name = NSNotification.Name
    public var name: Notification.Name
    public var object: Any?
    public var userInfo: [AnyHashable: Any]?
}

/// foundation/notificationcenter — `class NotificationCenter`.
open class NotificationCenter: NSObject {
    /// foundation/notificationcenter/default — `class var default: NotificationCenter { get }`.
    open class var `default`: NotificationCenter { fatalError("stub") }

    /// foundation/notificationcenter/addobserver(forname:object:queue:using:) —
    /// `func addObserver(forName name: NSNotification.Name?, object obj: Any?, queue: OperationQueue?,
    /// using block: @escaping @Sendable (Notification) -> Void) -> any NSObjectProtocol`
    @discardableResult
    open func addObserver(
        forName name: NSNotification.Name?, object obj: Any?, queue: OperationQueue?,
        using block: @escaping @Sendable (Notification) -> Void
    ) -> any NSObjectProtocol { fatalError("stub") }

    /// foundation/notificationcenter/removeobserver(_:) — `func removeObserver(_ observer: Any)`.
    open func removeObserver(_ observer: Any) { fatalError("stub") }
}

// MARK: - UIKit: responders, views, view controllers

/// uikit/uiresponder — `@MainActor class UIResponder : NSObject`.
@MainActor open class UIResponder: NSObject {}

/// uikit/uiview — `@MainActor class UIView : UIResponder`.
@MainActor open class UIView: UIResponder {}

/// uikit/uimodalpresentationstyle — `enum UIModalPresentationStyle` (raw type `Int`; an Objective-C
/// NS_ENUM, so not frozen).
@objc public enum UIModalPresentationStyle: Int, @unchecked Sendable {
    case fullScreen = 0
    case pageSheet = 1
    case formSheet = 2
    case currentContext = 3
    case custom = 4
    case overFullScreen = 5
    case overCurrentContext = 6
    case popover = 7
    /// tvOS only on Apple platforms.
    case blurOverFullScreen = 8
    case none = -1
    case automatic = -2
}

/// uikit/uiviewcontroller — `@MainActor class UIViewController : UIResponder`.
@MainActor open class UIViewController: UIResponder {
    /// uikit/uiviewcontroller/init(nibname:bundle:) — selector `initWithNibName:bundle:`.
    @objc(initWithNibName:bundle:)
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) { fatalError("stub") }

    /// uikit/uiviewcontroller/init(coder:) — `init?(coder: NSCoder)`, selector `initWithCoder:`.
    @objc(initWithCoder:)
    public required init?(coder: NSCoder) { fatalError("stub") }

    // Managing the view

    /// uikit/uiviewcontroller/loadview() — `func loadView()`, selector `loadView`.
    @objc(loadView) open func loadView() {}
    /// uikit/uiviewcontroller/viewdidload() — `func viewDidLoad()`, selector `viewDidLoad`.
    @objc(viewDidLoad) open func viewDidLoad() {}

    // Responding to view-related events

    /// uikit/uiviewcontroller/viewwillappear(_:) — `func viewWillAppear(_ animated: Bool)`.
    @objc(viewWillAppear:) open func viewWillAppear(_ animated: Bool) {}
    /// uikit/uiviewcontroller/viewisappearing(_:) — `func viewIsAppearing(_ animated: Bool)` (iOS 13+).
    @objc(viewIsAppearing:) open func viewIsAppearing(_ animated: Bool) {}
    /// uikit/uiviewcontroller/viewdidappear(_:) — `func viewDidAppear(_ animated: Bool)`.
    @objc(viewDidAppear:) open func viewDidAppear(_ animated: Bool) {}
    /// uikit/uiviewcontroller/viewwilldisappear(_:) — `func viewWillDisappear(_ animated: Bool)`.
    @objc(viewWillDisappear:) open func viewWillDisappear(_ animated: Bool) {}
    /// uikit/uiviewcontroller/viewdiddisappear(_:) — `func viewDidDisappear(_ animated: Bool)`.
    @objc(viewDidDisappear:) open func viewDidDisappear(_ animated: Bool) {}

    // Configuring the view's layout behavior

    /// uikit/uiviewcontroller/viewwilllayoutsubviews() — `func viewWillLayoutSubviews()`.
    @objc(viewWillLayoutSubviews) open func viewWillLayoutSubviews() {}
    /// uikit/uiviewcontroller/viewdidlayoutsubviews() — `func viewDidLayoutSubviews()`.
    @objc(viewDidLayoutSubviews) open func viewDidLayoutSubviews() {}

    /// uikit/uiviewcontroller/didreceivememorywarning() — `func didReceiveMemoryWarning()`.
    @objc(didReceiveMemoryWarning) open func didReceiveMemoryWarning() {}

    /// uikit/uicontentcontainer/viewwilltransition(to:with:) — `func viewWillTransition(to size: CGSize,
    /// with coordinator: any UIViewControllerTransitionCoordinator)`, selector
    /// `viewWillTransitionToSize:withTransitionCoordinator:` (UIContentContainer, adopted by UIViewController).
    @objc(viewWillTransitionToSize:withTransitionCoordinator:)
    open func viewWillTransition(to size: CGSize, with coordinator: any UIViewControllerTransitionCoordinator) {}

    // Managing child view controllers in a custom container

    /// uikit/uiviewcontroller/children — `var children: [UIViewController] { get }`.
    @objc(childViewControllers) open var children: [UIViewController] { fatalError("stub") }
    /// uikit/uiviewcontroller/addchild(_:) — `func addChild(_ childController: UIViewController)`, selector
    /// `addChildViewController:`.
    @objc(addChildViewController:) open func addChild(_ childController: UIViewController) {}
    /// uikit/uiviewcontroller/removefromparent() — `func removeFromParent()`, selector
    /// `removeFromParentViewController`.
    @objc(removeFromParentViewController) open func removeFromParent() {}
    /// uikit/uiviewcontroller/willmove(toparent:) — `func willMove(toParent parent: UIViewController?)`,
    /// selector `willMoveToParentViewController:`.
    @objc(willMoveToParentViewController:) open func willMove(toParent parent: UIViewController?) {}
    /// uikit/uiviewcontroller/didmove(toparent:) — `func didMove(toParent parent: UIViewController?)`,
    /// selector `didMoveToParentViewController:`.
    @objc(didMoveToParentViewController:) open func didMove(toParent parent: UIViewController?) {}

    // Presenting view controllers

    /// uikit/uiviewcontroller/present(_:animated:completion:) — `func present(_ viewControllerToPresent:
    /// UIViewController, animated flag: Bool, completion: (() -> Void)? = nil)`, selector
    /// `presentViewController:animated:completion:`.
    @objc(presentViewController:animated:completion:)
    open func present(_ viewControllerToPresent: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil) {}
    /// uikit/uiviewcontroller/dismiss(animated:completion:) — `func dismiss(animated flag: Bool,
    /// completion: (() -> Void)? = nil)`, selector `dismissViewControllerAnimated:completion:`.
    @objc(dismissViewControllerAnimated:completion:)
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {}
    /// uikit/uiviewcontroller/modalpresentationstyle — `var modalPresentationStyle: UIModalPresentationStyle`.
    @objc open var modalPresentationStyle: UIModalPresentationStyle {
        get { fatalError("stub") }
        set { fatalError("stub") }
    }
    /// uikit/uiviewcontroller/isbeingdismissed — `var isBeingDismissed: Bool { get }`.
    @objc open var isBeingDismissed: Bool { fatalError("stub") }
    /// uikit/uiviewcontroller/presentationcontroller — `var presentationController: UIPresentationController? { get }`.
    @objc open var presentationController: UIPresentationController? { fatalError("stub") }
    /// uikit/uiviewcontroller/presentedviewcontroller — `var presentedViewController: UIViewController? { get }`.
    @objc open var presentedViewController: UIViewController? { fatalError("stub") }
    /// uikit/uiviewcontroller/presentingviewcontroller — `var presentingViewController: UIViewController? { get }`.
    @objc open var presentingViewController: UIViewController? { fatalError("stub") }

    // Getting other related view controllers

    /// uikit/uiviewcontroller/parent — `weak var parent: UIViewController? { get }`, selector
    /// `parentViewController`.
    @objc(parentViewController) open var parent: UIViewController? { fatalError("stub") }
    /// uikit/uiviewcontroller/navigationcontroller — `var navigationController: UINavigationController? { get }`.
    @objc open var navigationController: UINavigationController? { fatalError("stub") }
    /// uikit/uiviewcontroller/tabbarcontroller — `var tabBarController: UITabBarController? { get }`.
    @objc open var tabBarController: UITabBarController? { fatalError("stub") }

    /// uikit/uiviewcontroller/transitioncoordinator — `var transitionCoordinator: (any
    /// UIViewControllerTransitionCoordinator)? { get }`.
    @objc open var transitionCoordinator: (any UIViewControllerTransitionCoordinator)? { fatalError("stub") }
}

/// uikit/uinavigationcontroller — `@MainActor class UINavigationController : UIViewController`.
@MainActor open class UINavigationController: UIViewController {
    /// uikit/uinavigationcontroller/viewcontrollers — `var viewControllers: [UIViewController]`.
    @objc open var viewControllers: [UIViewController] {
        get { fatalError("stub") }
        set { fatalError("stub") }
    }
    /// uikit/uinavigationcontroller/interactivepopgesturerecognizer — `var interactivePopGestureRecognizer:
    /// UIGestureRecognizer? { get }`.
    @objc open var interactivePopGestureRecognizer: UIGestureRecognizer? { fatalError("stub") }
    /// uikit/uinavigationcontroller/topviewcontroller — `var topViewController: UIViewController? { get }`.
    @objc open var topViewController: UIViewController? { fatalError("stub") }

    /// uikit/uinavigationcontroller/pushviewcontroller(_:animated:) — `func pushViewController(_
    /// viewController: UIViewController, animated: Bool)`, selector `pushViewController:animated:`.
    @objc(pushViewController:animated:)
    open func pushViewController(_ viewController: UIViewController, animated: Bool) {}
    /// uikit/uinavigationcontroller/popviewcontroller(animated:) — `func popViewController(animated: Bool)
    /// -> UIViewController?`, selector `popViewControllerAnimated:`.
    @discardableResult @objc(popViewControllerAnimated:)
    open func popViewController(animated: Bool) -> UIViewController? { fatalError("stub") }
    /// uikit/uinavigationcontroller/poptoviewcontroller(_:animated:) — `func popToViewController(_
    /// viewController: UIViewController, animated: Bool) -> [UIViewController]?`, selector
    /// `popToViewController:animated:`.
    @discardableResult @objc(popToViewController:animated:)
    open func popToViewController(_ viewController: UIViewController, animated: Bool) -> [UIViewController]? {
        fatalError("stub")
    }
    /// uikit/uinavigationcontroller/poptorootviewcontroller(animated:) — `func popToRootViewController(animated:
    /// Bool) -> [UIViewController]?`, selector `popToRootViewControllerAnimated:`.
    @discardableResult @objc(popToRootViewControllerAnimated:)
    open func popToRootViewController(animated: Bool) -> [UIViewController]? { fatalError("stub") }
    /// uikit/uinavigationcontroller/setviewcontrollers(_:animated:) — `func setViewControllers(_
    /// viewControllers: [UIViewController], animated: Bool)`, selector `setViewControllers:animated:`.
    @objc(setViewControllers:animated:)
    open func setViewControllers(_ viewControllers: [UIViewController], animated: Bool) {}
}

/// uikit/uitabbarcontroller — `@MainActor class UITabBarController : UIViewController`.
@MainActor open class UITabBarController: UIViewController {
    /// uikit/uitabbarcontroller/viewcontrollers — `var viewControllers: [UIViewController]?`.
    @objc open var viewControllers: [UIViewController]? {
        get { fatalError("stub") }
        set { fatalError("stub") }
    }
    /// uikit/uitabbarcontroller/setviewcontrollers(_:animated:) — `func setViewControllers(_ viewControllers:
    /// [UIViewController]?, animated: Bool)`, selector `setViewControllers:animated:`.
    @objc(setViewControllers:animated:)
    open func setViewControllers(_ viewControllers: [UIViewController]?, animated: Bool) {}
    /// uikit/uitabbarcontroller/selectedviewcontroller — `unowned(unsafe) var selectedViewController:
    /// UIViewController?` (setter selector `setSelectedViewController:`).
    @objc open var selectedViewController: UIViewController? {
        get { fatalError("stub") }
        set { fatalError("stub") }
    }
    /// uikit/uitabbarcontroller/selectedindex — `var selectedIndex: Int`.
    @objc open var selectedIndex: Int {
        get { fatalError("stub") }
        set { fatalError("stub") }
    }
}

/// uikit/uipageviewcontroller — `@MainActor class UIPageViewController : UIViewController`.
@MainActor open class UIPageViewController: UIViewController {
    /// uikit/uipageviewcontroller/navigationdirection — `enum NavigationDirection` (raw type `Int`: forward 0,
    /// reverse 1).
    @objc public enum NavigationDirection: Int, @unchecked Sendable {
        case forward = 0
        case reverse = 1
    }
    /// uikit/uipageviewcontroller/viewcontrollers — `var viewControllers: [UIViewController]? { get }`.
    @objc open var viewControllers: [UIViewController]? { fatalError("stub") }
    /// uikit/uipageviewcontroller/setviewcontrollers(_:direction:animated:completion:) — `func
    /// setViewControllers(_ viewControllers: [UIViewController]?, direction:
    /// UIPageViewController.NavigationDirection, animated: Bool, completion: ((Bool) -> Void)? = nil)`, selector
    /// `setViewControllers:direction:animated:completion:`.
    @objc(setViewControllers:direction:animated:completion:)
    open func setViewControllers(
        _ viewControllers: [UIViewController]?, direction: UIPageViewController.NavigationDirection, animated: Bool,
        completion: ((Bool) -> Void)? = nil
    ) {}
}

/// uikit/uisplitviewcontroller — `@MainActor class UISplitViewController : UIViewController`.
@MainActor open class UISplitViewController: UIViewController {
    /// uikit/uisplitviewcontroller/column — `enum Column` (raw type `Int`: primary 0, supplementary 1,
    /// secondary 2, compact 3; iOS 14+).
    @objc public enum Column: Int, @unchecked Sendable {
        case primary = 0
        case supplementary = 1
        case secondary = 2
        case compact = 3
    }
    /// uikit/uisplitviewcontroller/viewcontrollers — `var viewControllers: [UIViewController]` (setter selector
    /// `setViewControllers:`).
    @objc open var viewControllers: [UIViewController] {
        get { fatalError("stub") }
        set { fatalError("stub") }
    }
    /// uikit/uisplitviewcontroller/setviewcontroller(_:for:) — `func setViewController(_ vc: UIViewController?,
    /// for column: UISplitViewController.Column)`, selector `setViewController:forColumn:` (iOS 14+).
    @objc(setViewController:forColumn:)
    open func setViewController(_ vc: UIViewController?, for column: UISplitViewController.Column) {}
}

/// uikit/uiwindow — `@MainActor class UIWindow : UIView`.
@MainActor open class UIWindow: UIView {
    /// uikit/uiwindow/rootviewcontroller — `var rootViewController: UIViewController?` (setter selector
    /// `setRootViewController:`).
    @objc open var rootViewController: UIViewController? {
        get { fatalError("stub") }
        set { fatalError("stub") }
    }
}

/// uikit/uigesturerecognizer — `@MainActor class UIGestureRecognizer : NSObject`.
@MainActor open class UIGestureRecognizer: NSObject {
    /// uikit/uigesturerecognizer/state-swift.enum — `enum State` (raw type `Int`: possible 0, began 1,
    /// changed 2, ended 3, cancelled 4, failed 5; `recognized` is `ended`).
    @objc public enum State: Int, @unchecked Sendable {
        case possible = 0
        case began = 1
        case changed = 2
        case ended = 3
        case cancelled = 4
        case failed = 5
    }
    /// uikit/uigesturerecognizer/state-swift.property — `var state: UIGestureRecognizer.State { get set }`.
    @objc open var state: UIGestureRecognizer.State {
        get { fatalError("stub") }
        set { fatalError("stub") }
    }
}

/// uikit/uipresentationcontroller — `@MainActor class UIPresentationController : NSObject`.
@MainActor open class UIPresentationController: NSObject {
    /// uikit/uipresentationcontroller/presentedviewcontroller — `var presentedViewController: UIViewController
    /// { get }`.
    @objc open var presentedViewController: UIViewController { fatalError("stub") }
    /// uikit/uipresentationcontroller/presentingviewcontroller — `var presentingViewController: UIViewController
    /// { get }`.
    @objc open var presentingViewController: UIViewController { fatalError("stub") }
    /// uikit/uipresentationcontroller/delegate — `weak var delegate: (any UIAdaptivePresentationControllerDelegate)?`.
    @objc open weak var delegate: (any UIAdaptivePresentationControllerDelegate)?
}

/// uikit/uiadaptivepresentationcontrollerdelegate — `@MainActor protocol UIAdaptivePresentationControllerDelegate
/// : NSObjectProtocol`, every method optional (iOS 13+ for these four).
@MainActor @objc public protocol UIAdaptivePresentationControllerDelegate: NSObjectProtocol {
    /// .../presentationcontrollershoulddismiss(_:) — `optional func presentationControllerShouldDismiss(_
    /// presentationController: UIPresentationController) -> Bool`.
    @objc(presentationControllerShouldDismiss:)
    optional func presentationControllerShouldDismiss(_ presentationController: UIPresentationController) -> Bool
    /// .../presentationcontrollerwilldismiss(_:) — `optional func presentationControllerWillDismiss(_
    /// presentationController: UIPresentationController)`.
    @objc(presentationControllerWillDismiss:)
    optional func presentationControllerWillDismiss(_ presentationController: UIPresentationController)
    /// .../presentationcontrollerdiddismiss(_:) — `optional func presentationControllerDidDismiss(_
    /// presentationController: UIPresentationController)`.
    @objc(presentationControllerDidDismiss:)
    optional func presentationControllerDidDismiss(_ presentationController: UIPresentationController)
    /// .../presentationcontrollerdidattempttodismiss(_:) — `optional func
    /// presentationControllerDidAttemptToDismiss(_ presentationController: UIPresentationController)`.
    @objc(presentationControllerDidAttemptToDismiss:)
    optional func presentationControllerDidAttemptToDismiss(_ presentationController: UIPresentationController)
}

// MARK: - UIKit: transition coordination

/// uikit/uitransitioncontextviewcontrollerkey — `struct UITransitionContextViewControllerKey`
/// (`static let from`, `static let to`).
public struct UITransitionContextViewControllerKey: Hashable, Equatable, RawRepresentable, Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let from = UITransitionContextViewControllerKey(rawValue: "UITransitionContextFromViewControllerKey")
    public static let to = UITransitionContextViewControllerKey(rawValue: "UITransitionContextToViewControllerKey")
}

// An NS_TYPED_ENUM of NSString: Swift bridges it to NSString.
extension UITransitionContextViewControllerKey: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSString { fatalError("stub") }
    public static func _forceBridgeFromObjectiveC(_ source: NSString, result: inout Self?) { fatalError("stub") }
    public static func _conditionallyBridgeFromObjectiveC(_ source: NSString, result: inout Self?) -> Bool {
        fatalError("stub")
    }
    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSString?) -> Self { fatalError("stub") }
}

/// uikit/uiviewcontrollertransitioncoordinatorcontext — `@MainActor protocol
/// UIViewControllerTransitionCoordinatorContext : NSObjectProtocol`.
@MainActor @objc public protocol UIViewControllerTransitionCoordinatorContext: NSObjectProtocol {
    /// .../isanimated — `var isAnimated: Bool { get }`.
    var isAnimated: Bool { get }
    /// .../presentationstyle — `var presentationStyle: UIModalPresentationStyle { get }`.
    var presentationStyle: UIModalPresentationStyle { get }
    /// .../initiallyinteractive — `var initiallyInteractive: Bool { get }`.
    var initiallyInteractive: Bool { get }
    /// .../isinterruptible — `var isInterruptible: Bool { get }` (iOS 10+).
    var isInterruptible: Bool { get }
    /// .../isinteractive — `var isInteractive: Bool { get }`.
    var isInteractive: Bool { get }
    /// .../iscancelled — `var isCancelled: Bool { get }`.
    var isCancelled: Bool { get }
    /// .../transitionduration — `var transitionDuration: TimeInterval { get }`.
    var transitionDuration: TimeInterval { get }
    /// .../percentcomplete — `var percentComplete: CGFloat { get }`.
    var percentComplete: CGFloat { get }
    /// .../viewcontroller(forkey:) — `func viewController(forKey key: UITransitionContextViewControllerKey)
    /// -> UIViewController?`.
    func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController?
    /// .../containerview — `var containerView: UIView { get }`.
    var containerView: UIView { get }
}

/// uikit/uiviewcontrollertransitioncoordinator — `@MainActor protocol UIViewControllerTransitionCoordinator :
/// UIViewControllerTransitionCoordinatorContext`.
@MainActor @objc public protocol UIViewControllerTransitionCoordinator: UIViewControllerTransitionCoordinatorContext {
    /// .../animate(alongsidetransition:completion:) — `func animate(alongsideTransition animation: ((any
    /// UIViewControllerTransitionCoordinatorContext) -> Void)?, completion: ((any
    /// UIViewControllerTransitionCoordinatorContext) -> Void)? = nil) -> Bool` (the default argument of the
    /// imported requirement cannot be written in a Swift protocol; pass `completion:` explicitly).
    @discardableResult
    func animate(
        alongsideTransition animation: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?,
        completion: ((any UIViewControllerTransitionCoordinatorContext) -> Void)?
    ) -> Bool
    /// .../notifywheninteractionchanges(_:) — `func notifyWhenInteractionChanges(_ handler: @escaping (any
    /// UIViewControllerTransitionCoordinatorContext) -> Void)` (iOS 10+), selector
    /// `notifyWhenInteractionChangesUsingBlock:`.
    @objc(notifyWhenInteractionChangesUsingBlock:)
    func notifyWhenInteractionChanges(_ handler: @escaping (any UIViewControllerTransitionCoordinatorContext) -> Void)
}

// MARK: - UIKit: app and scene life cycle

/// uikit/uiapplication — `@MainActor class UIApplication : UIResponder`. Its notification names are
/// `nonisolated class let ...: NSNotification.Name` (written `static let` here).
@MainActor open class UIApplication: UIResponder {
    /// uikit/uiapplication/didfinishlaunchingnotification
    nonisolated public static let didFinishLaunchingNotification = NSNotification.Name("UIApplicationDidFinishLaunchingNotification")
    /// uikit/uiapplication/willenterforegroundnotification
    nonisolated public static let willEnterForegroundNotification = NSNotification.Name("UIApplicationWillEnterForegroundNotification")
    /// uikit/uiapplication/didbecomeactivenotification
    nonisolated public static let didBecomeActiveNotification = NSNotification.Name("UIApplicationDidBecomeActiveNotification")
    /// uikit/uiapplication/willresignactivenotification
    nonisolated public static let willResignActiveNotification = NSNotification.Name("UIApplicationWillResignActiveNotification")
    /// uikit/uiapplication/didenterbackgroundnotification
    nonisolated public static let didEnterBackgroundNotification = NSNotification.Name("UIApplicationDidEnterBackgroundNotification")
    /// uikit/uiapplication/willterminatenotification
    nonisolated public static let willTerminateNotification = NSNotification.Name("UIApplicationWillTerminateNotification")
    /// uikit/uiapplication/didreceivememorywarningnotification
    nonisolated public static let didReceiveMemoryWarningNotification = NSNotification.Name("UIApplicationDidReceiveMemoryWarningNotification")
}

/// uikit/uiscenesession — `@MainActor class UISceneSession : NSObject` (iOS 13+).
@MainActor open class UISceneSession: NSObject {
    /// uikit/uiscenesession/persistentidentifier — `var persistentIdentifier: String { get }`.
    @objc open var persistentIdentifier: String { fatalError("stub") }
}

/// uikit/uiscene — `@MainActor class UIScene : UIResponder` (iOS 13+). Its notification names are
/// `nonisolated class let ...: NSNotification.Name`.
@MainActor open class UIScene: UIResponder {
    /// uikit/uiscene/session — `var session: UISceneSession { get }`.
    @objc open var session: UISceneSession { fatalError("stub") }

    /// uikit/uiscene/willconnectnotification
    nonisolated public static let willConnectNotification = NSNotification.Name("UISceneWillConnectNotification")
    /// uikit/uiscene/diddisconnectnotification
    nonisolated public static let didDisconnectNotification = NSNotification.Name("UISceneDidDisconnectNotification")
    /// uikit/uiscene/didactivatenotification
    nonisolated public static let didActivateNotification = NSNotification.Name("UISceneDidActivateNotification")
    /// uikit/uiscene/willdeactivatenotification
    nonisolated public static let willDeactivateNotification = NSNotification.Name("UISceneWillDeactivateNotification")
    /// uikit/uiscene/willenterforegroundnotification
    nonisolated public static let willEnterForegroundNotification = NSNotification.Name("UISceneWillEnterForegroundNotification")
    /// uikit/uiscene/didenterbackgroundnotification
    nonisolated public static let didEnterBackgroundNotification = NSNotification.Name("UISceneDidEnterBackgroundNotification")
}
