import LifetraceTestSupport
import Testing

@testable import Audit

@Suite("SerialWindow: values by serial, bounded by the serials holding one")
struct SerialWindowTests {
    @Test("reads what a dictionary model holds, for increasing, scattered and huge serials", arguments: [UInt64(1), 2, 3])
    func agreesWithDictionary(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var window = SerialWindow<UInt32>(empty: 0)
        var model: [UInt32: UInt32] = [:]
        var next: UInt32 = 1
        for step in 0..<60_000 {
            let roll = generator.next() % 100
            let serial: UInt32
            if roll < 50 {
                serial = next
                next += 1
            } else if roll < 90, next > 1 {
                serial = next - 1 - UInt32(generator.next() % UInt64(min(next - 1, 300)))
            } else if roll < 97 {
                serial = UInt32(truncatingIfNeeded: generator.next() % UInt64(next + 10))
            } else {
                serial = UInt32(truncatingIfNeeded: generator.next())
            }
            let value: UInt32 = generator.next() % 3 == 0 ? 0 : UInt32(step + 1)
            window[serial] = value
            model[serial] = value == 0 ? nil : value
            if step % 97 == 0 {
                let probe = UInt32(truncatingIfNeeded: generator.next() % UInt64(next + 100))
                #expect(window[probe] == model[probe] ?? 0)
            }
        }
        #expect(window.count == model.count)
        for (serial, value) in model { #expect(window[serial] == value) }
    }

    @Test("memory follows the serials holding a value, not the serials ever set")
    func bounded() {
        var window = SerialWindow<UInt32>(empty: 0)
        // Long-lived: a few small serials set once. Short-lived: each new serial is set, then cleared 40 serials later.
        for serial in UInt32(1)...4 { window[serial] = 7 }
        for serial in UInt32(5)..<200_000 {
            window[serial] = serial
            if serial >= 45 { window[serial - 40] = 0 }
        }
        #expect(window.count == 4 + 40)
        #expect(window.capacity <= 256)
        for serial in UInt32(1)...4 { #expect(window[serial] == 7) }
        #expect(window[199_999] == 199_999)
        #expect(window[100] == 0)
    }
}
