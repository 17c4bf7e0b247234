import Replay
import Simulator
import TraceModel

/// The part of a replayed state a contract test compares between the adapter's events and `lifetrace simulate`'s:
/// per controller (by type name, unique within a flow) whether it is alive, its appearance, parent, navigation
/// stack or tabs, selected tab, presentation links and removal; and the transitions in flight.
struct StateProjection: Equatable, CustomStringConvertible {
    let lines: [String]

    init(_ state: ReplayState) {
        var names: [UInt32: String] = [:]
        for (serial, controller) in state.controllers { names[serial] = controller.ref.typeName }
        func name(_ serial: UInt32?) -> String { serial.map { names[$0] ?? "#\($0)" } ?? "-" }
        var lines: [String] = []
        for (_, c) in state.controllers {
            var line = "\(c.ref.typeName):"
            guard c.isAlive else {
                lines.append(line + " dead removal=\(c.removal?.kind.name ?? "-")")
                continue
            }
            line += " \(c.appearance)"
            switch c.parent {
            case .window: line += " parent=window"
            case .controller(let parent): line += " parent=\(name(parent))"
            case .none, .unknown: break
            }
            if let list = c.viewControllers, !list.isEmpty { line += " list=[\(list.map { name($0) }.joined(separator: ","))]" }
            if let selected = c.selectedIndex { line += " selected=\(selected)" }
            if let presented = c.presentedController { line += " presents=\(name(presented))" }
            if let presenting = c.presentingController { line += " presentedBy=\(name(presenting))" }
            if let removal = c.removal { line += " removal=\(removal.kind.name)" }
            lines.append(line)
        }
        for transition in state.transitions {
            lines.append("in flight: \(transition.kind.name) \(name(transition.from))→\(name(transition.to))")
        }
        self.lines = lines.sorted()
    }

    /// The projection of what `lifetrace simulate` records for `scenario` (in memory, replayed).
    static func simulated(_ scenario: String) throws -> StateProjection {
        let collector = EventCollector()
        _ = try Simulator.run(text: scenario, file: "contract.scenario", into: collector)
        var state = ReplayState()
        for (ordinal, event) in collector.events.enumerated() { state.apply(event, ordinal: UInt64(ordinal)) }
        return StateProjection(state)
    }

    var description: String { lines.joined(separator: "\n") }
}
