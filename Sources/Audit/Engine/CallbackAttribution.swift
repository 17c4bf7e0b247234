import Replay
import TraceModel

/// Which callback a mark (or any non-callback event) happened in: the replayer's attribution,
/// `ReplayState.enclosingCallback(of:)`, as `EnclosingCallback`s.
///
/// The rule, for a mark of controller `C` (or of no controller):
/// 1. If a callback interval is open (a `begin` without its `end`) for `C` or for the app/scene, the mark belongs
///    to the innermost one (the one that began last). A mark without a controller considers every executing
///    callback.
/// 2. Otherwise, for instant-only traces (imported console logs, where each callback is one line): the most
///    recent callback event of the whole trace, if it was an instant of `C` or of the app. Callbacks run one
///    after another on the main thread, so a line printed after `viewWillDisappear` and before any other
///    callback line ran inside it: "editor viewWillDisappear, saveDraft, list viewWillAppear" is a save inside
///    the editor's viewWillDisappear (Tests/Fixtures/cases/01), while a save logged after the list's line is
///    attributed to nothing.
///
/// Nesting of callbacks in callbacks (loadView inside init) is only ever judged from intervals: an instant
/// cannot contain another callback.
public struct CallbackAttribution {
    /// Valid while the session that made it lives, as `EventContext`'s box; unmanaged, so that a query costs no
    /// retain and release of the box (an `unowned(unsafe)` reference was retained and released around each use).
    private let box: Unmanaged<ReplayBox>

    init(replay: ReplayBox) {
        box = .passUnretained(replay)
    }

    /// The callback a mark (or another non-callback event) of `controller` happened in, by the rule above.
    public func enclosing(of controller: ControllerRef?) -> EnclosingCallback? {
        // Through a pointer: reading `replay.state` for the call copied the whole `ReplayState` (a retain and
        // release of each of its buffers) on every call.
        box._withUnsafeGuaranteedRef { replay in
            replay.catchUp()
            return withUnsafeMutablePointer(to: &replay.state) { state in
                guard let active = state.pointee.borrowedEnclosingCallback(of: controller) else { return nil }
                return Self.enclosing(active, state.pointee.borrowedControllerRef(of: active), isInstantWindow: active.isInstant)
            }
        }
    }

    /// `enclosing(of:)` for a mark of the controller `serial` (`nil`: of no controller), as the replayed state's
    /// `ActiveCallback`: `nil` exactly when `enclosing(of:)` is, and no `ControllerRef` or scene name is built
    /// (resolve them with `enclosing(of:)` or `ReplayState.controllerRef(of:)` when a finding needs them).
    @inline(__always)
    public func enclosingActive(ofSerial serial: UInt32?) -> ActiveCallback? {
        // A mark right after a begin (past other marks) is answered from the batch, without folding up to it.
        if let active = box._withUnsafeGuaranteedRef({ $0.openBeginBeforeMark(ofSerial: serial) }) { return active }
        return stateEnclosingActive(ofSerial: serial)
    }

    /// `enclosingActive(ofSerial:)` read from the replayed state, folded up to the event being observed.
    @inline(never)
    private func stateEnclosingActive(ofSerial serial: UInt32?) -> ActiveCallback? {
        box._withUnsafeGuaranteedRef { replay in
            replay.catchUp()
            return withUnsafeMutablePointer(to: &replay.state) { state in
                guard let active = state.pointee.borrowedEnclosingCallback(ofSerial: serial) else { return nil }
                // As `enclosing(_:_:isInstantWindow:)`: a controller callback whose controller has no record is none.
                if case .controller = active.kind {
                    guard let owner = active.controllerSerial, state.pointee.borrowedHasRecord(owner) else { return nil }
                }
                return active
            }
        }
    }

    /// The controller `active` runs on, as the replayed state names it (`ReplayState.controllerRef(of:)`, without
    /// copying the state): the controller of `enclosing(of:)` for the callback `enclosingActive(ofSerial:)` gave.
    public func controllerRef(of active: ActiveCallback) -> ControllerRef? {
        box._withUnsafeGuaranteedRef { replay in
            replay.catchUp()
            return withUnsafeMutablePointer(to: &replay.state) { state in
                state.pointee.borrowedControllerRef(of: active)
            }
        }
    }

