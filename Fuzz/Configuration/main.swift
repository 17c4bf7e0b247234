// libFuzzer harness: the audit configuration parser (Audit.AuditConfiguration(json:)) on arbitrary bytes.
// Built and run by tools/fuzz (docs/FUZZING.md). Every error thrown is a pass; a trap, a sanitizer report or a
// timeout is a failure.
import Audit
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfiguration(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = try? AuditConfiguration(json: Data(bytes: data, count: size), origin: ".lifetrace.json", rules: BuiltinRules.all)
    return 0
}
