import Synchronization

/// One recording thread's bounded single-producer, single-consumer ring of 32-byte `Record`s.
///
/// The producer (the thread that owns the ring) checks for room against a cached copy of the consumer's
/// position, reads the clock, stores the record and publishes it with a release store of `tail`: no
/// read-modify-write atomic, no lock, no allocation, no system call, and no cache line shared with another
/// recording thread. When the ring is full the record is dropped and counted. The consumer (the recorder's
/// background thread) reads published records in order and frees them by advancing `head`.
///
/// `@unchecked Sendable`: `producerTail`, `cachedHead` and `droppedByProducer` belong to the producer thread,
/// `consumerHead` to the consumer; slot memory is handed over by the release/acquire pair on `tail` (producer
/// to consumer) and on `head` (consumer to producer).
final class ThreadRing: @unchecked Sendable {
    // Layout: the producer's fields, then the consumer's, each group on cache lines of its own (128 bytes of
    // padding between them, as adjacent-line prefetchers pair lines), so that the consumer draining the ring
    // never writes a line the producer reads on every event. Swift lays stored properties out in declaration
    // order. Each side keeps its own copy of the read-only geometry for the same reason.

    // Producer side (the owning thread).
    private var producerTail: UInt64 = 0
    private var cachedHead: UInt64 = 0
    private let tail = Atomic<UInt64>(0)
    private let dropped = Atomic<UInt64>(0)
    private var producerSlots: UnsafeMutablePointer<Record>?
    private let producerMask: UInt64
    let capacity: UInt64
    /// The producer's cache of interned string ids (see `Recorder.stringID`).
    var stringIDs: [String: UInt32] = [:]
    /// The producer's representation-keyed front cache (see `InternCache`).
    let internCache = InternCache()
    private let padding1: Padding = Padding()

    // Consumer side (the recorder's background thread).
    private(set) var consumerHead: UInt64 = 0
    private var consumerTail: UInt64 = 0
    private var consumerSlots: UnsafeMutablePointer<Record>?
    private let consumerMask: UInt64
    private let head = Atomic<UInt64>(0)
    private let padding2: Padding = Padding()

    /// Registration number among the recorder's rings (-1: a ring given out after `close()`, never read).
    /// Diagnostic only: the writer breaks timestamp ties by position in `RingSet`'s list, which is the order
    /// rings were added to it, so the ring registered first wins.
    let index: Int
    /// Set (release) by the owning thread's key destructor when it exits, after its last record was published;
    /// the consumer forgets the ring once `isFinished`.
    let isAbandoned = Atomic<Bool>(false)
    /// Set (release) at the recorder's deinit, after the slots were freed: the threads that cache this ring drop
    /// it from their cache at their next ring registration (`ThreadRings.removeRetired()`).
    let isRetired = Atomic<Bool>(false)

    init(capacity requested: Int, index: Int) {
        var size = 64
        while size < requested { size <<= 1 }
        capacity = UInt64(size)
        producerMask = UInt64(size - 1)
        consumerMask = UInt64(size - 1)
        let slots = UnsafeMutablePointer<Record>.allocate(capacity: size)
        slots.initialize(repeating: Record(kind: .boxed), count: size)
        producerSlots = slots
        consumerSlots = slots
        self.index = index
    }

    deinit {
        releaseBuffer()
    }

    /// Frees the slot memory (at the recorder's deinit, when no producer or consumer can touch it any more),
    /// first taking back the boxed payloads of records published but never taken — records of a call that
    /// passed the closed check just before `close()` and published after the writer's last drain (until
    /// 2026-11-30 their boxes leaked).
    func releaseBuffer() {
        guard let slots = producerSlots else { return }
        var position = consumerHead
        let end = tail.load(ordering: .acquiring)
        while position != end {
            let record = slots[Int(position & consumerMask)]
            if record.kind == Record.Kind.boxed.rawValue { _ = BoxedPayload.take(record.first) }
            position &+= 1
        }
        slots.deinitialize(count: Int(capacity))
        slots.deallocate()
        producerSlots = nil
        consumerSlots = nil
    }

    // MARK: Producer

    /// Stamps `record` with `clock.now()` and publishes it. Producer thread only.
    ///
    /// - Returns: `false` if the ring was full and the record was dropped (and counted).
    @inline(__always)
    func push<Clock: TraceClock>(_ record: Record, clock: Clock) -> Bool {
        let position = producerTail
        if position &- cachedHead >= capacity {
            cachedHead = head.load(ordering: .acquiring)
            if position &- cachedHead >= capacity {
                dropped.store(dropped.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
                return false
            }
        }
        var stamped = record
        stamped.timestamp = clock.now()
        producerSlots.unsafelyUnwrapped[Int(position & producerMask)] = stamped
        producerTail = position &+ 1
        tail.store(position &+ 1, ordering: .releasing)
        return true
    }

    /// Records dropped by this ring's producer so far.
    var droppedCount: UInt64 { dropped.load(ordering: .relaxed) }

    // MARK: Consumer

    /// Consumer only: takes a snapshot of what the producer has published.
    func refresh() {
        consumerTail = tail.load(ordering: .acquiring)
    }

    /// Consumer only: the next published record (of the last `refresh()`), without taking it.
    @inline(__always)
    func peek() -> Record? {
        guard consumerHead != consumerTail, let slots = consumerSlots else { return nil }
        return slots[Int(consumerHead & consumerMask)]
    }

    /// Consumer only: takes the record `peek()` returned.
    @inline(__always)
    func advance() {
        consumerHead &+= 1
    }

    /// Consumer only: hands the slots taken since the last call back to the producer.
    func release() {
        head.store(consumerHead, ordering: .releasing)
    }

    /// Consumer only: whether the ring can be forgotten — its thread has exited (`isAbandoned`) and every record
    /// the thread ever published was taken.
    ///
    /// The order of the two reads is what makes this safe: the flag first (acquire), then `tail` (acquire). The
    /// thread's last publishing store of `tail` precedes, in its program order, the release store of
    /// `isAbandoned` made by its key destructor at exit, so once the flag reads `true` the `tail` read after it
    /// is final. Comparing against the tail of the last `refresh()` instead — read before the flag — would
    /// forget a ring whose thread published records between that refresh and its exit, and lose those records.
    var isFinished: Bool {
        guard isAbandoned.load(ordering: .acquiring) else { return false }
        return consumerHead == tail.load(ordering: .acquiring)
    }
}

/// 128 bytes that keep two groups of fields on different cache lines.
struct Padding {
    private var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
        UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}
