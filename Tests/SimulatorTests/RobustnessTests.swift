import Foundation
import Simulator
import Testing
import TraceModel

/// Bad input never crashes: every line-level mutation of every sample scenario either runs or throws a
/// `ScenarioError` naming a line, and recorded time never goes backwards.
@Suite("Robustness")
struct RobustnessTests {
    static func mutations(of text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var result: [String] = []
        for index in lines.indices {
            var dropped = lines
            dropped.remove(at: index)
            result.append(dropped.joined(separator: "\n"))
            var doubled = lines
            doubled.insert(lines[index], at: index)
            result.append(doubled.joined(separator: "\n"))
            var truncated = lines
            truncated[index] = String(lines[index].prefix(lines[index].count / 2))
            result.append(truncated.joined(separator: "\n"))
            if index + 1 < lines.count {
                var swapped = lines
                swapped.swapAt(index, index + 1)
                result.append(swapped.joined(separator: "\n"))
            }
        }
        return result
    }

    @Test("line mutations of the sample scenarios run or fail with a line number", arguments: SampleTraceTests.names)
    func mutatedSamples(name: String) throws {
        let url = SampleTraceTests.scenarios.appendingPathComponent("\(name).scenario")
        let text = try String(contentsOf: url, encoding: .utf8)
        for mutated in Self.mutations(of: text) {
            let collector = EventCollector()
            do {
                try Simulator.run(text: mutated, into: collector)
            } catch let error as ScenarioError {
                #expect(error.line > 0, "\(error)")
            }
            var previous: UInt64 = 0
            for event in collector.events {
                #expect(event.timestamp >= previous)
                previous = event.timestamp
            }
        }
    }

    @Test("huge durations saturate the clock instead of overflowing")
    func hugeDurations() throws {
        let collector = EventCollector()
        try Simulator.run(
            text: """
                class A
                    viewDidLoad: work label=forever duration=18000000000s
                at 0s root a: A
                after 18000000000s layout a
                after 18000000000s layout a
                """,
            into: collector)
        #expect(collector.events.last?.timestamp == .max)
    }

    @Test("deep nesting is refused, not a stack overflow")
    func deepNesting() {
        var text = "at 0s root c0: C\n"
        for level in 1...100 { text += "at \(level)s add-child c\(level): C to c\(level - 1)\n" }
        let error = #expect(throws: ScenarioError.self) { try Simulator.run(text: text, into: EventCollector()) }
        #expect(error?.message.contains("deeper than") == true)
        let nested = String(repeating: "n: UINavigationController(", count: 40) + "a: A" + String(repeating: ")", count: 40)
        #expect(throws: ScenarioError.self) { try ScenarioParser().parse("at 0s root \(nested)") }
        #expect(throws: ScenarioError.self) { try ScenarioParser().parse("at 0s rotate to 1e400x5") }
    }

    @Test("pushing a navigation controller is refused, as UIKit does")
    func pushNavigation() {
        let text = "at 0s root nav: UINavigationController(a: A)\nat 1s push inner: UINavigationController(b: B) on nav"
        let error = #expect(throws: ScenarioError.self) { try Simulator.run(text: text, into: EventCollector()) }
        #expect(error?.line == 2)
    }
}
