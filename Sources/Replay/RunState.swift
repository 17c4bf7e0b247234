import TraceModel

/// The life-cycle state of the app or of one scene, as the delegate callbacks leave it.
///
/// Source: Apple's "Managing your app's life cycle": `willEnterForeground → inactive`,
/// `didBecomeActive → active`, `willResignActive → inactive`, `didEnterBackground → background`,
/// `willTerminate → terminated`; for scenes `willConnect → connected` (unattached) and
/// `didDisconnect → disconnected`. `unknown` until the trace says.
public enum RunState: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case unknown = 0
    case launched = 1
    case connected = 2
    case inactive = 3
    case active = 4
    case background = 5
    case terminated = 6
    case disconnected = 7

    /// The JSON spelling: `unknown`, `launched`, `connected`, `inactive`, `active`, `background`,
    /// `terminated`, `disconnected`.
    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .launched: "launched"
        case .connected: "connected"
        case .inactive: "inactive"
        case .active: "active"
        case .background: "background"
        case .terminated: "terminated"
        case .disconnected: "disconnected"
        }
    }

    public var description: String { name }

    /// The state a delegate callback leaves the app or scene in, or `nil` when it changes nothing
    /// (`didReceiveMemoryWarning`).
    public init?(after transition: AppTransition) {
        switch transition {
        case .didFinishLaunching: self = .launched
        case .willConnect: self = .connected
        case .willEnterForeground: self = .inactive
        case .didBecomeActive: self = .active
        case .willResignActive: self = .inactive
        case .didEnterBackground: self = .background
        case .didDisconnect: self = .disconnected
        case .willTerminate: self = .terminated
        case .didReceiveMemoryWarning: return nil
        }
    }

    /// Ranks states for deriving the app's state from its scenes: the most foreground scene wins.
    var foregroundRank: Int {
        switch self {
        case .active: 6
        case .inactive: 5
        case .connected: 4
        case .launched: 3
        case .background: 2
        case .terminated: 1
        case .disconnected, .unknown: 0
        }
    }
}
