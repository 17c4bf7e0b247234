/// Where a controller stands in the appearance state machine of docs/LIFECYCLE.md.
///
/// `disappeared → appearing → appeared → disappearing → disappeared`, with two legal cancellations:
/// `appearing → disappearing` (viewWillAppear then viewWillDisappear, no viewDidAppear) and
/// `disappearing → appearing` (viewWillDisappear then viewWillAppear, no viewDidDisappear), as in a cancelled
/// interactive pop or a cancelled page scroll. Source: Apple's UIViewController documentation ("Responding to
/// view-related events") and the observed orders in docs/LIFECYCLE.md.
///
/// `unknown` is the state of a controller first seen by something other than its creation (a console log that
/// starts mid-session); its first appearance callback settles it (a first viewWillDisappear means it was
/// appeared, so it becomes `disappearing`).
public enum Appearance: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case unknown = 0
    case disappeared = 1
    case appearing = 2
    case appeared = 3
    case disappearing = 4

    /// `unknown`, `disappeared`, `appearing`, `appeared` or `disappearing` (the JSON contract's spelling).
    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .disappeared: "disappeared"
        case .appearing: "appearing"
        case .appeared: "appeared"
        case .disappearing: "disappearing"
        }
    }

    public var description: String { name }
}
