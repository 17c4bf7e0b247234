import Synchronization

/// A bounded multi-producer, single-consumer ring of `Record`s (Vyukov's bounded queue, one consumer).
///
/// Producers claim a slot with a compare-and-swap on `tail`, take the timestamp, store the 32-byte record and
/// publish it with a release store of the slot's sequence word. No allocation, no lock, no system call. When
/// the consumer has not yet freed the slot one lap ahead, the ring is full: the producer counts a drop and
/// returns without waiting. The single consumer (the recorder's background thread) reads slots in claim order.
///
/// `@unchecked Sendable`: the slot memory is shared, and every access is ordered by the sequence words
/// (release on publish / free, acquire on read), which is the queue's invariant.
final class RecordRing: @unchecked Sendable {
    let capacity: Int
    private let mask: UInt64
    private let slots: UnsafeMutablePointer<Record>
    private let sequences: UnsafeMutablePointer<Atomic<UInt64>>
    private let tail = Atomic<UInt64>(0)
    /// Events dropped because the ring was full, since the start.
    let dropped = Atomic<UInt64>(0)

    init(capacity requested: Int) {
        var size = 64
        while size < requested { size <<= 1 }
        capacity = size
        mask = UInt64(size - 1)
        slots = .allocate(capacity: size)
        slots.initialize(repeating: Record(kind: .boxed), count: size)
        sequences = .allocate(capacity: size)
        for index in 0..<size {
            (sequences + index).initialize(to: Atomic(UInt64(index)))
        }
    }

    deinit {
        slots.deinitialize(count: capacity)
        slots.deallocate()
        sequences.deinitialize(count: capacity)
        sequences.deallocate()
    }

    /// Claims a slot, stamps `record` with `clock.now()` (read after the claim, so claim order and time order
    /// agree except for threads preempted between the two) and publishes it.
    ///
    /// - Returns: `false` if the ring was full and the record was dropped (and counted).
    @inline(__always)
    func push<Clock: TraceClock>(_ record: Record, clock: Clock) -> Bool {
        var position = tail.load(ordering: .relaxed)
        while true {
            let sequence = sequences[Int(position & mask)].load(ordering: .acquiring)
            let difference = Int64(bitPattern: sequence &- position)
            if difference == 0 {
                let (exchanged, original) = tail.compareExchange(
                    expected: position, desired: position &+ 1, ordering: .relaxed)
                if exchanged { break }
                position = original
            } else if difference < 0 {
                dropped.add(1, ordering: .relaxed)
                return false
            } else {
                position = tail.load(ordering: .relaxed)
            }
        }
        let index = Int(position & mask)
        var stamped = record
        stamped.timestamp = clock.now()
        slots[index] = stamped
        sequences[index].store(position &+ 1, ordering: .releasing)
        return true
    }

    /// `push(_:clock:)` for a clock known only by its protocol (one dynamic call per event).
    @inline(__always)
    func push(_ record: Record, anyClock clock: any TraceClock) -> Bool {
        push(record, clock: DynamicClock(base: clock))
    }

    /// The number of slots claimed so far (published or about to be).
    var claimed: UInt64 { tail.load(ordering: .acquiring) }

    /// Consumer only: the record at `position` if it has been published, else `nil`. Frees the slot.
    @inline(__always)
    func pop(at position: UInt64) -> Record? {
        let index = Int(position & mask)
        guard sequences[index].load(ordering: .acquiring) == position &+ 1 else { return nil }
        let record = slots[index]
        sequences[index].store(position &+ UInt64(capacity), ordering: .releasing)
        return record
    }
}

/// Wraps an existential clock so `RecordRing.push` has one generic body.
struct DynamicClock: TraceClock {
    let base: any TraceClock
    @inline(__always)
    func now() -> UInt64 { base.now() }
}
