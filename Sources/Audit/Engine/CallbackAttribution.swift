import Replay
import TraceModel

/// Which callback a mark (or any non-callback event) happened in, read from the replayed state.
///
/// The rule, for a mark of controller `C` (or of no controller):
/// 1. If a callback interval is open (a `begin` without its `end`) for `C` or for the app/scene, the mark belongs
///    to the innermost one (the one that began last). A mark without a controller considers every executing
///    callback (`ReplayState.executing`).
/// 2. Otherwise, instant-only traces (imported console logs, where each callback is one line) are attributed by
///    window: the mark belongs to the most recent instant callback of `C` or of the app, as long as nothing else
///    of that subject happened since (`C`'s next callback closes `C`'s window — `ControllerState.lastCallback`;
///    the next app event closes the app's — `ReplayState.lastAppCallback`). Console logging prints at the start
///    of a callback and the app's own lines follow, so "viewWillDisappear, then saveDraft, then the list's
///    viewWillAppear" reads as a save inside the editor's viewWillDisappear (Tests/Fixtures/cases/01).
///
/// This differs from `ReplayState.enclosingCallback(of:)` in one point: there an instant's window closes at the
/// next callback of anyone (`ReplayState.lastCallback`); here only at the next callback of the same subject.
///
/// Nesting of callbacks in callbacks (loadView inside init) is only ever judged from intervals: an instant
/// cannot contain another callback.
public struct CallbackAttribution {
    private let replay: ReplayBox

    init(replay: ReplayBox) {
        self.replay = replay
    }

    /// The callback a mark (or another non-callback event) of `controller` happened in, by the rule above.
    public func enclosing(of controller: ControllerRef?) -> EnclosingCallback? {
        let state = replay.state
        var open: ActiveCallback?
        var window: ActiveCallback?
        func later(_ a: ActiveCallback?, _ b: ActiveCallback?) -> ActiveCallback? {
            guard let a else { return b }
            guard let b else { return a }
            return b.ordinal > a.ordinal ? b : a
        }
        if let controller {
            let record = state.controllers[controller.serial]
            open = later(record?.callbacks.last, state.appCallbacks.last)
            if open == nil {
                let own = record?.lastCallback.flatMap { $0.isInstant ? $0 : nil }
                let app = state.lastAppCallback.flatMap { $0.isInstant ? $0 : nil }
                window = later(own, app)
            }
        } else {
            open = state.executing.last
            if open == nil { window = state.lastAppCallback.flatMap { $0.isInstant ? $0 : nil } }
        }
        if let open { return Self.enclosing(open, isInstantWindow: false) }
        if let window { return Self.enclosing(window, isInstantWindow: true) }
        return nil
    }

    /// The open interval of `callback` of `controller` (begin seen, end not yet), innermost first, or `nil`.
    public func openFrame(_ callback: Callback, of controller: ControllerRef) -> EnclosingCallback? {
        guard let frame = replay.state.controllers[controller.serial]?.callbacks.last(where: { $0.callback == callback }) else { return nil }
        return Self.enclosing(frame, isInstantWindow: false)
    }

    /// The innermost open appearance-callback interval of a controller other than `controller`, if any.
    public func innermostOpenAppearanceCallback(excluding controller: ControllerRef) -> EnclosingCallback? {
        guard let frame = replay.state.executing.last(where: {
            $0.controller != nil && $0.controller?.serial != controller.serial && ($0.callback?.isAppearanceCallback ?? false)
        }) else { return nil }
        return Self.enclosing(frame, isInstantWindow: false)
    }

    static func enclosing(_ active: ActiveCallback, isInstantWindow: Bool) -> EnclosingCallback? {
        switch active.kind {
        case .controller(let callback):
            guard let controller = active.controller else { return nil }
            return EnclosingCallback(subject: .controller(controller, callback), ordinal: active.ordinal, timestamp: active.since, isInstantWindow: isInstantWindow)
        case .app(let transition):
            return EnclosingCallback(subject: .app(AppEvent(transition, active.isInstant ? .instant : .begin, scene: active.scene)), ordinal: active.ordinal, timestamp: active.since, isInstantWindow: isInstantWindow)
        }
    }
}
