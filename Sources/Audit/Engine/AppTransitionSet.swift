import TraceModel

/// A set of `AppTransition`s as a bit mask, so the engine calls a monitor only for the app and scene delegate
/// callbacks it looks at (`RuleMonitor.appFilter`).
///
/// Bits 0–15 stand for a transition's `begin` and `instant` events, bits 16–31 for its `end` events (as
/// `CallbackSet`'s), so a monitor that ignores ends can say so (`init(_:ends:)`).
public struct AppTransitionSet: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The transitions in `transitions`, at every phase, or at `begin` and `instant` only when `ends` is `false`.
    public init(_ transitions: [AppTransition], ends: Bool = true) {
        let mask = transitions.reduce(UInt32(0)) { $0 | (1 << UInt32($1.rawValue & 0xF)) }
        self.init(rawValue: ends ? mask | mask << 16 : mask)
    }

    /// Every transition.
    public static let all = AppTransitionSet(rawValue: .max)

    /// Whether the set holds `transition` at `phase`.
    @inline(__always)
    public func contains(_ transition: AppTransition, _ phase: Phase) -> Bool {
        contains(code: transition.rawValue, phase)
    }

    /// Whether the set holds the transition with raw value `code` at `phase`.
    @inline(__always)
    func contains(code: UInt8, _ phase: Phase) -> Bool {
        rawValue & (1 << (UInt32(code & 0xF) &+ (phase == .end ? 16 : 0))) != 0
    }
}
