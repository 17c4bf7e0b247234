import Foundation
import Testing
import TraceLog
import TraceModel

@testable import LifetraceCLI

/// A trace whose frames go back in time (a frame duplicated or spliced in: FORMAT §8 reports it and keeps
/// reading) is read by every command with a warning, exit 1. `export` failed instead with `error: line 5: time
/// goes backwards`, naming neither the trace nor the event (the line was one of the output it did not write),
/// and with `-o` wrote nothing. It now stops like any input that cannot be read on: the events before the step
/// back are exported (to `-o` too), and one error names the trace, the event and both times, exit 2.
@Suite("export of a trace whose frames go back in time")
struct OutOfOrderExportTests {
    /// Frames of 4 events, then the first frame written again after the second.
    static func splicedTrace(in scratch: CLIScratch) throws -> String {
        let clean = scratch.path("clean.lifetrace")
        var options = TraceWriter.Options()
        options.maxEventsPerFrame = 4
        let writer = try TraceWriter(
            creating: clean, header: TraceHeader(clockDomain: .synthetic, wallClockAnchor: .none, producer: "splice"), options: options)
        for index in 0..<8 {
            try writer.append(Event(timestamp: UInt64(index) * 1_000, .mark(MarkEvent("m\(index)"))))
        }
        try writer.close()
        let reader = try TraceReader(path: clean)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: clean)))
        let frames = reader.frames.filter { $0.kind == .events }
        try #require(frames.count == 2)
        func frame(_ info: FrameInfo) -> ArraySlice<UInt8> {
            bytes[Int(info.offset)..<Int(info.offset) + 64 + Int(info.compressedLength)]
        }
        let spliced = Array(bytes[..<Int(frames[0].offset)]) + frame(frames[0]) + frame(frames[1]) + frame(frames[0])
        let path = scratch.path("spliced.lifetrace")
        try Data(spliced).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("standard output: the 8 events before the step back, one error naming the trace and the event, exit 2")
    func toStandardOutput() throws {
        let scratch = try CLIScratch("spliced-export")
        let path = try Self.splicedTrace(in: scratch)
        #expect(runCLI(["events", path]).code == .problemFound)
        let result = runCLI(["export", path])
        #expect(result.code == .usageOrInput)
        #expect(result.out.split(separator: "\n").count == 1 + 8)
        let error = try #require(result.err.split(separator: "\n").first { $0.contains("error:") })
        #expect(error.hasPrefix("lifetrace export: error: \(path): event 8:"))
        #expect(error.contains("0 ns is earlier than the previous event's 7000 ns"))
        #expect(error.contains("using the 8 readable events before it"))
    }

    @Test("-o: the readable prefix is written, exit 2")
    func toFile() throws {
        let scratch = try CLIScratch("spliced-export-file")
        let path = try Self.splicedTrace(in: scratch)
        let jsonl = scratch.path("out.jsonl")
        let result = runCLI(["export", path, "-o", jsonl])
        #expect(result.code == .usageOrInput)
        #expect(result.out.contains("exported the readable prefix: 8 events"))
        let written = try String(contentsOfFile: jsonl, encoding: .utf8)
        #expect(written.split(separator: "\n").count == 1 + 8)
        #expect(runCLI(["events", jsonl]).code == .success)
    }
}
