import Testing
import TraceLog
import TraceModel

@testable import Audit

/// `AuditSession` builds its mark table from each filter's names interned once (`MarkFilter.knownCodes`): for every
/// code but `KnownName.other` it must say what `contains(known:)` says, and `holdsCustomNames` the same.
@Suite("Mark filter codes")
struct MarkFilterCodesTests {
    @Test("knownCodes agrees with contains(known:) and holdsCustomNames for every interned code")
    func agrees() {
        let filters: [MarkFilter] = [
            .all, MarkFilter([]), MarkFilter([MarkName.save]), MarkFilter([MarkName.save, MarkName.edit, "screen_view", "custom.thing"]),
            MarkFilter(["only.custom"]), MarkFilter([MarkName.timerStart, MarkName.timerStop, MarkName.geometryRead]),
        ]
        var held = 0
        for filter in filters {
            let codes = filter.knownCodes
            #expect(codes.holdsCustomNames == filter.holdsCustomNames)
            for raw in 0...255 {
                // `.other` is never asked by code (the table skips it; such marks go by their string).
                guard let code = KnownName(rawValue: UInt8(raw)), code != .other else { continue }
                #expect(codes.contains(code) == filter.contains(known: code), "\(filter.names ?? ["*"]) code \(raw)")
                if codes.contains(code) { held += 1 }
            }
        }
        #expect(held > 3)
    }
}
