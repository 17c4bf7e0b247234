// libFuzzer harness: the console-log importer (ConsoleImport) on arbitrary text, both as a whole
// (ConsoleLogParser.parse(text:)) and line by line as `import -` streams it (ConsoleLogSession).
// Built and run by tools/fuzz (docs/FUZZING.md). Every error thrown is a pass; a trap, a sanitizer report or a
// timeout is a failure.
import ConsoleImport
import TraceModel

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConsoleImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let strict = size % 2 == 1
    _ = try? ConsoleLogParser(isStrict: strict, sourceFile: "fuzz.log").parse(text: text)
    var session = ConsoleLogSession(parser: ConsoleLogParser(sourceFile: "fuzz.log"))
    var number = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        number += 1
        do { try session.read(String(line), number: number) } catch { break }
        _ = session.takeEvents()
    }
    _ = session.finish(lineCount: number)
    return 0
}
