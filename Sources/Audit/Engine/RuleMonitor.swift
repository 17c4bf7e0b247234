import TraceLog
import TraceModel

/// A rule's running state over one trace: fed each event it is interested in, it appends findings.
///
/// Monitors are classes so the engine can call them through an existential without copying their state. A
/// monitor is used by one audit session on one thread; it is not `Sendable`.
///
/// Callback events reach a monitor as records (`observe(callback:_:_:)`): trivially copyable, controllers as
/// serials, so a monitor that only keeps per-controller state pays no string copies; it asks the context for the
/// controller's `ControllerRef` (`EventContext.controller(of:)`) only when it makes a finding or keeps the name.
/// Container, app, SwiftUI and mark events reach `observe(record:_:_:)` as records too (strings, controllers and
/// fields stay in the frame's tables until asked for); recorder events reach `observe(_:_:_:)` as `Event`s.
public protocol RuleMonitor: AnyObject {
    /// The event kinds the monitor wants (`.callbacks` for `observe(callback:_:_:)`, the others for
    /// `observe(_:_:_:)`).
    var interests: EventInterests { get }

    /// Of the callback events, the callbacks (and phases) `observe(callback:_:_:)` wants (default: all of them).
    var callbackFilter: CallbackSet { get }

    /// Callbacks wanted for now beyond `callbackFilter`, changed by the monitor as it goes (default: `nil`, none).
    var callbackDemand: CallbackDemand? { get }

    /// Narrow some callbacks of `callbackFilter` to some controllers, by serial (default: none): those in a
    /// filter's `SerialFilter.callbacks` reach `observe(callback:_:_:)` only for the controllers that filter lets
    /// through (or when `callbackDemand` asks for them). The filters' callbacks must not overlap (a callback in
    /// two is filtered by the first). Read once, when the session starts; the monitor changes the sets.
    var serialFilters: [SerialFilter] { get }

    /// The callbacks (of `callbackFilter`) for which `observe(callback:_:_:)` reads nothing of the replayed state
    /// (default: none). Advisory since the engine folds on demand: it calls every monitor as it scans a batch and
    /// folds the events not folded yet only when a monitor reads `EventContext.state`, `attribution` or
    /// `enclosingCallback(of:)`, so reading the state costs a fold split (≈ 300 instructions) where it is read, and
    /// nothing where it is not, whether or not it is declared here.
    var stateFreeCallbacks: CallbackSet { get }

    /// The kinds among `.containers`, `.app`, `.marks` and `.swiftUI` for which `observe(record:_:_:)` reads nothing
    /// of the replayed state (default: none; advisory, as `stateFreeCallbacks`).
    var stateFreeRecords: EventInterests { get }

    /// Container operations for which `observe(record:_:_:)` reads nothing of the replayed state (default: none;
    /// advisory, as `stateFreeCallbacks`).
    var stateFreeContainers: ContainerOperationSet { get }

    /// Of the marks (when `interests` holds `.marks`), the names `observe(_:_:_:)` wants (default: every mark).
    var markFilter: MarkFilter { get }

    /// Of the container events (when `interests` holds `.containers`), the operations wanted (default: all).
    var containerFilter: ContainerOperationSet { get }

    /// Of the app and scene delegate events (when `interests` holds `.app`), the transitions (and phases)
    /// wanted (default: all). `callbackDemand` may widen it for a while (`CallbackDemand.app`).
    var appFilter: AppTransitionSet { get }

