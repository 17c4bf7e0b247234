import Replay
import Simulator
import Testing
import TraceModel

@Suite("Session generator")
struct SessionGeneratorTests {
    @Test("the same seed gives the same events; another seed other events")
    func deterministic() {
        let first = SessionGenerator(seed: 42).events(count: 5_000)
        #expect(first.count >= 5_000)
        #expect(first == SessionGenerator(seed: 42).events(count: 5_000))
        #expect(first != SessionGenerator(seed: 43).events(count: 5_000))
    }

    @Test("generated sessions are legal: replaying them finds no anomaly, and every interval closes", arguments: [1, 2, 3, 7, 11, 99] as [UInt64])
    func legal(seed: UInt64) {
        let events = SessionGenerator(seed: seed).events(count: 20_000)
        var state = ReplayState()
        for (ordinal, event) in events.enumerated() { state.apply(event, ordinal: UInt64(ordinal)) }
        #expect(state.diagnostics.isEmpty, "\(state.diagnostics.prefix(3))")
        #expect(state.executing.isEmpty)
        var previous: UInt64 = 0
        for event in events {
            #expect(event.timestamp >= previous)
            previous = event.timestamp
        }
    }

    @Test("a session mixes navigation, presentation, containment, tabs, background and marks")
    func variety() {
        let events = SessionGenerator(seed: 1).events(count: 20_000)
        var operations: Set<ContainerOperation> = []
        var transitions: Set<AppTransition> = []
        var marks: Set<String> = []
        var swiftUI = false
        for event in events {
            switch event.payload {
            case .container(let container): operations.insert(container.operation)
            case .app(let app): transitions.insert(app.transition)
            case .mark(let mark): marks.insert(mark.name)
            case .swiftUI: swiftUI = true
            default: break
            }
        }
        let expected: Set<ContainerOperation> = [
            .push, .pop, .interactiveTransitionBegin, .interactiveTransitionCancel, .interactiveTransitionFinish,
            .present, .dismiss, .presentationControllerDidDismiss, .addChild, .removeFromParent, .selectTab,
        ]
        #expect(expected.isSubset(of: operations))
        #expect(transitions.isSuperset(of: [.didEnterBackground, .willEnterForeground, .didReceiveMemoryWarning]))
        #expect(marks.isSuperset(of: ["save", "edit", "timer.start", "timer.stop", "analytics.screen", "work"]))
        #expect(swiftUI)
    }
}
