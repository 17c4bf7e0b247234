import LifetraceTestSupport
import Testing

@testable import Audit

/// `SerialMap.insertAbsent(_:_:)` and `remove(at:)` (a monitor's insertion of a new key and removal of a found one,
/// without optional values) behave as a `Dictionary<UInt32, _>`, and a removed value is destroyed (its references
/// released) exactly once.
@Suite("SerialMap: insertion and removal in place")
struct SerialMapInPlaceTests {
    /// How many `Tracked` values of one test are alive (one counter per test: the seeds run in parallel).
    final class Counter {
        var live = 0
    }

    /// Counts its live instances in its counter.
    final class Tracked {
        let value: Int
        let counter: Counter

        init(_ value: Int, _ counter: Counter) {
            self.value = value
            self.counter = counter
            counter.live += 1
        }

        deinit { counter.live -= 1 }
    }

    @Test("matches a Dictionary under random inserts and removals by position", arguments: [UInt64(4), 5])
    func randomOperations(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let counter = Counter()
        do {
            var map = SerialMap<Tracked>()
            var reference: [UInt32: Int] = [:]
            for step in 0..<20_000 {
                let key = generator.next() % 5 == 0 ? UInt32(truncatingIfNeeded: generator.next()) : UInt32(generator.next() % 200)
                if let position = map.position(of: key) {
                    #expect(map[at: position].value == reference[key])
                    if generator.next() % 2 == 0 {
                        map.remove(at: position)
                        reference[key] = nil
                    }
                } else {
                    let position = map.insertAbsent(key, Tracked(step, counter))
                    reference[key] = step
                    #expect(position == map.count - 1)
                    #expect(map.key(at: position) == key)
                    #expect(map[at: position].value == step)
                }
                #expect(map.count == reference.count)
                #expect(counter.live == reference.count)
            }
            for (key, value) in reference { #expect(map[key]?.value == value) }
        }
        #expect(counter.live == 0)
    }
}
