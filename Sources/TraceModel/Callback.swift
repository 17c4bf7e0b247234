/// The UIViewController callbacks Lifetrace records, spelled as Apple spells them.
///
/// Source: Apple's UIViewController documentation ("Managing the view", "Responding to view-related events",
/// "Adding and removing a child view controller", "Responding to containment events") and the observed orders in
/// DESIGN.md §2. `initialize` stands for any designated initializer (`init(nibName:bundle:)`, `init(coder:)`),
/// `deinit` for deallocation.
public enum Callback: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case initialize = 0
    case loadView = 1
    case viewDidLoad = 2
    case viewWillAppear = 3
    case viewIsAppearing = 4
    case viewWillLayoutSubviews = 5
    case viewDidLayoutSubviews = 6
    case viewDidAppear = 7
    case viewWillDisappear = 8
    case viewDidDisappear = 9
    case deinitialize = 10
    case didReceiveMemoryWarning = 11
    case viewWillTransition = 12
    case willMoveToParent = 13
    case didMoveToParent = 14
    /// iOS 3–5: the controller's view was released under memory pressure while hidden (Apple, `viewDidUnload()`,
    /// deprecated in iOS 6, which no longer unloads views). The view is no longer loaded; the next access loads it
    /// again (loadView, viewDidLoad). The last code the 16-bit callback sets of the audit engine hold.
    case viewDidUnload = 15

    /// The name as Apple spells it in Swift: `viewWillDisappear`, `willMove(toParent:)`, `init`, `deinit`.
    public var name: String {
        switch self {
        case .initialize: "init"
        case .loadView: "loadView"
        case .viewDidLoad: "viewDidLoad"
        case .viewWillAppear: "viewWillAppear"
        case .viewIsAppearing: "viewIsAppearing"
        case .viewWillLayoutSubviews: "viewWillLayoutSubviews"
        case .viewDidLayoutSubviews: "viewDidLayoutSubviews"
        case .viewDidAppear: "viewDidAppear"
        case .viewWillDisappear: "viewWillDisappear"
        case .viewDidDisappear: "viewDidDisappear"
        case .deinitialize: "deinit"
        case .didReceiveMemoryWarning: "didReceiveMemoryWarning"
        case .viewWillTransition: "viewWillTransition(to:with:)"
        case .willMoveToParent: "willMove(toParent:)"
        case .didMoveToParent: "didMove(toParent:)"
        case .viewDidUnload: "viewDidUnload"
        }
    }

    public var description: String { name }

    /// Looks a callback up by `name` (the Swift spelling above).
    public init?(name: String) {
        guard let match = Callback.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// Whether UIKit passes an `animated` flag to this callback (the four appearance callbacks and
    /// `viewIsAppearing(_:)`).
    public var takesAnimated: Bool {
        switch self {
        case .viewWillAppear, .viewIsAppearing, .viewDidAppear, .viewWillDisappear, .viewDidDisappear: true
        default: false
        }
    }

    /// Whether this is one of the four appearance callbacks that drive the appearance state machine
    /// (`disappeared → appearing → appeared → disappearing → disappeared`, DESIGN.md §2).
    public var isAppearanceCallback: Bool {
        switch self {
        case .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear: true
        default: false
        }
    }
}
