import TraceModel

/// A callback that is executing (between its `begin` and `end`), or one recorded as an instant.
///
/// Used for the per-controller and app-level callback stacks, for `ReplayState.enclosingCallback(of:)`, and to
/// say which callback started a resource.
public struct ActiveCallback: Sendable, Hashable, CustomStringConvertible {
    /// Which callback: a UIViewController callback or an app/scene delegate callback.
    public enum Kind: Sendable, Hashable {
        case controller(Callback)
        case app(AppTransition)
    }

    /// `Kind` packed in one byte (callback raw value, or 0x80 | transition raw value): keeps this struct cheap to
    /// copy on the fold's hot path.
    private var code: UInt8

    public var kind: Kind {
        get {
            if code & 0x80 == 0 { return .controller(Callback(rawValue: code) ?? .initialize) }
            return .app(AppTransition(rawValue: code & 0x7F) ?? .didFinishLaunching)
        }
        set {
            switch newValue {
            case .controller(let callback): code = callback.rawValue
            case .app(let transition): code = 0x80 | transition.rawValue
            }
        }
    }
    /// The controller the callback runs on; `nil` for app and scene callbacks.
    public var controller: ControllerRef?
    /// The scene id for scene-delegate callbacks; `nil` otherwise.
    public var scene: String?
    /// Timestamp of the `begin` (or of the instant), nanoseconds on the trace clock.
    public var since: UInt64
    /// Ordinal of the `begin` (or instant) event.
    public var ordinal: UInt64
    /// `true` when the source recorded only an instant (imported logs): the callback has zero length, and it
    /// is reported as enclosing a later mark only by `enclosingCallback(of:)`'s instant fallback.
    public var isInstant: Bool

    public init(kind: Kind, controller: ControllerRef?, scene: String? = nil, since: UInt64, ordinal: UInt64, isInstant: Bool) {
        switch kind {
        case .controller(let callback): code = callback.rawValue
        case .app(let transition): code = 0x80 | transition.rawValue
        }
        self.controller = controller
        self.scene = scene
        self.since = since
        self.ordinal = ordinal
        self.isInstant = isInstant
    }

    /// The UIViewController callback, or `nil` for app callbacks.
    public var callback: Callback? {
        code & 0x80 == 0 ? Callback(rawValue: code) : nil
    }

    /// The app/scene transition, or `nil` for controller callbacks.
    public var appTransition: AppTransition? {
        code & 0x80 == 0 ? nil : AppTransition(rawValue: code & 0x7F)
    }

    /// `viewWillDisappear`, `didEnterBackground`, …: the callback's short name.
    public var name: String {
        switch kind {
        case .controller(let callback): callback.name
        case .app(let transition): transition.name
        }
    }

    /// `NoteEditorViewController#2.viewWillDisappear` or `app.didEnterBackground` / `scene(S1).didEnterBackground`.
    public var description: String {
        if let controller { return "\(controller.displayName).\(name)" }
        if let scene { return "scene(\(scene)).\(name)" }
        return "app.\(name)"
    }
}
