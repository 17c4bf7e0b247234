import Foundation
import Simulator
import TraceModel

/// Runs scenario text in memory and reads the callback order back.
struct Run {
    let events: [Event]
    let markers: [StepMarker]

    init(_ text: String) throws {
        let collector = EventCollector()
        markers = try Simulator.run(text: text, file: "test.scenario", into: collector)
        events = collector.events
    }

    /// Events from the first step whose command starts with `step` onwards, up to the end or to the first
    /// later step starting with `until`.
    func events(from step: String, until end: String? = nil) -> ArraySlice<Event> {
        guard let first = markers.firstIndex(where: { $0.text.hasPrefix(step) }) else { return [] }
        let start = markers[first].eventIndex
        var stop = events.count
        if let end, let last = markers[(first + 1)...].first(where: { $0.text.hasPrefix(end) }) {
            stop = last.eventIndex
        }
        return events[start..<stop]
    }

    static let layoutAndInit: Set<Callback> = [
        .initialize, .viewIsAppearing, .viewWillLayoutSubviews, .viewDidLayoutSubviews,
    ]

    /// `Type.callback` for each callback begin, skipping `excluded`; willMove/didMove show their parent's type
    /// or nil: `B.willMove(Nav)`, `B.didMove(nil)`. Container operations show as `▸operation`.
    static func order(
        _ events: some Sequence<Event>,
        excluding excluded: Set<Callback> = layoutAndInit,
        containers: Bool = false,
        only types: Set<String>? = nil
    ) -> [String] {
        var result: [String] = []
        for event in events {
            switch event.payload {
            case .callback(let callback) where callback.phase != .end && !excluded.contains(callback.callback):
                if let types, !types.contains(callback.controller.typeName) { continue }
                var text = "\(callback.controller.typeName).\(callback.callback.name)"
                if callback.callback == .willMoveToParent || callback.callback == .didMoveToParent {
                    let base = callback.callback == .willMoveToParent ? "willMove" : "didMove"
                    text = "\(callback.controller.typeName).\(base)(\(callback.parent?.controller?.typeName ?? "nil"))"
                }
                result.append(text)
            case .container(let container) where containers:
                result.append("▸\(container.operation.name)")
            default:
                break
            }
        }
        return result
    }

    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures")
    }

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }
}
