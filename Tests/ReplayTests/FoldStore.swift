import Testing
import TraceModel
@testable import Replay

/// A TestStore-style harness: every `send` folds one event into the real state, applies the test's expected
/// changes to an expected state, and asserts the two whole states are equal.
///
/// The store itself updates only bookkeeping that follows mechanically from the event: `time`, `startTime`,
/// `eventCount`, `lastOrdinal`, and the `lastCallback` / `lastAppCallback` records of a callback's begin or
/// instant. Everything else must be spelled out by the test.
struct FoldStore {
    var state = ReplayState()
    var expected = ReplayState()
    var ordinal: UInt64 = 0

    init() {}

    /// Starts from an already-verified state.
    init(from state: ReplayState) {
        self.state = state
        self.expected = state
        self.ordinal = (state.lastOrdinal ?? 0) + (state.lastOrdinal == nil ? 0 : 1)
    }

    mutating func send(_ event: Event, sourceLocation: SourceLocation = #_sourceLocation, _ change: (inout ReplayState) -> Void = { _ in }) {
        state.apply(event, ordinal: ordinal)
        if expected.startTime == nil { expected.startTime = event.timestamp }
        expected.time = event.timestamp
        expected.eventCount += 1
        expected.lastOrdinal = ordinal
        change(&expected)
        switch event.payload {
        case .callback(let callback) where callback.phase != .end:
            let active = ActiveCallback(
                kind: .controller(callback.callback), controller: callback.controller, since: event.timestamp, ordinal: ordinal,
                isInstant: callback.phase == .instant
            )
            expected.lastCallback = active
        case .app(let app) where app.phase != .end:
            let active = ActiveCallback(
                kind: .app(app.transition), controller: nil, scene: app.scene, since: event.timestamp, ordinal: ordinal,
                isInstant: app.phase == .instant
            )
            expected.lastCallback = active
            expected.lastAppCallback = active
        default:
            break
        }
        #expect(state == expected, "after event \(ordinal) \(event.summary):\n\(Self.difference(state, expected))", sourceLocation: sourceLocation)
        // Keep going from the real state so one mistake does not cascade into every later step.
        expected = state
        ordinal += 1
    }

    /// Folds events without asserting (for prefixes verified by another test).
    mutating func replay(_ events: [Event]) {
        for event in events {
            state.apply(event, ordinal: ordinal)
            ordinal += 1
        }
        expected = state
    }

    static func difference(_ actual: ReplayState, _ expected: ReplayState) -> String {
        var lines: [String] = []
        let serials = Set(actual.controllers.keys).union(expected.controllers.keys).sorted()
        for serial in serials where actual.controllers[serial] != expected.controllers[serial] {
            lines.append("controller \(serial):\n  actual:   \(String(describing: actual.controllers[serial]))\n  expected: \(String(describing: expected.controllers[serial]))")
        }
        var a = actual
        var e = expected
        a.controllers = [:]
        e.controllers = [:]
        if a != e {
            lines.append("rest:\n  actual:   \(a)\n  expected: \(e)")
        }
        return lines.joined(separator: "\n")
    }
}

// MARK: - Event builders (times in milliseconds)

func ms(_ value: UInt64) -> UInt64 { value * 1_000_000 }

func cb(_ callback: Callback, _ ref: ControllerRef, _ time: UInt64, _ phase: Phase = .instant, parent: ParentArgument? = nil, animated: Bool? = nil) -> Event {
    .callback(CallbackEvent(callback, phase, controller: ref, animated: animated, parent: parent), at: ms(time))
}

func op(_ operation: ContainerOperation, _ container: ControllerRef?, _ controllers: [ControllerRef], _ time: UInt64, style: ModalPresentationStyle? = nil, index: Int? = nil) -> Event {
    .container(ContainerEvent(operation, .instant, container: container, controllers: controllers, style: style, index: index), at: ms(time))
}

func appEvent(_ transition: AppTransition, _ time: UInt64, _ phase: Phase = .instant, scene: String? = nil) -> Event {
    .app(AppEvent(transition, phase, scene: scene), at: ms(time))
}

func markEvent(_ name: String, _ ref: ControllerRef?, _ time: UInt64, _ fields: [MarkField] = [], phase: Phase = .instant) -> Event {
    .mark(MarkEvent(name, phase, controller: ref, fields: fields), at: ms(time))
}

// MARK: - Expected-state helpers

extension ControllerState {
    /// The state right after `init` was recorded as an instant at `time` (ms) by event `ordinal`.
    static func created(_ ref: ControllerRef, at time: UInt64, ordinal: UInt64) -> ControllerState {
        var state = ControllerState(ref: ref, firstSeen: ms(time), ordinal: ordinal)
        state.isCreatedInTrace = true
        state.isStructureKnown = true
        state.parent = .none
        state.appearance = .disappeared
        state.appearanceSince = ms(time)
        return state
    }
}

extension ReplayState {
    /// Sets appearance and its start time (ms).
    mutating func set(_ ref: ControllerRef, _ appearance: Appearance, at time: UInt64) {
        controllers[ref.serial]!.appearance = appearance
        controllers[ref.serial]!.appearanceSince = ms(time)
        controllers[ref.serial]!.isViewLoaded = true
    }

    mutating func with(_ ref: ControllerRef, _ change: (inout ControllerState) -> Void) {
        change(&controllers[ref.serial]!)
    }

    func appearance(_ ref: ControllerRef) -> Appearance? { controllers[ref.serial]?.appearance }
}
