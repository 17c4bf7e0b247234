import TraceModel

/// Runs scenarios: the module's front door.
public enum Simulator {
    /// Parses and runs the scenario in `text`.
    ///
    /// - Parameter file: The scenario's file name, used in error messages.
    /// - Returns: Where each step begins in the recorded events, for `CallbackOrderPrinter`.
    /// - Throws: `ScenarioError` naming the line: `.syntax` for text it cannot read (nothing is recorded),
    ///   `.illegalStep` for a step UIKit would not allow (the events of earlier steps are already in `sink`).
    @discardableResult
    public static func run(
        text: String,
        file: String? = nil,
        into sink: any LifecycleSink,
        options: SimulationOptions = SimulationOptions()
    ) throws -> [StepMarker] {
        let scenario = try ScenarioParser(file: file).parse(text)
        return try run(scenario, file: file, into: sink, options: options)
    }

    /// Runs `scenario`'s steps in order. A `window` line in the scenario overrides `options.windowSize`.
    @discardableResult
    public static func run(
        _ scenario: Scenario,
        file: String? = nil,
        into sink: any LifecycleSink,
        options: SimulationOptions = SimulationOptions()
    ) throws -> [StepMarker] {
        var options = options
        if let size = scenario.windowSize { options.windowSize = size }
        let simulation = Simulation(classes: scenario.classes, sceneID: scenario.sceneID, options: options, sink: sink)
        var markers: [StepMarker] = []
        for step in scenario.steps {
            let eventIndex = simulation.eventCount
            do {
                try simulation.perform(step)
            } catch var error as ScenarioError {
                error.file = file
                if error.line == 0 { error.line = step.line }
                throw error
            }
            let start = simulation.eventCount > eventIndex ? nil : simulation.now
            markers.append(StepMarker(eventIndex: eventIndex, time: start, line: step.line, text: step.text))
        }
        return markers
    }
}

/// Where a scenario step's events begin.
public struct StepMarker: Sendable, Hashable {
    /// Index of the step's first event among all recorded events.
    public var eventIndex: Int
    /// The step's time when it recorded no event (nanoseconds); otherwise its first event's time is used.
    public var time: UInt64?
    /// The step's line in the scenario.
    public var line: Int
    /// The command as written.
    public var text: String

    public init(eventIndex: Int, time: UInt64? = nil, line: Int, text: String) {
        self.eventIndex = eventIndex
        self.time = time
        self.line = line
        self.text = text
    }
}
