import Foundation
import LifetraceTestSupport
import TraceModel

@testable import TraceLog

/// A fresh directory under the system's temporary directory, removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init() {
        let base = FileManager.default.temporaryDirectory.path
        path = "\(base)/lifetrace-tracelog-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }
}

enum TraceFiles {
    static let header = TraceHeader(
        clockDomain: .linuxMonotonic,
        wallClockAnchor: WallClockAnchor(unixNanoseconds: 1_764_460_800_000_000_000, monotonicNanoseconds: 1_000_000_000),
        producer: "TraceLogTests",
        traceID: Array(1...16)
    )

    static func options(eventsPerFrame: Int) -> TraceWriter.Options {
        var options = TraceWriter.Options()
        options.maxEventsPerFrame = eventsPerFrame
        return options
    }

    /// Writes `events` to `path` in frames of `eventsPerFrame`, with a checkpoint after `checkpointAfter` events.
    @discardableResult
    static func write(
        _ events: [Event], to path: String, eventsPerFrame: Int = 4096, checkpointAfter: Int? = nil, close: Bool = true
    ) throws -> TraceWriter {
        let writer = try TraceWriter(creating: path, header: header, options: options(eventsPerFrame: eventsPerFrame))
        for (position, event) in events.enumerated() {
            if position == checkpointAfter { try writer.writeCheckpoint(Array("state@\(position)".utf8)) }
            try writer.append(event)
        }
        if close { try writer.close() } else { try writer.flush() }
        return writer
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func put(_ bytes: [UInt8], to path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Every event of the valid prefix, and the error that ended iteration early, if any.
    static func readAll(_ reader: TraceReader) -> (events: [Event], ordinals: [UInt64], error: TraceError?) {
        var iterator = reader.events()
        var events: [Event] = []
        var ordinals: [UInt64] = []
        while let (ordinal, event) = iterator.next() {
            events.append(event)
            ordinals.append(ordinal)
        }
        return (events, ordinals, iterator.error)
    }

    /// A small, realistic stream: a push, appearance callbacks with intervals, marks.
    static func small(count: Int, seed: UInt64) -> [Event] {
        RandomEvents.make(count: count, seed: seed)
    }
}
