import Replay
import TraceModel

/// One lifecycle fact: what the audit engine tells its rules about the trace, derived once per event from the
/// event and the replayed state (`FactDeriver`), for all rules at once.
///
/// Controllers are named by serial (`ControllerRef.serial`); a rule resolves a name only when it reports
/// (`ReplayView.name(of:)`). Every fact happens at the event being folded: `ReplayView.ordinal`, `timestamp`
/// (nanoseconds on the trace's monotonic clock) and `source`. Facts of one event come in the order listed
/// below for it: the event's own fact first (`callback`, `mark`, `container`, `app`, `swiftUI`, `runStarted`),
/// then what it completes (`disappearanceCancelled`, `removed`, `deinitialized`, `resourceStarted`/`Stopped`,
/// `exitCompleted`). docs/ARCHITECTURE.md lists each fact with the UIKit behaviour it relies on.
public enum Fact: Sendable, Hashable {
    /// A UIViewController callback began, ended or was recorded as an instant (imported logs).
    case callback(CallbackFact)
    /// A mark (the app's own code: a save, an edit, a timer, …) with its owner and the callback it happened in.
    case mark(MarkFact)
    /// A disappearance that will not complete: the controller got viewWillDisappear, and then viewWillAppear
    /// before any viewDidDisappear, or a recorded `interactiveTransitionCancel` names it as `from`.
    case disappearanceCancelled(Cancellation)
    /// A controller left the screen or the process for good: its viewDidDisappear finished, its deinit began,
    /// the app or scene entered the background while it was on screen, or its process ended. Emitted when the
    /// exit's window closes: at the callback's end, or, for an instant (imported logs), at the next callback or
    /// app event (work logged in between ran inside it), or at the end of the trace.
    case exitCompleted(Exit)
    /// A controller was removed from the hierarchy: popped, dismissed (also by a sheet's swipe down), removed from
    /// its parent, `didMove(toParent: nil)`, or dropped from a container's list by `setViewControllers`/`setRoot`.
    case removed(RemovalFact)
    /// A controller's deinit began (or was recorded as an instant).
    case deinitialized(UInt32)
    /// A resource mark started (`timer.start`, `observer.add`, `task.start`, `request.start`) or stopped
    /// (`timer.stop`, `observer.remove`, `task.cancel`, `request.cancel`) a timer, observer, task or request.
    case resourceStarted(ResourceFact)
    case resourceStopped(ResourceFact)
    /// A container operation (push, pop, present, dismiss, addChild, …).
    case container(ContainerEvent)
    /// An app or scene delegate callback.
    case app(AppEvent)
    /// A SwiftUI `onAppear`/`onDisappear` action.
    case swiftUI(SwiftUIEvent)
    /// A new recording run (`process`, e.g. `Notes[2231]`) started after earlier events: the previous run's
    /// process ended (killed or crashed) without recording anything more. `previousTimestamp` is its last event's
    /// time.
    case runStarted(process: String, previousTimestamp: UInt64?)

    /// The fact's kind, what rules subscribe by (`AuditRule.facts`).
    public var kind: FactKind {
        switch self {
        case .callback(let fact): .callback(fact.callback)
        case .mark(let fact): .mark(fact.name)
        case .disappearanceCancelled: .disappearanceCancelled
        case .exitCompleted: .exitCompleted
        case .removed: .removed
        case .deinitialized: .deinitialized
        case .resourceStarted: .resourceStarted
        case .resourceStopped: .resourceStopped
        case .container: .container
        case .app: .app
        case .swiftUI: .swiftUI
        case .runStarted: .runStarted
        }
    }
}

/// A callback event of a controller, as numbers.
public struct CallbackFact: Sendable, Hashable {
    public var controller: UInt32
    public var callback: Callback
    public var phase: Phase
    /// The `animated` argument, when the callback takes one and it was recorded.
    public var animated: Bool?
    /// The `parent` argument of `willMove(toParent:)`/`didMove(toParent:)`: `.some(nil)` for UIKit's `nil`,
    /// `.some(serial)` for a controller, `nil` when absent.
    public var parent: UInt32??
    /// The parent argument's controller as this event names it (`nil` without a controller argument).
    public var parentRef: ControllerRef?
    /// For an `end`: nanoseconds since its `begin` (the matching begin of the same controller and callback),
    /// `nil` when that begin is not in the trace or for a begin or instant.
    public var duration: UInt64?
    /// For an `end`: the ordinal of its begin (with `duration`).
    public var beginOrdinal: UInt64?

    /// A begin or an instant (where the callback starts running).
    public var isStart: Bool { phase != .end }
}

