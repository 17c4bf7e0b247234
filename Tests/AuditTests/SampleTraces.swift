import Foundation
import TraceLog
import TraceModel

/// The committed sample traces (traces/NAME.lifetrace, generated from traces/scenarios/NAME.scenario), read from
/// the repository for the rule tests.
enum SampleTraces {
    /// The repository root (three levels above this file).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every event of traces/NAME.lifetrace, in order.
    static func events(_ name: String) throws -> [Event] {
        let reader = try TraceReader(path: root.appendingPathComponent("traces/\(name).lifetrace").path)
        var events: [Event] = []
        try reader.forEachEvent { _, event in events.append(event) }
        return events
    }
}
