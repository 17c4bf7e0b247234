import Foundation
import Synchronization
import TraceModel

/// Records lifecycle events from any thread into a trace, at a cost close to a clock read per event.
///
/// ## Hot path
/// Every recording call packs the event into a 32-byte record (timestamp, kind, controller serial, two
/// argument words), claims a slot of a preallocated ring with one compare-and-swap, reads the clock and
/// publishes the slot: no allocation, no lock, no system call, no I/O on the calling thread. Strings (mark
/// keys, scene ids, SwiftUI view names) are interned first — a hash lookup under a lock that allocates only
/// the first time a string is seen — and controllers travel as serials from `registry`; names are resolved on
/// the background thread. Payloads that do not fit (a custom mark's fields, a container operation naming
/// more than two controllers, notes) take a slower boxed path that allocates.
///
/// ## Ordering
/// The timestamp is read after the slot is claimed, so slot order and time order agree; a thread preempted
/// between the two could still publish an earlier time after a later one, and the background thread raises
/// such a timestamp to its predecessor's, so the recorded sequence is non-decreasing across threads.
///
/// ## Background thread, flushing, durability
/// One background thread drains the ring, resolves names and hands events to the sink (a `TraceWriter`
/// frame each flush). It writes when `flushEventCount` events wait, when the oldest waiting event is
/// `flushInterval` old (default 1 s), on `flush()`, and on the app events willResignActive (asynchronously),
/// didEnterBackground and willTerminate (synchronously, with fsync, when `syncFlushOnBackground`); `close()`
/// writes, fsyncs and closes.
///
/// ## Bounded memory
/// When the ring is full, events are dropped rather than the caller blocked; the background thread records
/// the number dropped as `RecorderEvent.eventsDropped` right after the last event it kept.
///
/// Controllers must be registered with this recorder's `registry`: the serial is what the ring carries.
public final class Recorder: Sendable {
    /// Gives controllers their per-trace serials (see `ControllerRegistry`).
    public let registry: ControllerRegistry
    let rings: RingSet
    let strings = StringTable()
    let clock: any TraceClock
    /// Set when `clock` is a `MonotonicClock`, so the hot path calls it without dynamic dispatch.
    private let monotonicClock: MonotonicClock?
    private let isClosed = Atomic<Bool>(false)
    let control: WriterControl
    let options: RecorderOptions

    /// Starts recording into `sink` on a new background thread, beginning with a `RecorderEvent.runStarted`.
    ///
    /// - Parameters:
    ///   - sink: Receives events on the background thread only; the recorder owns it from now on.
    ///   - options: Buffering and flushing.
    ///   - clock: Timestamps in nanoseconds; `MonotonicClock` by default, a `ManualClock` in tests.
    ///   - registry: Serials for controllers; pass one that already reserved the serials of an existing trace.
    public convenience init(
        sink: sending any EventSink,
        options: RecorderOptions = RecorderOptions(),
        clock: any TraceClock = MonotonicClock(),
        registry: ControllerRegistry = ControllerRegistry()
    ) {
        self.init(sink: sink, options: options, clock: clock, registry: registry, timestampFloor: 0)
    }

    /// - Parameter timestampFloor: The last timestamp already in the trace (appending): if the clock is behind
    ///   it (the machine rebooted since), the run's timestamps are shifted to start there, so the trace stays
    ///   non-decreasing.
    init(
        sink: sending any EventSink, options: RecorderOptions, clock: any TraceClock, registry: ControllerRegistry,
        timestampFloor: UInt64
    ) {
        self.registry = registry
        self.options = options
        self.clock = clock
        monotonicClock = clock as? MonotonicClock
        rings = RingSet(capacity: options.capacity)
        control = WriterControl()
        let start = clock.now()
        let offset = timestampFloor > start ? timestampFloor - start : 0
        let process = options.processDescription ?? Self.defaultProcessDescription()
        _ = rings.currentRing()._withUnsafeGuaranteedRef {
            $0.push(Record(kind: .boxed, first: BoxedPayload.retainedWord(.recorder(.runStarted(process: process)))), clock: DynamicClock(base: clock))
        }
        let writer = BackgroundWriter(
            sink: SinkBox(sink), rings: rings, clock: clock, strings: strings, registry: registry,
            control: control, options: options, timestampOffset: offset, timestampFloor: timestampFloor)
        let thread = Thread { writer.run() }
        thread.name = "lifetrace.recorder"
        thread.start()
    }

