import Replay
import TraceModel

/// The one place lifecycle facts are derived: from each event (after the fold applied it) and the replayed
/// state, in trace order. Keeps only what spans events: the open callback begins (for durations), the
/// disappearances not yet resolved (for cancellations), and the exits whose window is still open.
///
/// UIKit behaviour relied on (docs/ARCHITECTURE.md, "Facts"):
/// - A disappearance is announced by viewWillDisappear and made final by viewDidDisappear; it is cancelled when
///   the controller gets viewWillAppear before viewDidDisappear, or when an interactive transition is cancelled
///   (Apple, "UIViewController", "Responding to view-related events"; `UIViewControllerTransitionCoordinator`
///   `notifyWhenInteractionChanges(_:)`: a cancelled swipe back calls viewWillAppear on the controller that was
///   disappearing).
/// - Work done inside a callback runs between its begin and end; in instant-only logs (imported console logs)
///   a line printed after a callback's line and before the next callback or app line ran inside it (callbacks
///   run one after another on the main thread).
/// - Going to the background gives no viewWillDisappear/viewDidDisappear (Apple, "Managing your app's life
///   cycle"), so the app's didEnterBackground and willTerminate are exits of their own.
struct FactDeriver {
    /// An open callback interval: for the duration at its end.
    private struct Begin {
        var controller: UInt32
        var callback: Callback
        var since: UInt64
        var ordinal: UInt64
    }

    private var begins: [Begin] = []
    /// viewWillDisappear seen, viewDidDisappear (or deinit, or a cancellation) not yet: controller → (ordinal, time).
    private var disappearing: [UInt32: (ordinal: UInt64, time: UInt64)] = [:]
    /// Exits whose callback interval began and has not ended, by controller (nil: the app) and callback.
    private var openExits: [Exit] = []
    /// Exits recorded as instants: their window closes at the next callback or app event.
    private var instantExits: [Exit] = []

    /// Derives the facts of `event` (the fold applied it: `state` points to the state after it; read in place, never
    /// copied) and hands each to `emit`.
    mutating func derive(_ event: EngineEvent, ordinal: UInt64, timestamp: UInt64, source: EventSource?, previousTimestamp: UInt64?, state: UnsafePointer<ReplayState>, _ emit: (Fact) -> Void) {
        switch event {
        case .callback(var callback):
            closeInstantWindows(emit)
            if callback.phase == .end, let index = begins.lastIndex(where: { $0.controller == callback.controller && $0.callback == callback.callback }) {
                let begin = begins.remove(at: index)
                callback.duration = timestamp >= begin.since ? timestamp - begin.since : 0
                callback.beginOrdinal = begin.ordinal
            } else if callback.phase == .begin {
                begins.append(Begin(controller: callback.controller, callback: callback.callback, since: timestamp, ordinal: ordinal))
            }
            emit(.callback(callback))
            deriveCallback(callback, ordinal: ordinal, timestamp: timestamp, source: source, emit)
        case .mark(let mark):
            let owner = mark.controller?.serial
            var enclosing = state.pointee.enclosingCallback(ofSerial: owner)
            // A controller callback whose controller's record is gone encloses nothing (its name is unknown).
            if let serial = enclosing?.controllerSerial, !state.pointee.controllers.contains(serial) { enclosing = nil }
            let fact = MarkFact(name: mark.name, phase: mark.phase, owner: owner, fields: mark.fields, enclosing: enclosing)
            emit(.mark(fact))
            if mark.phase != .end, let change = Self.resource(mark.name) {
                let id = (change.kind == .observer ? fact[field: "name"] ?? fact[field: "id"] : fact[field: "id"])?.description ?? ""
                let resource = ResourceFact(kind: change.kind, id: id, owner: owner ?? enclosing?.controllerSerial)
                emit(change.starts ? .resourceStarted(resource) : .resourceStopped(resource))
            }
        case .container(let container):
            emit(.container(container))
            if container.operation == .interactiveTransitionCancel, container.phase != .end, let from = container.controllers.first?.serial,
               let disappearance = disappearing.removeValue(forKey: from) {
                emit(.disappearanceCancelled(Cancellation(
                    controller: from, cause: .interactiveTransitionCancel, willDisappearOrdinal: disappearance.ordinal, willDisappearTime: disappearance.time)))
            }
            switch container.operation {
            case .pop, .dismiss, .presentationControllerDidDismiss, .removeFromParent:
                for controller in container.controllers { emit(.removed(RemovalFact(controller: controller.serial, how: .operation(container.operation)))) }
            case .setViewControllers, .setRoot:
                // The members that left the list: the fold's removal record made at this event.
                for serial in state.pointee.controllers.keys.sorted() where state.pointee.controllers.leftList(serial, at: ordinal) {
                    emit(.removed(RemovalFact(controller: serial, how: .leftList(container.operation))))
                }
            default:
                break
            }
        case .app(let app):
            closeInstantWindows(emit)
            emit(.app(app))
            if app.transition == .didEnterBackground || app.transition == .willTerminate {
                exitWindow(Exit(controller: nil, cause: .background(app.transition), ordinal: ordinal, timestamp: timestamp, source: source), phase: app.phase, emit)
            }
        case .swiftUI(let swiftUI):
            emit(.swiftUI(swiftUI))
        case .recorder(let recorder):
            guard case .runStarted(let process) = recorder, ordinal > 0 else { return }
            closeInstantWindows(emit)
            for exit in openExits { emit(.exitCompleted(exit)) }
            openExits.removeAll()
            begins.removeAll()
            disappearing.removeAll()
            emit(.runStarted(process: process, previousTimestamp: previousTimestamp))
            emit(.exitCompleted(Exit(controller: nil, cause: .processEnded, ordinal: ordinal, timestamp: timestamp, source: source)))
        }
    }

