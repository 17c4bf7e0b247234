// libFuzzer harness: the binary trace reader (TraceLog.TraceReader) on arbitrary file contents, and the
// checkpoint decoder (Replay.ReplayState(checkpointPayload:)) on every checkpoint frame it finds.
// Built and run by tools/fuzz (docs/FUZZING.md). The reader takes a path, so each input is written to one
// scratch file first. Every error thrown is a pass; a trap, a sanitizer report or a timeout is a failure.
import Foundation
import Replay
import TraceLog
import TraceModel

let scratchPath: String = {
    let directory = ProcessInfo.processInfo.environment["LIFETRACE_FUZZ_SCRATCH"] ?? NSTemporaryDirectory()
    return (directory as NSString).appendingPathComponent("fuzz-trace-\(getpid()).lifetrace")
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTraceReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    guard FileManager.default.createFile(atPath: scratchPath, contents: bytes) else { return 0 }
    defer { unlink(scratchPath) }
    guard let reader = try? TraceReader(path: scratchPath) else { return 0 }
    _ = try? reader.verify()
    for frame in reader.frames {
        if frame.kind == .events {
            if var cursor = try? reader.cursor(for: frame) {
                while let event = try? cursor.nextEvent() { _ = event.summary }
            }
        } else if frame.kind == .checkpoint {
            if let payload = try? reader.checkpointPayload(frame) { _ = try? ReplayState(checkpointPayload: payload) }
        }
    }
    _ = reader.frameIndex(containing: UInt64(size))
    return 0
}
