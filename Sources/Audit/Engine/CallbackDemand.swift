/// The callbacks a monitor wants for now beyond its fixed `RuleMonitor.callbackFilter`: the monitor widens
/// `extra` while it waits on "the next callback of anyone" and narrows it again when nothing is pending, so the
/// engine does not call it (nor build an `Event`) for callbacks it would ignore.
///
/// The engine reads `extra` before each callback event; the monitor owns the object and writes it.
public final class CallbackDemand {
    /// Callbacks wanted now in addition to `callbackFilter` (empty: none).
    @exclusivity(unchecked) public var extra: CallbackSet = []
    /// App and scene delegate events wanted now in addition to `RuleMonitor.appFilter` (empty: none).
    @exclusivity(unchecked) public var app: AppTransitionSet = []

    public init() {}
}
