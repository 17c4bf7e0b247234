/// The callbacks a monitor wants for now beyond its fixed `RuleMonitor.callbackFilter`: the monitor widens
/// `extra` while it waits on "the next callback of anyone" and narrows it again when nothing is pending, so the
/// engine does not call it (nor build an `Event`) for callbacks it would ignore.
///
/// The engine reads `extra` and `app` again after a call of the monitor changed them; the monitor owns the object
/// and writes it.
public final class CallbackDemand {
    /// Callbacks wanted now in addition to `callbackFilter` (empty: none).
    @exclusivity(unchecked) public var extra: CallbackSet = [] {
        didSet { if extra != oldValue { changed?.pointee = true } }
    }
    /// App and scene delegate events wanted now in addition to `RuleMonitor.appFilter` (empty: none).
    @exclusivity(unchecked) public var app: AppTransitionSet = [] {
        didSet { if app != oldValue { changed?.pointee = true } }
    }
    /// Set when `extra` or `app` changes, so that the session re-reads the demands only then (the audit session
    /// that calls the monitor points it at its own flag).
    @exclusivity(unchecked) var changed: UnsafeMutablePointer<Bool>?

    public init() {}
}
