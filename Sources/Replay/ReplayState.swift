import TraceModel

/// The state of the app and of every controller at one instant of a trace: what a fold of the events up to that
/// instant leaves.
///
/// Build it with `ReplayState()` and `apply(_:ordinal:)` (pure and deterministic: the same events always give
/// an equal state), or get it at an instant of a file with `Replayer.state(at:)`. Times are `UInt64`
/// nanoseconds on the trace's monotonic clock. Controllers are keyed by `ControllerRef.serial`. A controller
/// whose deinit has ended keeps its full record until `retainedDeadLimit` more recent deaths push it out; after
/// that only its serial is kept (in `deadSerials`, stored as ranges). So the state grows with the number of live
/// controllers, not with the number of events or of controllers ever created.
public struct ReplayState: Sendable, Hashable {
    /// Timestamp of the last applied event, `nil` before any.
    public var time: UInt64?
    /// Timestamp of the first applied event, `nil` before any.
    public var startTime: UInt64?
    /// How many events were applied.
    public var eventCount: UInt64
    /// Ordinal of the last applied event.
    public var lastOrdinal: UInt64?

    /// The app's state: from the application delegate callbacks, or the most foreground scene when the trace
    /// has scene callbacks.
    public var app: RunState
    /// Scene states by scene id (the `scene` of scene-delegate events).
    public var scenes: [String: RunState]
    /// App and scene delegate callbacks executing now, outermost first.
    public var appCallbacks: [ActiveCallback]
    /// The most recent app or scene callback (interval or instant).
    public var lastAppCallback: ActiveCallback?
    /// Every callback executing now (controllers' and the app's), outermost first.
    public var executing: [ActiveCallback]
    /// The most recent callback of any controller or of the app (interval or instant).
    public var lastCallback: ActiveCallback?

    /// The window's root controller (`setRoot` without a container), if known.
    public var windowRoot: UInt32?
    /// Every live controller, and the `retainedDeadLimit` most recently dead ones, by serial.
    public var controllers: ControllerTable
    /// Serials of the dead controllers still in `controllers`, oldest death first.
    public var retainedDead: [UInt32]
    /// Serials of every controller whose deinit was seen (retained or not).
    public var deadSerials: SerialSet
    /// Transitions begun and not yet finished or cancelled, in begin order.
    public var transitions: [InFlightTransition]

    /// Resources started by marks that name no controller and happen outside any controller callback.
    public var appResources: [LiveResource]
    /// Unsaved edits from marks that name no controller and happen outside any controller callback.
    public var appUnsaved: [UnsavedEdit]
    /// SwiftUI views with no known hosting controller.
    public var unhostedSwiftUIViews: [SwiftUIViewState]

    /// The first `retainedDiagnosticLimit` anomalies found, in full, in event order. Later ones are only counted
    /// (`diagnosticCounts`), so that a trace repeating one anomaly a million times keeps a state (and checkpoints)
    /// the size of its live controllers.
    public var diagnostics: [Diagnostic]
    /// How many anomalies of each kind were found, every one counted: indexed by `Diagnostic.Kind.rawValue`, empty
    /// until the first (see `diagnosticCount(of:)`).
    public var diagnosticCounts: [UInt64]
    /// The anomaly found last, kept past the limit so that a visitor watching the fold sees each one as it happens.
    public var latestDiagnostic: Diagnostic?
    /// Events the recorder reported as dropped.
    public var droppedEvents: UInt64

    /// How many anomalies `diagnostics` keeps in full (the first found).
    public static let retainedDiagnosticLimit = 100

    /// How many dead controllers keep their full record in `controllers` (the most recent deaths).
    public static let retainedDeadLimit = 16

    /// The state before any event.
    public init() {
        time = nil
        startTime = nil
        eventCount = 0
        lastOrdinal = nil
        app = .unknown
        scenes = [:]
        appCallbacks = []
        lastAppCallback = nil
        executing = []
        lastCallback = nil
        windowRoot = nil
        controllers = [:]
        retainedDead = []
        deadSerials = SerialSet()
        transitions = []
        appResources = []
        appUnsaved = []
        unhostedSwiftUIViews = []
        diagnostics = []
        diagnosticCounts = []
        latestDiagnostic = nil
        droppedEvents = 0
    }

    /// The state of the controller `ref`, if it was seen.
    public subscript(ref: ControllerRef) -> ControllerState? {
        controllers[ref.serial]
    }

    /// The controller an `ActiveCallback` runs on, from its record; `nil` for app callbacks or when the record is
    /// no longer kept.
    public func controllerRef(of callback: ActiveCallback) -> ControllerRef? {
        guard let serial = callback.controllerSerial, let position = controllers.position(of: serial) else { return nil }
        return controllers[at: position].ref
    }

    /// `NoteEditorViewController#2.viewWillDisappear` or `app.didEnterBackground` / `scene(S1).didEnterBackground`
    /// (`#7.viewDidLoad` when the controller's record is no longer kept).
    public func describe(_ callback: ActiveCallback) -> String {
        if let serial = callback.controllerSerial {
            return "\(controllerRef(of: callback)?.displayName ?? "#\(serial)").\(callback.name)"
        }
        if let scene = callback.scene { return "scene(\(scene)).\(callback.name)" }
        return "app.\(callback.name)"
    }

    /// The first controller whose `displayName` is `name` (lowest serial), if any.
    public func controller(named name: String) -> ControllerState? {
        controllers.values.filter { $0.ref.displayName == name }.min { $0.ref.serial < $1.ref.serial }
    }

    /// Controllers ordered by serial.
    public var sortedControllers: [ControllerState] {
        controllers.values.sorted { $0.ref.serial < $1.ref.serial }
    }
}
