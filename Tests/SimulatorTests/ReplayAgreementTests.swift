import Foundation
import Replay
import Testing
import TraceModel

@testable import Simulator

/// The simulator's own model and the replayer's fold of the events it recorded must agree, after every step,
/// on every controller: alive or dead, appearance state, navigation stacks and tab selection, presentation.
/// This checks that the recorded events (callbacks and container operations) say everything the model knows.
@Suite("Simulator model agrees with Replay")
struct ReplayAgreementTests {
    static func appearance(_ state: AppearanceState) -> Appearance {
        switch state {
        case .disappeared: .disappeared
        case .appearing: .appearing
        case .appeared: .appeared
        case .disappearing: .disappearing
        }
    }

    /// Differences between the model and the replayed state, as readable lines.
    static func differences(_ simulation: Simulation, _ state: ReplayState) -> [String] {
        var problems: [String] = []
        for controller in simulation.controllers {
            let name = controller.ref.displayName
            guard let replayed = state[controller.ref] else {
                // Replay keeps full records of the most recent dead only (ReplayState.retainedDeadLimit); older dead are in `deadSerials`.
                if !controller.isAlive, state.deadSerials.contains(controller.ref.serial) { continue }
                problems.append("\(name): unknown to Replay")
                continue
            }
            if replayed.isAlive != controller.isAlive { problems.append("\(name): alive \(controller.isAlive) vs \(replayed.isAlive)") }
            guard controller.isAlive else { continue }
            if replayed.appearance != appearance(controller.appearance) {
                problems.append("\(name): appearance \(controller.appearance) vs \(replayed.appearance)")
            }
            let serials = controller.children.map { simulation.controllers[$0].ref.serial }
            if controller.kind == .navigation || controller.kind == .tabBar, replayed.viewControllers != serials {
                problems.append("\(name): children \(serials) vs \(String(describing: replayed.viewControllers))")
            }
            if controller.kind == .tabBar, replayed.selectedIndex != controller.selectedIndex {
                problems.append("\(name): selected \(controller.selectedIndex) vs \(String(describing: replayed.selectedIndex))")
            }
            let presented = controller.presented.map { simulation.controllers[$0].ref.serial }
            if replayed.presentedController != presented {
                problems.append("\(name): presents \(String(describing: presented)) vs \(String(describing: replayed.presentedController))")
            }
        }
        return problems
    }

    /// Runs `steps`, replaying as it goes, and returns the first step after which model and replay differ.
    static func firstDisagreement(classes: [String: ClassSpec], sceneID: String?, steps: [Step]) throws -> String? {
        let collector = EventCollector()
        let simulation = Simulation(classes: classes, sceneID: sceneID, sink: collector)
        var state = ReplayState()
        var applied = 0
        for step in steps {
            try simulation.perform(step)
            while applied < collector.events.count {
                state.apply(collector.events[applied], ordinal: UInt64(applied))
                applied += 1
            }
            let problems = differences(simulation, state)
            if !problems.isEmpty { return "after line \(step.line) (\(step.text)): \(problems.joined(separator: "; "))" }
        }
        return nil
    }

    @Test("after every step of every sample scenario", arguments: SampleTraceTests.names)
    func samples(name: String) throws {
        let url = SampleTraceTests.scenarios.appendingPathComponent("\(name).scenario")
        let scenario = try ScenarioParser().parse(try String(contentsOf: url, encoding: .utf8))
        let disagreement = try Self.firstDisagreement(classes: scenario.classes, sceneID: scenario.sceneID, steps: scenario.steps)
        #expect(disagreement == nil, "\(disagreement ?? "")")
    }

    @Test("at the end of generated sessions", arguments: [1, 4, 9] as [UInt64])
    func generated(seed: UInt64) {
        let collector = EventCollector()
        var session = GeneratedSession(seed: seed, options: SimulationOptions(), sink: collector)
        var state = ReplayState()
        var applied = 0
        var disagreement: String?
        while session.simulation.eventCount < 20_000, disagreement == nil {
            session.step()
            while applied < collector.events.count {
                state.apply(collector.events[applied], ordinal: UInt64(applied))
                applied += 1
            }
            let problems = Self.differences(session.simulation, state)
            if !problems.isEmpty { disagreement = "at event \(applied): \(problems.joined(separator: "; "))" }
        }
        #expect(disagreement == nil, "\(disagreement ?? "")")
        #expect(session.illegalSteps == 0)
    }
}
