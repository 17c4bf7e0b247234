import TraceModel

/// A set of `ContainerOperation`s as a bit mask (bit `n` is the operation with raw value `n`), so the engine calls
/// a monitor only for the container operations it looks at (`RuleMonitor.containerFilter`), and builds nothing
/// for an operation no monitor looks at.
public struct ContainerOperationSet: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The operations in `operations`.
    public init(_ operations: [ContainerOperation]) {
        self.init(rawValue: operations.reduce(UInt32(0)) { $0 | Self.bit($1.rawValue) })
    }

    /// Every operation.
    public static let all = ContainerOperationSet(rawValue: .max)

    /// Whether the set holds `operation`.
    public func contains(_ operation: ContainerOperation) -> Bool {
        contains(code: operation.rawValue)
    }

    /// Whether the set holds the operation with raw value `code` (a raw value beyond the mask: only `.all`).
    @inline(__always)
    func contains(code: UInt8) -> Bool {
        rawValue & Self.bit(code) != 0 || rawValue == .max
    }

    @inline(__always)
    private static func bit(_ code: UInt8) -> UInt32 {
        code < 32 ? 1 << UInt32(code) : 0
    }
}
