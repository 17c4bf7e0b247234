import Synchronization
import TraceModel

/// Gives each live controller instance a per-trace serial, and forgets it at deinit.
///
/// Serials start at 1 (or after the highest serial already in a trace being appended to) and are never
/// reused, so a controller allocated at the address of a dead one gets a new serial: the registry keys live
/// instances by `ObjectIdentifier` (an address) only while they are alive, and `release(_:)` — called from
/// the controller's deinit — drops the key. Thread-safe; registration takes a lock and allocates, which is
/// fine because it happens once per controller (at init), not per event.
public final class ControllerRegistry: Sendable {
    private struct State {
        var nextSerial: UInt32 = 1
        var live: [ObjectIdentifier: ControllerRef] = [:]
        /// Type names by serial (index 0 unused), for the writer thread.
        var typeNames: [String] = [""]
    }

    private let state = Mutex(State())

    public init() {}

    /// Registers a new controller that has no object identity (the simulator's controllers): always a new serial.
    public func register(typeName: String) -> ControllerRef {
        state.withLock { state in Self.makeRef(typeName: typeName, in: &state) }
    }

    /// The serial of the live instance `key`, registering it under `typeName` if it is not registered yet.
    ///
    /// - Parameter key: The instance's identity, e.g. `ObjectIdentifier(controller)`. It stays registered
    ///   until `release(_:)`; call that from the instance's deinit, or a later instance at the same address
    ///   would inherit the serial.
    public func register(key: ObjectIdentifier, typeName: String) -> ControllerRef {
        state.withLock { state in
            if let ref = state.live[key] { return ref }
            let ref = Self.makeRef(typeName: typeName, in: &state)
            state.live[key] = ref
            return ref
        }
    }

    /// Registers `object` (type name: its dynamic type's unqualified name) or returns its existing serial.
    public func register(_ object: AnyObject) -> ControllerRef {
        register(key: ObjectIdentifier(object), typeName: String(describing: type(of: object)))
    }

    /// The reference of the live instance `key`, or `nil` if it is not registered (or was released).
    public func ref(for key: ObjectIdentifier) -> ControllerRef? {
        state.withLock { $0.live[key] }
    }

    /// Forgets the live instance `key` (call at its deinit) and returns the reference it had.
    @discardableResult
    public func release(_ key: ObjectIdentifier) -> ControllerRef? {
        state.withLock { $0.live.removeValue(forKey: key) }
    }

    /// The number of instances registered by key and not yet released.
    public var liveCount: Int {
        state.withLock { $0.live.count }
    }

    /// The next serial `register` hands out.
    public var nextSerial: UInt32 {
        state.withLock { $0.nextSerial }
    }

    /// Makes serials start after `serial` (used when appending a run to a trace that already has controllers).
    func reserveSerials(through serial: UInt32) {
        state.withLock { state in
            guard serial >= state.nextSerial else { return }
            while UInt32(state.typeNames.count) <= serial { state.typeNames.append("") }
            state.nextSerial = serial + 1
        }
    }

    /// Copies type names of serials `from...` into `cache` (the writer thread's local copy).
    func copyTypeNames(from start: Int, into cache: inout [String]) {
        state.withLock { state in
            if start < state.typeNames.count {
                cache.append(contentsOf: state.typeNames[start...])
            }
        }
    }

    private static func makeRef(typeName: String, in state: inout State) -> ControllerRef {
        let serial = state.nextSerial
        state.nextSerial += 1
        state.typeNames.append(typeName)
        return ControllerRef(serial: serial, typeName: typeName)
    }
}
