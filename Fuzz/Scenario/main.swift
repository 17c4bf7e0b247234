// libFuzzer harness: the scenario parser (Simulator.ScenarioParser) on arbitrary text.
// Built and run by tools/fuzz (docs/FUZZING.md). Every error thrown is a pass; a trap, a sanitizer report or a
// timeout is a failure.
import Simulator

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScenario(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? ScenarioParser(file: "fuzz.scenario").parse(text)
    return 0
}