    /// `enclosing(of:)` for the callback `enclosingActive(ofSerial:)` gave, built only when needed (a finding).
    public func enclosing(of active: ActiveCallback) -> EnclosingCallback? {
        Self.enclosing(active, controllerRef(of: active), isInstantWindow: active.isInstant)
    }

    /// The name `EnclosingCallback.name` gives the callback `active` (`enclosingActive(ofSerial:)`): the callback's,
    /// or the app or scene delegate method's.
    public static func name(of active: ActiveCallback) -> String {
        switch active.kind {
        case .controller(let callback): callback.name
        case .app(let transition): active.scene == nil ? transition.applicationMethodName : transition.sceneMethodName
        }
    }

    /// The open interval of `callback` of `controller` (begin seen, end not yet), innermost first, or `nil`.
    public func openFrame(_ callback: Callback, of controller: ControllerRef) -> EnclosingCallback? {
        guard let frame = openFrame(callback, ofSerial: controller.serial) else { return nil }
        return Self.enclosing(frame, controller, isInstantWindow: false)
    }

    /// The open interval of `callback` of the controller with serial `serial` (its record's callback stack),
    /// innermost first, or `nil`.
    public func openFrame(_ callback: Callback, ofSerial serial: UInt32) -> ActiveCallback? {
        // `executing` agrees with the controllers' own callback stacks after every event (Replay), and reading it
        // copies no `ControllerState`.
        box._withUnsafeGuaranteedRef { replay in
            replay.catchUp()
            return withUnsafeMutablePointer(to: &replay.state) { state in
                state.pointee.executing.last { $0.controllerSerial == serial && $0.callback == callback }
            }
        }
    }

    /// The innermost open appearance-callback interval of a controller other than `controller`, if any.
    public func innermostOpenAppearanceCallback(excluding controller: ControllerRef) -> EnclosingCallback? {
        innermostOpenAppearanceCallback(excludingSerial: controller.serial)
    }

    /// The innermost open appearance-callback interval of a controller whose serial is not `serial`, if any.
    public func innermostOpenAppearanceCallback(excludingSerial serial: UInt32) -> EnclosingCallback? {
        box._withUnsafeGuaranteedRef { replay in
            replay.catchUp()
            return withUnsafeMutablePointer(to: &replay.state) { state in
                guard let frame = state.pointee.executing.last(where: {
                    $0.controllerSerial != nil && $0.controllerSerial != serial && ($0.callback?.isAppearanceCallback ?? false)
                }) else { return nil }
                return Self.enclosing(frame, state.pointee.borrowedControllerRef(of: frame), isInstantWindow: false)
            }
        }
    }

    /// `active` as an `EnclosingCallback`.
    ///
    /// - Parameter controller: The controller `active` runs on (`ReplayState.controllerRef(of:)`); consumed (moved
    ///   into the result rather than copied and destroyed).
    @inline(__always)
    static func enclosing(_ active: ActiveCallback, _ controller: consuming ControllerRef?, isInstantWindow: Bool) -> EnclosingCallback? {
        switch active.kind {
        case .controller(let callback):
            guard let controller else { return nil }
            return EnclosingCallback(subject: .controller(controller, callback), ordinal: active.ordinal, timestamp: active.since, isInstantWindow: isInstantWindow)
        case .app(let transition):
            return EnclosingCallback(subject: .app(AppEvent(transition, active.isInstant ? .instant : .begin, scene: active.scene)), ordinal: active.ordinal, timestamp: active.since, isInstantWindow: isInstantWindow)
        }
    }
}

extension ReplayState {
    // Mutating only so that the call borrows the state in place: a non-mutating call through
    // `UnsafeMutablePointer.pointee` copied the whole `ReplayState` (a retain and release of each of its buffers).

    fileprivate mutating func borrowedEnclosingCallback(of controller: ControllerRef?) -> ActiveCallback? {
        enclosingCallback(of: controller)
    }

    fileprivate mutating func borrowedEnclosingCallback(ofSerial serial: UInt32?) -> ActiveCallback? {
        enclosingCallback(ofSerial: serial)
    }

    fileprivate mutating func borrowedControllerRef(of callback: ActiveCallback) -> ControllerRef? {
        controllerRef(of: callback)
    }

    fileprivate mutating func borrowedHasRecord(_ serial: UInt32) -> Bool {
        controllers.contains(serial)
    }
}
