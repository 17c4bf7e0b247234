import Testing
import TraceModel
import LifetraceTestSupport
@testable import Replay

/// Every callback the state says is executing (`ReplayState.executing`) is on its controller's own stack
/// (`ControllerState.callbacks`), in the same order, and the other way round; rules read either one.
@Suite("Callback stacks: executing and the controllers' own stacks agree")
struct CallbackStackAgreementTests {
    /// The first disagreement in `state`, described, or `nil`.
    static func disagreement(in state: ReplayState) -> String? {
        for controller in state.controllers.values {
            let own = controller.callbacks
            let global = state.executing.filter { $0.controllerSerial == controller.ref.serial }
            if own != global {
                return "\(controller.ref.displayName) holds \(own.map(\.name)) but executing has \(global.map(\.name))"
            }
        }
        let known = Set(state.controllers.values.map(\.ref.serial))
        if let orphan = state.executing.first(where: { $0.controllerSerial.map { !known.contains($0) } ?? false }) {
            return "executing holds \(orphan.name) of #\(orphan.controllerSerial ?? 0), a controller the state no longer holds"
        }
        return nil
    }

    @Test("after every event of random traces", arguments: UInt64(1)...12)
    func randomTraces(seed: UInt64) {
        var state = ReplayState()
        for (ordinal, event) in RandomEvents.make(count: 3_000, seed: seed).enumerated() {
            state.apply(event, ordinal: UInt64(ordinal))
            if let problem = Self.disagreement(in: state) {
                Issue.record("seed \(seed), after event \(ordinal) (\(event.payload)): \(problem)")
                return
            }
        }
    }

    @Test("a callback begun after deinit ends with the process")
    func beganAfterDeinitEndsWithProcess() {
        let detail = NavigationTests.detail
        var state = ReplayState()
        let events = [
            cb(.initialize, detail, 1),
            cb(.deinitialize, detail, 2),
            cb(.viewWillAppear, detail, 3, .begin),
            Event(timestamp: ms(4), .recorder(.runStarted(process: "second"))),
        ]
        for (ordinal, event) in events.enumerated() { state.apply(event, ordinal: UInt64(ordinal)) }
        #expect(state.executing.isEmpty)
        #expect(state[detail]?.callbacks == [])
        #expect(state.diagnostics.contains { $0.kind == .eventAfterDeinit })
    }

    @Test("a deallocated controller's record leaves executing with its callbacks when it is no longer kept")
    func evictedRecordLeavesExecuting() {
        var state = ReplayState()
        var ordinal: UInt64 = 0
        func send(_ event: Event) {
            state.apply(event, ordinal: ordinal)
            ordinal += 1
        }
        let first = ControllerRef(serial: 1, typeName: "FirstViewController")
        send(cb(.initialize, first, 1))
        send(cb(.deinitialize, first, 2))
        send(cb(.viewDidLoad, first, 3, .begin))
        #expect(state.executing.map(\.controllerSerial) == [1])
        // More deallocations than the state keeps records of: the first controller's record goes.
        for serial in UInt32(2)...UInt32(ReplayState.retainedDeadLimit + 2) {
            let other = ControllerRef(serial: serial, typeName: "OtherViewController")
            send(cb(.initialize, other, 10 + UInt64(serial)))
            send(cb(.deinitialize, other, 10 + UInt64(serial)))
        }
        #expect(state[first] == nil)
        #expect(state.executing.isEmpty)
        #expect(Self.disagreement(in: state) == nil)
    }
}
