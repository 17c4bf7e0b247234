import TraceModel

/// A rule's running state over one trace: fed each event it is interested in, it appends findings.
///
/// Monitors are classes so the engine can call them through an existential without copying their state. A
/// monitor is used by one audit session on one thread; it is not `Sendable`.
public protocol RuleMonitor: AnyObject {
    /// The event kinds `observe` wants.
    var interests: EventInterests { get }

    /// Of the callback events, the callbacks `observe` wants (default: all of them).
    var callbackFilter: CallbackSet { get }

    /// Callbacks wanted for now beyond `callbackFilter`, changed by the monitor as it goes (default: `nil`, none).
    var callbackDemand: CallbackDemand? { get }

    /// Called for each event of the kinds in `interests`, in trace order, after the engine's
    /// `CallbackAttribution` has applied it.
    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding])

    /// Called once after the last event. Monitors still waiting (a deadline not reached) report
    /// `Verdict.inconclusive` findings here.
    func finish(_ end: TraceEnd, _ findings: inout [Finding])
}

extension RuleMonitor {
    public var callbackFilter: CallbackSet { .all }
    public var callbackDemand: CallbackDemand? { nil }
}
