import TraceModel

/// A set of `Callback`s as a bit mask, so the engine can skip monitors cheaply for callbacks they ignore.
///
/// Bits 0–15 stand for a callback's `begin` and `instant` events, bits 16–31 for its `end` events, so a monitor
/// that ignores ends can say so (`init(_:ends:)`) and is not called for them.
public struct CallbackSet: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The callbacks in `callbacks`, at every phase, or at `begin` and `instant` only when `ends` is `false`.
    public init(_ callbacks: [Callback], ends: Bool = true) {
        let mask = callbacks.reduce(UInt32(0)) { $0 | (1 << UInt32($1.rawValue)) }
        self.init(rawValue: ends ? mask | mask << 16 : mask)
    }

    /// Every callback.
    public static let all = CallbackSet(rawValue: .max)

    /// Whether the set holds `callback` at some phase.
    public func contains(_ callback: Callback) -> Bool {
        rawValue & (0x1_0001 << UInt32(callback.rawValue)) != 0
    }

    /// Whether the set holds `callback` at `phase`.
    @inline(__always)
    public func contains(_ callback: Callback, _ phase: Phase) -> Bool {
        rawValue & (1 << (UInt32(callback.rawValue) &+ (phase == .end ? 16 : 0))) != 0
    }
}