/// A mark with its attribution.
public struct MarkFact: Sendable, Hashable {
    public var name: String
    public var phase: Phase
    /// The controller the mark names, if any.
    public var owner: UInt32?
    public var fields: [MarkField]
    /// The callback the mark happened in: the innermost open callback interval of its owner or the app (of
    /// anyone for a mark without an owner), else, in instant-only logs, the most recent callback event if it is
    /// an instant of the owner or of the app (the log line ran inside it). `nil` when nothing encloses it.
    /// The same answer as `ReplayState.enclosingCallback(ofSerial:)`, of which this is the only use in rules.
    public var enclosing: ActiveCallback?

    /// The first field called `name`.
    public subscript(field name: String) -> FieldValue? {
        fields.first { $0.name == name }?.value
    }

    /// `key` as a string (`save`, `edit`).
    public var key: String? { self[field: "key"]?.stringValue }
    /// `critical=true` (`save`).
    public var isCritical: Bool { self[field: "critical"]?.boolValue ?? false }
    /// The controller the mark is about: its owner, else the controller whose callback encloses it (`nil`:
    /// app-level code).
    public var controller: UInt32? { owner ?? enclosingController }
    /// The enclosing callback's method name: `viewWillAppear`, `applicationDidEnterBackground(_:)`,
    /// `sceneDidEnterBackground(_:)`.
    public var enclosingName: String? {
        enclosing.map(ReplayView.methodName(of:))
    }
    /// The controller `enclosing` runs on (`nil` for an app callback or none).
    public var enclosingController: UInt32? { enclosing?.controllerSerial }
    /// The enclosing callback when it is a controller callback.
    public var enclosingCallback: Callback? {
        if case .controller(let callback)? = enclosing?.kind { return callback }
        return nil
    }
    /// The enclosing callback when it is an app or scene delegate callback.
    public var enclosingApp: AppTransition? {
        if case .app(let transition)? = enclosing?.kind { return transition }
        return nil
    }
}

/// A cancelled disappearance.
public struct Cancellation: Sendable, Hashable {
    public enum Cause: Sendable, Hashable {
        /// The controller got viewWillAppear without viewDidDisappear (a cancelled swipe back or page scroll).
        case viewWillAppear
        /// A recorded `interactiveTransitionCancel` whose first controller (`from`) is the controller.
        case interactiveTransitionCancel
    }

    public var controller: UInt32
    public var cause: Cause
    /// The ordinal and time of the viewWillDisappear (begin or instant) that the cancellation undoes.
    public var willDisappearOrdinal: UInt64
    public var willDisappearTime: UInt64
}

/// A controller's exit.
public struct Exit: Sendable, Hashable {
    public enum Cause: Sendable, Hashable {
        /// viewDidDisappear finished: the disappearance is final.
        case viewDidDisappear
        /// deinit began.
        case deinitialized
        /// The app or scene entered the background (`didEnterBackground`) or is terminating (`willTerminate`).
        case background(AppTransition)
        /// The process ended: a later recording run started.
        case processEnded
    }

    /// The controller; `nil` when the app itself leaves (`background`, `processEnded`): every controller alive
    /// then leaves with it.
    public var controller: UInt32?
    public var cause: Cause
    /// Where the exit began (the callback's begin or instant, the app callback, or the `runStarted` event), and
    /// that event's recorded source.
    public var ordinal: UInt64
    public var timestamp: UInt64
    public var source: EventSource?
}

/// A removal from the hierarchy.
public struct RemovalFact: Sendable, Hashable {
    public enum How: Sendable, Hashable {
        /// A container operation on it: `pop`, `dismiss`, `presentationControllerDidDismiss`, `removeFromParent`.
        case operation(ContainerOperation)
        /// `didMove(toParent: nil)` (its begin, end or instant).
        case didMoveToNilParent
        /// It left the list of a `setViewControllers` or `setRoot` (the fold's `Removal.Kind.replaced`).
        case leftList(ContainerOperation)

        /// `pop`, `didMove(toParent: nil)`, `left the list of setViewControllers`.
        public var text: String {
            switch self {
            case .operation(let operation): operation.name
            case .didMoveToNilParent: "didMove(toParent: nil)"
            case .leftList(let operation): "left the list of \(operation.name)"
            }
        }
    }

    public var controller: UInt32
    public var how: How
}

/// A resource started or stopped.
public struct ResourceFact: Sendable, Hashable {
    public var kind: LiveResource.Kind
    /// The mark's `id` (`name` for observers); empty when it had none.
    public var id: String
    /// The controller the resource belongs to (the mark's owner, else the enclosing callback's controller);
    /// `nil` for an app resource.
    public var owner: UInt32?
}