    /// At the end of the trace: the exits whose window is still open complete.
    mutating func finish(_ emit: (Fact) -> Void) {
        closeInstantWindows(emit)
        for exit in openExits { emit(.exitCompleted(exit)) }
        openExits.removeAll()
    }

    private mutating func deriveCallback(_ callback: CallbackFact, ordinal: UInt64, timestamp: UInt64, source: EventSource?, _ emit: (Fact) -> Void) {
        let serial = callback.controller
        switch callback.callback {
        case .viewWillDisappear where callback.isStart:
            disappearing[serial] = (ordinal, timestamp)
        case .viewWillAppear where callback.isStart:
            if let disappearance = disappearing.removeValue(forKey: serial) {
                emit(.disappearanceCancelled(Cancellation(
                    controller: serial, cause: .viewWillAppear, willDisappearOrdinal: disappearance.ordinal, willDisappearTime: disappearance.time)))
            }
        case .viewDidDisappear:
            if callback.isStart { disappearing.removeValue(forKey: serial) }
            exitWindow(Exit(controller: serial, cause: .viewDidDisappear, ordinal: callback.beginOrdinal ?? ordinal, timestamp: timestamp, source: source), phase: callback.phase, emit)
        case .deinitialize:
            if callback.isStart {
                disappearing.removeValue(forKey: serial)
                emit(.deinitialized(serial))
            }
            exitWindow(Exit(controller: serial, cause: .deinitialized, ordinal: callback.beginOrdinal ?? ordinal, timestamp: timestamp, source: source), phase: callback.phase, emit)
        case .didMoveToParent where callback.parent == .some(nil):
            emit(.removed(RemovalFact(controller: serial, how: .didMoveToNilParent)))
        default:
            break
        }
    }

    /// An exit callback: a begin opens its window, its end (or, for an instant, the next callback or app event)
    /// closes it.
    private mutating func exitWindow(_ exit: Exit, phase: Phase, _ emit: (Fact) -> Void) {
        switch phase {
        case .begin:
            openExits.append(exit)
        case .end:
            // An end whose begin is not in the trace closes no window.
            if let index = openExits.firstIndex(where: { $0.controller == exit.controller && $0.cause == exit.cause }) {
                emit(.exitCompleted(openExits.remove(at: index)))
            }
        case .instant:
            instantExits.append(exit)
        }
    }

    private mutating func closeInstantWindows(_ emit: (Fact) -> Void) {
        guard !instantExits.isEmpty else { return }
        let closing = instantExits
        instantExits.removeAll()
        for exit in closing { emit(.exitCompleted(exit)) }
    }

    /// The resource a standard mark starts (`true`) or stops.
    private static func resource(_ name: String) -> (kind: LiveResource.Kind, starts: Bool)? {
        switch name {
        case MarkName.timerStart: (.timer, true)
        case MarkName.timerStop: (.timer, false)
        case MarkName.observerAdd: (.observer, true)
        case MarkName.observerRemove: (.observer, false)
        case MarkName.taskStart: (.task, true)
        case MarkName.taskCancel: (.task, false)
        case MarkName.requestStart: (.request, true)
        case MarkName.requestCancel: (.request, false)
        default: nil
        }
    }
}
