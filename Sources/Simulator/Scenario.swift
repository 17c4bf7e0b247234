import TraceModel

/// A parsed scenario: what each controller class's own code does in each callback, and the user's (and the
/// system's) interactions in time order. See docs/SCENARIOS.md for the text language.
public struct Scenario: Sendable {
    /// The `title "…"` line, if any.
    public var title: String?
    /// The scene identifier from a `scene ID` line: app transitions are then recorded as UIScene callbacks
    /// with this id. `nil` records UIApplicationDelegate callbacks.
    public var sceneID: String?
    /// The window size from a `window WxH` line, in points (default 390×844, an iPhone in portrait).
    public var windowSize: Size?
    /// Declared classes by name.
    public var classes: [String: ClassSpec]
    /// The steps in file order.
    public var steps: [Step]

    public init(
        title: String? = nil,
        sceneID: String? = nil,
        windowSize: Size? = nil,
        classes: [String: ClassSpec] = [:],
        steps: [Step] = []
    ) {
        self.title = title
        self.sceneID = sceneID
        self.windowSize = windowSize
        self.classes = classes
        self.steps = steps
    }
}

/// What kind of UIKit controller a class is: it decides which container operations it accepts and which of
/// its children appear with it.
public enum ControllerKind: Sendable, Hashable {
    /// A plain `UIViewController` subclass (its children are the ones added with `addChild`).
    case plain
    /// `UINavigationController`: children are the stack, bottom first; only the top one is on screen.
    case navigation
    /// `UITabBarController`: children are the tabs; only the selected one is on screen.
    case tabBar
    /// `UIPageViewController`: children are the pages currently loaded; the first is the current page.
    case page
    /// `UIHostingController<rootView>`: a SwiftUI view named `rootView` gets onAppear/onDisappear.
    case hosting(rootView: String)

    /// The kind of a type name used without a `class` line: `UINavigationController`,
    /// `UITabBarController`, `UIPageViewController`, `UIHostingController<V>`; anything else is `plain`.
    public init(builtinTypeName name: String) {
        switch name {
        case "UINavigationController": self = .navigation
        case "UITabBarController": self = .tabBar
        case "UIPageViewController": self = .page
        default:
            if name.hasPrefix("UIHostingController<"), name.hasSuffix(">") {
                self = .hosting(rootView: String(name.dropFirst("UIHostingController<".count).dropLast()))
            } else {
                self = .plain
            }
        }
    }

    /// A short name for messages: `navigation controller`, `tab bar controller`, ….
    public var noun: String {
        switch self {
        case .plain: "view controller"
        case .navigation: "navigation controller"
        case .tabBar: "tab bar controller"
        case .page: "page view controller"
        case .hosting: "hosting controller"
        }
    }
}

/// A controller class: its kind and the code it runs in each hook.
public struct ClassSpec: Sendable {
    public var name: String
    public var kind: ControllerKind
    /// The actions the class's own code performs in each hook, in order.
    public var hooks: [Hook: [Action]]
    /// `isModalInPresentation`: a swipe-down on a sheet showing this class is refused
    /// (`presentationControllerDidAttemptToDismiss`).
    public var isModalInPresentation: Bool
    /// 1-based line of the `class` line (0 for built-in types).
    public var line: Int

    public init(name: String, kind: ControllerKind, hooks: [Hook: [Action]] = [:], isModalInPresentation: Bool = false, line: Int = 0) {
        self.name = name
        self.kind = kind
        self.hooks = hooks
        self.isModalInPresentation = isModalInPresentation
        self.line = line
    }
}

/// A point where a class's code runs.
public enum Hook: Sendable, Hashable {
    /// Inside a UIViewController callback.
    case callback(Callback)
    /// Inside a SwiftUI action of a hosting controller's root view.
    case swiftUI(SwiftUIEvent.Action)
    /// When the app (or scene) makes this transition: code observing the notification, for every live
    /// instance of the class.
    case app(AppTransition)
    /// A `UIAdaptivePresentationControllerDelegate` method; the delegate is the presenting controller.
    case presentation(ContainerOperation)
}

/// One thing a controller's code does.
public struct Action: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Records a mark with `name` and `fields` (docs/JSONL.md vocabulary, or any custom name).
        /// A `geometry.read` without fields reads the view's current bounds.
        case mark(name: String, fields: [MarkField])
        /// A `work` interval labelled `label` that takes `duration` nanoseconds.
        case work(label: String, duration: UInt64)
        /// Touches `self.view`, which loads it if it is not loaded (loadView and viewDidLoad run nested here).
        case touchView
        /// A closure stored by the controller captures `self` strongly: the controller is never deinitialized.
        case captureSelf
    }

    public var kind: Kind
    /// 1-based line where the action was written (0 when built in code).
    public var line: Int

    public init(_ kind: Kind, line: Int = 0) {
        self.kind = kind
        self.line = line
    }
}

/// A controller in a step: an existing name, or `name: Type` to create one, with children for containers
/// (`nav: UINavigationController(list: ListViewController)`).
public struct ControllerSpec: Sendable, Hashable {
    public var name: String
    /// The type for a new controller, `nil` to refer to an existing one.
    public var typeName: String?
    public var children: [ControllerSpec]

    public init(name: String, typeName: String? = nil, children: [ControllerSpec] = []) {
        self.name = name
        self.typeName = typeName
        self.children = children
    }
}

/// One line of the timeline.
public struct Step: Sendable {
    /// When the step starts.
    public enum Timing: Sendable, Hashable {
        /// At this time (nanoseconds on the simulated clock).
        case at(UInt64)
        /// This long after the previous step ended (nanoseconds).
        case after(UInt64)
    }

    public var timing: Timing
    public var command: Command
    /// 1-based line in the scenario file (0 when built in code).
    public var line: Int
    /// The command as written, for `--print` headers.
    public var text: String

    public init(_ timing: Timing, _ command: Command, line: Int = 0, text: String = "") {
        self.timing = timing
        self.command = command
        self.line = line
        self.text = text
    }
}

/// A tab to select: by position or by the child's name.
public enum TabSelector: Sendable, Hashable {
    case index(Int)
    case name(String)
}

/// What happens in a step. Controller arguments are scenario names.
public enum Command: Sendable, Hashable {
    case launch
    case root(ControllerSpec)
    case create(ControllerSpec)
    case release(String)
    case push(ControllerSpec, on: String, animated: Bool)
    case pop(String, animated: Bool)
    case popToRoot(String, animated: Bool)
    case setStack(String, [ControllerSpec], animated: Bool)
    case beginSwipeBack(String)
    case finishSwipeBack(String)
    case cancelSwipeBack(String)
    case present(ControllerSpec, from: String, style: ModalPresentationStyle, animated: Bool)
    case dismiss(String, animated: Bool)
    case swipeDown(String)
    case selectTab(String, TabSelector)
    case scroll(String, to: ControllerSpec)
    case beginScroll(String, to: ControllerSpec)
    case finishScroll(String)
    case cancelScroll(String)
    case addChild(ControllerSpec, to: String)
    case removeChild(String)
    case addView(ControllerSpec, to: String)
    case does(String, [Action])
    case background
    case foreground
    case resignActive
    case becomeActive
    case terminate
    case memoryWarning
    case rotate(Size)
    case layout(String)
}