    /// Called for each callback event in `callbackFilter` (or the demand's `extra`), in trace order, after the
    /// engine's replay (`EventContext.state`) has applied it. `record` is of kind `.callback`; its controller and
    /// parent are serials, resolved to `ControllerRef`s by `EventContext.controller(of:)` and `parent(of:)`.
    /// Default: builds the `Event` (`EventContext.event(of:)`) and calls `observe(_:_:_:)`.
    func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding])

    /// Called for each container, app, SwiftUI and mark event of the kinds in `interests` (and in the filters
    /// above), in trace order, after the engine's replay has applied it. `record` is of kind `.container`, `.app`,
    /// `.swiftUI` or `.mark`: its numbers are read directly (`containerOperation`, `appTransition`,
    /// `swiftUIAction`, `markName`, `phase`, the serials), its strings, controllers, lists and fields through
    /// the context (`EventContext.string(of:)`, `controller(of:)`, `listSerial(_:of:)`, `field(_:of:)`, …),
    /// and the whole `Event` with `EventContext.event(of:)` (built once per event, only when asked for).
    /// Default: calls `observe(_:_:_:)` with that `Event`.
    func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding])

    /// Called for each recorder event (when `interests` holds `.recorder`), and by the default
    /// `observe(record:_:_:)` and `observe(callback:_:_:)` with the event built from the record; in trace order,
    /// after the engine's replay has applied it.
    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding])

    /// Whether the monitor reads all the callbacks of its `callbackFilter` from batches itself (default `false`):
    /// the default `scannedCallbacks` is then `callbackFilter`.
    var scansCallbacks: Bool { get }

    /// Callbacks (of `callbackFilter`) whose `end` the monitor does not need when it is the event right after its
    /// own begin (default: none): the same controller (serial and frame slot), the same callback and the same
    /// parent argument (none, `nil`, or the same controller serial and frame slot), in the same batch. Declare a
    /// callback here only when observing such an end after that begin changes nothing the monitor keeps. For
    /// events that come in batches, the batch loop then leaves such an end out, before building its record, when
    /// no other monitor's fixed filter wants it; it still comes when a demand or a serial filter asks for it, or
    /// when events are fed one by one. Only the `end` bits (`CallbackSet` bits 16–31) are read.
    var quietEnds: CallbackSet { get }

    /// The callbacks (of `callbackFilter`) the monitor reads from batches itself (`scanCallbacks(_:_:)`; default:
    /// `callbackFilter` when `scansCallbacks`, else none). For events that come in batches
    /// (`AuditSession.observeRest(of:batch:)`) the engine does not call `observe(callback:_:_:)` for these but lists
    /// their entries for the monitor and lends it the list (`CallbackScan`) before it calls the monitor for anything
    /// else (a callback it does not scan, a record, an event), at the end of each batch and before an event it
    /// dispatches as an `Event`; so the monitor sees its events in trace order. Events fed one by one
    /// (`observe(_:ordinal:)`, `observe(_:from:)`) reach `observe(callback:_:_:)` as usual. Honoured only for a
    /// monitor with no `callbackDemand` (the engine reads the demands at each entry, and a scan comes later), and
    /// not for the callbacks its `serialFilters` filter (before the engine asks such a filter about an entry, it
    /// lends the monitor the callbacks listed before it). A scan must not read the replayed state.
    var scannedCallbacks: CallbackSet { get }

    /// The kinds among `.containers`, `.app`, `.marks`, `.swiftUI` and `.recorder` whose `observe(record:_:_:)` (or
    /// `observe(_:_:_:)`) neither reads nor changes anything `scanCallbacks(_:_:)` reads or changes (default: none):
    /// the engine then calls the monitor for them without lending it its scanned callbacks first (a lend costs a
    /// call). Only for a monitor that scans.
    var scanIndependentRecords: EventInterests { get }

    /// Reads the callback entries of `scan` (those of `scannedCallbacks` listed since the last scan, in trace
    /// order: `CallbackScan.positions`); see `scannedCallbacks`. Default: nothing.
    func scanCallbacks(_ scan: CallbackScan, _ findings: inout [Finding])

    /// Called once after the last event. Monitors still waiting (a deadline not reached) report
    /// `Verdict.inconclusive` findings here.
    func finish(_ end: TraceEnd, _ findings: inout [Finding])
}

extension RuleMonitor {
    public var callbackFilter: CallbackSet { .all }
    public var callbackDemand: CallbackDemand? { nil }
    public var serialFilters: [SerialFilter] { [] }
    public var stateFreeCallbacks: CallbackSet { [] }
    public var stateFreeRecords: EventInterests { [] }
    public var stateFreeContainers: ContainerOperationSet { [] }
    public var markFilter: MarkFilter { .all }
    public var containerFilter: ContainerOperationSet { .all }
    public var appFilter: AppTransitionSet { .all }
    public var scansCallbacks: Bool { false }
    public var quietEnds: CallbackSet { [] }
    public var scannedCallbacks: CallbackSet { scansCallbacks ? callbackFilter : [] }
    public var scanIndependentRecords: EventInterests { [] }
    public func scanCallbacks(_ scan: CallbackScan, _ findings: inout [Finding]) {}

    public func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        context.withEvent(of: record) { observe($0, context, &findings) }
    }

    public func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        context.withEvent(of: record) { observe($0, context, &findings) }
    }
}
