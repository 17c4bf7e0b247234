import LifetraceTestSupport
import Testing

@testable import Audit

/// `SerialMap` behaves as a `Dictionary<UInt32, Int>` under random inserts, updates and removals (its own
/// hashing and backward-shift deletion), and iterates in storage order.
@Suite("SerialMap")
struct SerialMapTests {
    @Test("matches a Dictionary under random operations", arguments: [UInt64(1), 2, 3])
    func randomOperations(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var map = SerialMap<Int>()
        var reference: [UInt32: Int] = [:]
        // Few distinct keys (collisions, reinsertion after removal) and some far apart ones.
        func key() -> UInt32 {
            generator.next() % 4 == 0 ? UInt32(truncatingIfNeeded: generator.next()) : UInt32(generator.next() % 300)
        }
        for step in 0..<20_000 {
            let k = key()
            switch generator.next() % 6 {
            case 0, 1:
                map[k] = step
                reference[k] = step
            case 2:
                let removed = map.removeValue(forKey: k)
                #expect(removed == reference.removeValue(forKey: k))
            case 3:
                map[k, default: 0] += 1
                reference[k, default: 0] += 1
            case 4:
                map[k] = nil
                reference[k] = nil
            default:
                #expect(map[k] == reference[k])
                #expect(map.contains(k) == (reference[k] != nil))
            }
            if step % 5_000 == 4_999 {
                map.removeAll()
                reference.removeAll()
            }
            #expect(map.count == reference.count)
        }
        for (k, v) in reference { #expect(map[k] == v) }
        #expect(Set(map.keys) == Set(reference.keys))
        for position in map.keys.indices { #expect(map[at: position] == reference[map.keys[position]]) }
    }

    @Test("a set of serials: insert reports whether the key was new")
    func voidValues() {
        var set = SerialMap<Void>()
        let first = set.insert(7)
        let second = set.insert(7)
        #expect(first)
        #expect(!second)
        #expect(set.contains(7))
        set.remove(7)
        #expect(!set.contains(7))
        #expect(set.isEmpty)
    }
}
