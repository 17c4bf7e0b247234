import LifetraceTestSupport
import Testing
import TraceModel

@testable import Replay

@Suite("Controller table")
struct ControllerTableTests {
    static func record(_ serial: UInt32, _ time: UInt64) -> ControllerState {
        ControllerState(ref: ControllerRef(serial: serial, typeName: "T\(serial % 7)"), firstSeen: time, ordinal: time)
    }

    @Test("inserts, updates and removals agree with a dictionary", arguments: [UInt64(1), 2, 3])
    func agreesWithDictionary(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var table = ControllerTable()
        var model: [UInt32: ControllerState] = [:]
        for step in 0..<20_000 {
            // Serials from a small range, so removals and re-insertions collide in the index.
            let serial = UInt32(generator.next() % 300) * (generator.next() % 4 == 0 ? 1024 : 1)
            switch generator.next() % 3 {
            case 0:
                table[serial] = nil
                model[serial] = nil
            default:
                let state = Self.record(serial, UInt64(step))
                table[serial] = state
                model[serial] = state
            }
            if step % 997 == 0 || step == 19_999 {
                #expect(table.count == model.count)
                #expect(Set(table.keys) == Set(model.keys))
                for (key, value) in model { #expect(table[key] == value) }
                for (key, value) in table { #expect(model[key] == value) }
            }
        }
        for probe in UInt32(0)..<400 { #expect(table.contains(probe) == (model[probe] != nil)) }
    }

    @Test("equality ignores insertion order")
    func orderFreeEquality() {
        var first = ControllerTable()
        var second: ControllerTable = [:]
        for serial in UInt32(1)...50 { first[serial] = Self.record(serial, 1) }
        for serial in (UInt32(1)...50).reversed() { second[serial] = Self.record(serial, 1) }
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        second[7]?.appearance = .appeared
        #expect(first != second)
        second[7] = nil
        #expect(first != second)
        #expect(second.count == 49)
    }
}
