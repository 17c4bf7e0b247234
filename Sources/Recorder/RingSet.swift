import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The rings of one recorder, one per recording thread, and the per-thread lookup of the current thread's ring.
///
/// Lookup: one process-wide `pthread_key_t` holds, per thread, a `ThreadRings` cache with the ring of the
/// recorder that thread used last (compared by a never-reused recorder id); a thread's first event for a
/// recorder takes the slow path (lock, allocation of its ring). When a thread exits, the key's destructor marks
/// its rings abandoned; the background thread forgets them once it has taken every record they published.
final class RingSet: Sendable {
    /// A process-unique id (never reused, so a stale per-thread cache entry can never match a new recorder).
    let id: UInt64
    let capacity: Int
    /// `ThreadRings.key`, copied so the hot path reads a field instead of a lazily initialized global.
    private let key: pthread_key_t
    private let rings = Mutex<[ThreadRing]>([])
    private let nextIndex = Atomic<Int>(0)

    private static let ids = Atomic<UInt64>(1)

    init(capacity: Int) {
        id = Self.ids.add(1, ordering: .relaxed).oldValue
        self.capacity = capacity
        key = ThreadRings.key
    }

    /// The calling thread's ring, creating it on the thread's first event (slow path: lock, allocation).
    @inline(__always)
    func currentRing() -> Unmanaged<ThreadRing> {
        if let raw = pthread_getspecific(key) {
            let cache = Unmanaged<ThreadRings>.fromOpaque(raw)
            let ring = cache._withUnsafeGuaranteedRef { $0.ring(for: id) }
            if let ring { return ring }
        }
        return registerCurrentThread()
    }

    @inline(never)
    private func registerCurrentThread() -> Unmanaged<ThreadRing> {
        let cache: ThreadRings
        if let raw = pthread_getspecific(ThreadRings.key) {
            cache = Unmanaged<ThreadRings>.fromOpaque(raw).takeUnretainedValue()
        } else {
            cache = ThreadRings()
            pthread_setspecific(ThreadRings.key, Unmanaged.passRetained(cache).toOpaque())
        }
        if let ring = cache.ring(for: id) { return ring }
        cache.removeRetired()
        if isClosed.load(ordering: .acquiring) {
            // The writer has stopped and will never read or forget a ring registered now: the thread gets the
            // smallest ring, owned by its cache alone (freed when the thread exits). Until 2026-11-30 every thread
            // that first passed a string (a mark key, a scene, a view name) after `close()` got a full-size ring
            // kept in this set until the recorder's deinit: 1 MiB per thread by default, without bound.
            let ring = ThreadRing(capacity: 0, index: -1)
            cache.add(ring, for: id)
            return Unmanaged.passUnretained(ring)
        }
        let ring = ThreadRing(capacity: capacity, index: nextIndex.add(1, ordering: .relaxed).oldValue)
        rings.withLock { $0.append(ring) }
        cache.add(ring, for: id)
        return Unmanaged.passUnretained(ring)
    }

    /// Stops registering rings for the writer (`Recorder.close()`, before the writer's last drain): a thread's
    /// first event after this gets a minimal ring that no one reads (its records are ignored, as the recorder is
    /// closed). Rings registered before keep being drained by the last drain.
    func close() {
        isClosed.store(true, ordering: .releasing)
    }

    private let isClosed = Atomic<Bool>(false)

    /// The rings now registered (background thread).
    func snapshot() -> [ThreadRing] {
        rings.withLock { $0 }
    }

    /// Forgets the rings whose thread has exited and whose every record was taken (`ThreadRing.isFinished`,
    /// which reads the exit flag before the ring's published position; background thread). A ring whose thread
    /// published records after the consumer's last `refresh()` and then exited is kept for the next drain.
    func removeDrainedAbandoned() {
        rings.withLock { rings in
            rings.removeAll { ring in
                guard ring.isFinished else { return false }
                forgottenDrops.add(ring.droppedCount, ordering: .relaxed)
                return true
            }
        }
    }

    /// Records dropped by all rings so far (a forgotten ring's drops are counted once: both terms are read under
    /// the lock that moves them from one to the other).
    var droppedCount: UInt64 {
        rings.withLock { $0.reduce(0) { $0 &+ $1.droppedCount } &+ forgottenDrops.load(ordering: .relaxed) }
    }

    private let forgottenDrops = Atomic<UInt64>(0)

    /// Frees every ring's memory (recorder deinit: no producer or consumer is running).
    func releaseBuffers() {
        rings.withLock { rings in
            for ring in rings {
                ring.releaseBuffer()
                ring.isRetired.store(true, ordering: .releasing)
            }
        }
    }
}

/// Per-thread cache: the rings this thread records into, by recorder id, with the last one used up front.
final class ThreadRings {
    private var lastID: UInt64 = 0
    private var last: Unmanaged<ThreadRing>?
    private var all: [UInt64: ThreadRing] = [:]

    static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, threadRingsDestructor)
        return key
    }()

    @inline(__always)
    func ring(for id: UInt64) -> Unmanaged<ThreadRing>? {
        if lastID == id, let last { return last }
        guard let ring = all[id] else { return nil }
        lastID = id
        last = Unmanaged.passUnretained(ring)
        return last
    }

    /// Drops the rings of recorders that were deinitialised (slow path, at a registration). Until 2026-11-30 a
    /// thread kept every ring it ever used — an intern cache, its strings and a dictionary each — for as long as it
    /// lived, so a long-lived thread that recorded into many recorders in turn grew without bound.
    func removeRetired() {
        guard all.values.contains(where: { $0.isRetired.load(ordering: .acquiring) }) else { return }
        all = all.filter { !$0.value.isRetired.load(ordering: .acquiring) }
        if all[lastID] == nil {
            lastID = 0
            last = nil
        }
    }

    /// The rings in the calling thread's cache (tests).
    static var currentCount: Int {
        guard let raw = pthread_getspecific(key) else { return 0 }
        return Unmanaged<ThreadRings>.fromOpaque(raw).takeUnretainedValue().all.count
    }

    func add(_ ring: ThreadRing, for id: UInt64) {
        all[id] = ring
        lastID = id
        last = Unmanaged.passUnretained(ring)
    }

    deinit {
        for ring in all.values { ring.isAbandoned.store(true, ordering: .releasing) }
    }
}

#if canImport(Darwin)
private func threadRingsDestructor(_ raw: UnsafeMutableRawPointer) {
    Unmanaged<ThreadRings>.fromOpaque(raw).release()
}
#else
private func threadRingsDestructor(_ raw: UnsafeMutableRawPointer?) {
    guard let raw else { return }
    Unmanaged<ThreadRings>.fromOpaque(raw).release()
}
#endif
