import TraceModel

/// Receives every event of a replay with the state just before and just after the fold applies it.
///
/// The states are borrowed for the duration of the call: storing one makes a copy of the whole state (copy on
/// write), so keep only what you need. Both methods have empty default implementations.
public protocol ReplayVisitor {
    /// Called before `event` (with `ordinal`) is applied; `state` covers every earlier event.
    mutating func willApply(_ event: Event, ordinal: UInt64, to state: ReplayState) throws
    /// Called after `event` was applied; `state` covers it.
    mutating func didApply(_ event: Event, ordinal: UInt64, giving state: ReplayState) throws
}

extension ReplayVisitor {
    public mutating func willApply(_ event: Event, ordinal: UInt64, to state: ReplayState) throws {}
    public mutating func didApply(_ event: Event, ordinal: UInt64, giving state: ReplayState) throws {}
}

/// A visitor made of closures (not `Sendable`: the closures are not).
public struct ClosureVisitor: ReplayVisitor {
    private let before: ((Event, UInt64, ReplayState) throws -> Void)?
    private let after: ((Event, UInt64, ReplayState) throws -> Void)?

    public init(
        willApply: ((_ event: Event, _ ordinal: UInt64, _ state: ReplayState) throws -> Void)? = nil,
        didApply: ((_ event: Event, _ ordinal: UInt64, _ state: ReplayState) throws -> Void)? = nil
    ) {
        self.before = willApply
        self.after = didApply
    }

    public mutating func willApply(_ event: Event, ordinal: UInt64, to state: ReplayState) throws {
        try before?(event, ordinal, state)
    }

    public mutating func didApply(_ event: Event, ordinal: UInt64, giving state: ReplayState) throws {
        try after?(event, ordinal, state)
    }
}

extension ReplayState {
    /// The state after folding `events` in order, with ordinals from `firstOrdinal`.
    public static func replaying<S: Sequence>(_ events: S, firstOrdinal: UInt64 = 0) -> ReplayState where S.Element == Event {
        var state = ReplayState()
        var ordinal = firstOrdinal
        for event in events {
            state.apply(event, ordinal: ordinal)
            ordinal += 1
        }
        return state
    }

    /// Folds `events` (ordinals from `firstOrdinal`), calling `visitor` around each.
    ///
    /// - Throws: Whatever the visitor throws; the state then covers the events applied before.
    public static func replaying<S: Sequence, V: ReplayVisitor>(
        _ events: S, firstOrdinal: UInt64 = 0, visitor: inout V
    ) throws -> ReplayState where S.Element == Event {
        var state = ReplayState()
        var ordinal = firstOrdinal
        for event in events {
            try visitor.willApply(event, ordinal: ordinal, to: state)
            state.apply(event, ordinal: ordinal)
            try visitor.didApply(event, ordinal: ordinal, giving: state)
            ordinal += 1
        }
        return state
    }
}

@available(*, unavailable)
extension ClosureVisitor: Sendable {}
