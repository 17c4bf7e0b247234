import TraceModel

/// A callback that is executing (between its `begin` and `end`), or one recorded as an instant.
///
/// Used for the per-controller and app-level callback stacks, for `ReplayState.enclosingCallback(of:)`, and to
/// say which callback started a resource. Trivially copyable (no strings, no references), so the fold can push,
/// pop and copy it cheaply: the controller is held as its serial (`controllerSerial`; resolve the whole
/// `ControllerRef` with `ReplayState.controllerRef(of:)`) and the scene id is interned.
public struct ActiveCallback: Sendable, Hashable {
    /// Which callback: a UIViewController callback or an app/scene delegate callback.
    public enum Kind: Sendable, Hashable {
        case controller(Callback)
        case app(AppTransition)
    }

    /// `Kind` packed in one byte (callback raw value, or 0x80 | transition raw value).
    @usableFromInline var code: UInt8
    /// Whether `serial` names a controller. (Usable from inlinable code: `isOf(_:)`.)
    @usableFromInline var hasController: Bool
    @usableFromInline var serial: UInt32
    /// The scene id, interned (`SceneNames`); 0 for none.
    private var sceneIndex: UInt32
    /// Timestamp of the `begin` (or of the instant), nanoseconds on the trace clock.
    public var since: UInt64
    /// Ordinal of the `begin` (or instant) event.
    public var ordinal: UInt64
    /// `true` when the source recorded only an instant (imported logs): the callback has zero length, and it
    /// is reported as enclosing a later mark only by `enclosingCallback(of:)`'s instant fallback.
    public var isInstant: Bool

    /// Inlinable (with `controllerSerial`): the audit's rules read it at every attributed mark, and a call across
    /// modules cost ≈ 25 instructions.
    public var kind: Kind {
        @inlinable get {
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

    /// The serial of the controller the callback runs on (`ControllerRef.serial`); `nil` for app and scene
    /// callbacks.
    public var controllerSerial: UInt32? {
        @inlinable get { hasController ? serial : nil }
        set {
            hasController = newValue != nil
            serial = newValue ?? 0
        }
    }

    /// The scene id for scene-delegate callbacks; `nil` otherwise.
    public var scene: String? {
        get { SceneNames.shared.name(sceneIndex) }
        set { sceneIndex = SceneNames.shared.index(of: newValue) }
    }

    /// - Parameter controller: The controller the callback runs on (only its serial is kept), `nil` for app and
    ///   scene callbacks.
    public init(kind: Kind, controller: ControllerRef?, scene: String? = nil, since: UInt64, ordinal: UInt64, isInstant: Bool) {
        self.init(kind: kind, controllerSerial: controller?.serial, scene: scene, since: since, ordinal: ordinal, isInstant: isInstant)
    }

    public init(kind: Kind, controllerSerial: UInt32?, scene: String? = nil, since: UInt64, ordinal: UInt64, isInstant: Bool) {
        switch kind {
        case .controller(let callback): code = callback.rawValue
        case .app(let transition): code = 0x80 | transition.rawValue
        }
        self.hasController = controllerSerial != nil
        self.serial = controllerSerial ?? 0
        self.sceneIndex = SceneNames.shared.index(of: scene)
        self.since = since
        self.ordinal = ordinal
        self.isInstant = isInstant
    }

    /// The fold's constructor for a controller callback.
    @inline(__always)
    init(_ callback: Callback, serial: UInt32, since: UInt64, ordinal: UInt64, isInstant: Bool) {
        self.init(callback.rawValue, serial: serial, since: since, ordinal: ordinal, isInstant: isInstant)
    }

    /// The fold's constructor for a controller callback given as its raw value (a valid `Callback`).
    @inline(__always)
    init(_ code: UInt8, serial: UInt32, since: UInt64, ordinal: UInt64, isInstant: Bool) {
        self.code = code
        hasController = true
        self.serial = serial
        sceneIndex = 0
        self.since = since
        self.ordinal = ordinal
        self.isInstant = isInstant
    }

    /// The fold's constructor for an app or scene callback whose scene is already interned.
    init(_ transition: AppTransition, sceneIndex: UInt32, since: UInt64, ordinal: UInt64, isInstant: Bool) {
        code = 0x80 | transition.rawValue
        hasController = false
        serial = 0
        self.sceneIndex = sceneIndex
        self.since = since
        self.ordinal = ordinal
        self.isInstant = isInstant
    }

    /// Whether this is a callback of the controller `serial`. Inlinable: the audit's attribution queries
    /// (`enclosingCallback(ofSerial:)`) inline it.
    @inlinable @inline(__always)
    func isOf(_ serial: UInt32) -> Bool { hasController && self.serial == serial }

    /// Whether this is the controller callback `callback` of `serial`.
    @inline(__always)
    func isCallback(_ callback: Callback, of serial: UInt32) -> Bool {
        code == callback.rawValue && hasController && self.serial == serial
    }

    /// Whether this is the controller callback of raw value `code` of `serial`.
    @inline(__always)
    func isCallback(_ code: UInt8, of serial: UInt32) -> Bool {
        self.code == code && hasController && self.serial == serial
    }

    /// Whether this is the app transition `transition` of the scene interned as `sceneIndex`.
    func isApp(_ transition: AppTransition, sceneIndex: UInt32) -> Bool {
        code == 0x80 | transition.rawValue && !hasController && self.sceneIndex == sceneIndex
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
}
