/// An app-delegate or scene-delegate callback.
///
/// `scene` is `nil` for the UIApplicationDelegate callbacks and the scene's persistent identifier for the
/// UISceneDelegate / UIWindowSceneDelegate ones. Source: Apple's "Managing your app's life cycle": apps with
/// scenes get the scene callbacks instead of the app ones for foreground/background transitions; on going to
/// the background a controller gets no viewWillDisappear/viewDidDisappear, and the app has about 5 seconds in
/// didEnterBackground to save user data.
public struct AppEvent: Sendable, Hashable {
    public var transition: AppTransition
    public var phase: Phase
    public var scene: String?

    public init(_ transition: AppTransition, _ phase: Phase = .instant, scene: String? = nil) {
        self.transition = transition
        self.phase = phase
        self.scene = scene
    }

    /// The delegate method's name: `applicationDidEnterBackground(_:)` or `sceneDidEnterBackground(_:)`.
    public var delegateMethodName: String {
        scene == nil ? transition.applicationMethodName : transition.sceneMethodName
    }
}

/// The app and scene life-cycle transitions.
public enum AppTransition: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case didFinishLaunching = 0
    case willConnect = 1
    case willEnterForeground = 2
    case didBecomeActive = 3
    case willResignActive = 4
    case didEnterBackground = 5
    case didDisconnect = 6
    case willTerminate = 7
    case didReceiveMemoryWarning = 8

    public var name: String {
        switch self {
        case .didFinishLaunching: "didFinishLaunching"
        case .willConnect: "willConnect"
        case .willEnterForeground: "willEnterForeground"
        case .didBecomeActive: "didBecomeActive"
        case .willResignActive: "willResignActive"
        case .didEnterBackground: "didEnterBackground"
        case .didDisconnect: "didDisconnect"
        case .willTerminate: "willTerminate"
        case .didReceiveMemoryWarning: "didReceiveMemoryWarning"
        }
    }

    public var description: String { name }

    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// The UIApplicationDelegate spelling, e.g. `applicationDidEnterBackground(_:)`.
    public var applicationMethodName: String {
        switch self {
        case .didFinishLaunching: "application(_:didFinishLaunchingWithOptions:)"
        case .willConnect: "application(_:configurationForConnecting:options:)"
        case .didDisconnect: "application(_:didDiscardSceneSessions:)"
        case .willEnterForeground: "applicationWillEnterForeground(_:)"
        case .didBecomeActive: "applicationDidBecomeActive(_:)"
        case .willResignActive: "applicationWillResignActive(_:)"
        case .didEnterBackground: "applicationDidEnterBackground(_:)"
        case .willTerminate: "applicationWillTerminate(_:)"
        case .didReceiveMemoryWarning: "applicationDidReceiveMemoryWarning(_:)"
        }
    }

    /// The UISceneDelegate spelling, e.g. `sceneDidEnterBackground(_:)`.
    public var sceneMethodName: String {
        switch self {
        case .didFinishLaunching, .willConnect: "scene(_:willConnectTo:options:)"
        case .didDisconnect: "sceneDidDisconnect(_:)"
        case .willEnterForeground: "sceneWillEnterForeground(_:)"
        case .didBecomeActive: "sceneDidBecomeActive(_:)"
        case .willResignActive: "sceneWillResignActive(_:)"
        case .didEnterBackground: "sceneDidEnterBackground(_:)"
        case .willTerminate: "applicationWillTerminate(_:)"
        case .didReceiveMemoryWarning: "applicationDidReceiveMemoryWarning(_:)"
        }
    }
}
