// The hand-written logger peer: what an app developer writes when they log lifecycle events themselves.

import Foundation
import TraceModel

/// JSON lines through Foundation's `JSONEncoder` and `FileHandle`: one `Codable` struct per event, encoded and
/// written as it happens, with the time read from the system's uptime clock. This is the code a developer writes
/// in an afternoon (`print` aside), and the one `lifetrace`'s recorder is compared with.
final class HandWrittenLogger {
    /// One log line as a developer would declare it.
    struct Entry: Encodable {
        var time: Double
        var event: String
        var phase: String
        var controller: String?
    }

    private let encoder = JSONEncoder()
    private let handle: FileHandle
    let path: String

    /// Creates (truncates) the log file at `path`.
    init(path: String) throws {
        self.path = path
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw BenchError("cannot create \(path)")
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { throw BenchError("cannot open \(path)") }
        self.handle = handle
    }

    deinit { try? handle.close() }

    /// Logs one event the hand-written way: take the time, build the entry, encode, append a newline, write.
    func log(event: String, phase: String, controller: String?) throws {
        let entry = Entry(time: ProcessInfo.processInfo.systemUptime, event: event, phase: phase, controller: controller)
        var data = try encoder.encode(entry)
        data.append(0x0A)
        try handle.write(contentsOf: data)
    }

    /// Empties the file so repeated rounds do not grow it without bound.
    func reset() throws {
        try handle.truncate(atOffset: 0)
    }
}
