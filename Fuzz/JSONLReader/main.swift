// libFuzzer harness: the JSON Lines trace reader (TraceLog.JSONLReader) on arbitrary bytes.
// Built and run by tools/fuzz (docs/FUZZING.md). Every error thrown is a pass; a trap, a sanitizer report or a
// timeout is a failure.
import TraceLog
import TraceModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONLReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard var reader = try? JSONLReader(bytes: bytes, file: "fuzz.jsonl") else { return 0 }
    while let event = try? reader.next() { _ = event.summary }
    return 0
}