    deinit {
        try? close()
        rings.releaseBuffers()
    }

    static func defaultProcessDescription() -> String {
        let info = ProcessInfo.processInfo
        return "\(info.processName)[\(info.processIdentifier)]"
    }

    // MARK: - The hot path

    /// Pushes one record; `false` if it was dropped (ring full) or the recorder is closed.
    @inline(__always)
    @discardableResult
    func push(_ record: Record) -> Bool {
        if isClosed.load(ordering: .relaxed) { return false }
        let ring = rings.currentRing()
        if let monotonicClock {
            return ring._withUnsafeGuaranteedRef { $0.push(record, clock: monotonicClock) }
        }
        let clock = DynamicClock(base: self.clock)
        return ring._withUnsafeGuaranteedRef { $0.push(record, clock: clock) }
    }

    /// Pushes a payload that does not fit a record (slow path: allocates).
    func pushBoxed(_ payload: EventPayload) {
        if isClosed.load(ordering: .relaxed) { return }
        let word = BoxedPayload.retainedWord(payload)
        if !push(Record(kind: .boxed, first: word)) {
            _ = BoxedPayload.take(word)
        }
    }

    /// The interned id of `string`: from the calling thread's own cache (no lock), else from the shared table
    /// (lock; allocates the first time a string is seen by this recorder, and once per thread for its cache).
    @inline(__always)
    func stringID(_ string: String) -> UInt32 {
        rings.currentRing()._withUnsafeGuaranteedRef { ring in
            if let id = ring.internCache.id(for: string) { return id }
            return stringIDSlow(string, ring: ring)
        }
    }

    @inline(never)
    private func stringIDSlow(_ string: String, ring: ThreadRing) -> UInt32 {
        let id: UInt32
        if let cached = ring.stringIDs[string] {
            id = cached
        } else {
            id = strings.id(for: string)
            ring.stringIDs[string] = id
        }
        ring.internCache.store(string, id: id)
        return id
    }

    /// Events dropped so far because the ring was full.
    public var droppedCount: UInt64 {
        rings.droppedCount
    }

    /// The current time on the recorder's clock, in nanoseconds.
    public func now() -> UInt64 { clock.now() }

    // MARK: - Flushing and closing

    /// Waits until every event recorded before this call is written to the sink (one frame), without fsync.
    ///
    /// - Throws: `RecorderError` (`.write`) if the background writer has failed, or (`.closed`) after `close()`
    ///   or when a `close()` on another thread stopped the writer before this flush was served (the events may
    ///   or may not have been written by that close).
    public func flush() throws {
        try flush(sync: false)
    }

    /// Waits until every event recorded before this call is written, and, if `sync`, fsynced.
    public func flush(sync: Bool) throws {
        if isClosed.load(ordering: .acquiring) {
            throw RecorderError(code: .closed, message: "the recorder is closed")
        }
        try control.requestFlush(sync: sync, wait: true)
    }

    /// Asks the background thread to write (and, if `sync`, fsync) soon, without waiting.
    public func requestFlush(sync: Bool = false) {
        try? control.requestFlush(sync: sync, wait: false)
    }

    /// Writes everything recorded so far, fsyncs, closes the sink and stops the background thread. Later
    /// recording calls are ignored; a call on another thread concurrent with `close()` may be written or ignored.
    /// Calling `close()` again (from any thread, even while the first call is under way) writes nothing more: it
    /// returns once the first call has finished, so a trace file is complete when any `close()` returns.
    ///
    /// - Throws: `RecorderError` (`.write`) if writing, syncing or closing failed at any point (every call
    ///   throws it).
    public func close() throws {
        let (exchanged, _) = isClosed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing)
        guard exchanged else {
            // Until 2026-11-30 this returned at once: a second close() returned while the first was still writing.
            try control.waitUntilClosed()
            return
        }
        rings.close()
        try control.close()
    }
}

/// Wraps an existential clock so `ThreadRing.push` has one generic body.
struct DynamicClock: TraceClock {
    let base: any TraceClock
    @inline(__always)
    func now() -> UInt64 { base.now() }
}

/// Carries the sink to the background thread, which is its only user after `Recorder.init`.
final class SinkBox: @unchecked Sendable {
    let sink: any EventSink
    init(_ sink: sending any EventSink) { self.sink = sink }
}
