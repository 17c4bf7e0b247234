import TraceModel

/// A set of `Callback`s as a bit mask, so the engine can skip monitors cheaply for callbacks they ignore.
public struct CallbackSet: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    public init(_ callbacks: [Callback]) {
        self.init(rawValue: callbacks.reduce(0) { $0 | (1 << UInt32($1.rawValue)) })
    }

    /// Every callback.
    public static let all = CallbackSet(rawValue: .max)

    public func contains(_ callback: Callback) -> Bool {
        rawValue & (1 << UInt32(callback.rawValue)) != 0
    }
}
