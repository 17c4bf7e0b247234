import Recorder
import Synchronization
import TraceModel

/// An `EventSink` that keeps events in memory: for tests of the recorder and of code that records.
///
/// `written` holds what a file would hold (events up to the last `flush()`); `pending` what was appended
/// since. Counts of flushes and syncs let tests check the flush policy. Thread-safe: the recorder's background
/// thread writes, the test reads. `failNextFlush` makes the next `flush()` throw, to test error reporting.
public final class InMemorySink: EventSink, Sendable {
    public struct Snapshot: Sendable, Equatable {
        public var written: [Event] = []
        public var pending: [Event] = []
        public var flushCount = 0
        public var syncCount = 0
        public var isClosed = false
    }

    public struct InjectedFailure: Error, Sendable {}

    private let state = Mutex(Snapshot())
    private let failure = Atomic<Bool>(false)

    public init() {}

    /// Everything written so far (flushed events).
    public var written: [Event] { state.withLock { $0.written } }

    /// The whole state at once.
    public var snapshot: Snapshot { state.withLock { $0 } }

    /// Makes the next `flush()` throw `InjectedFailure`.
    public func failNextFlush() { failure.store(true, ordering: .releasing) }

    public func append(_ event: Event) throws {
        state.withLock { $0.pending.append(event) }
    }

    public func flush() throws {
        if failure.exchange(false, ordering: .acquiringAndReleasing) { throw InjectedFailure() }
        state.withLock { state in
            state.written += state.pending
            state.pending.removeAll()
            state.flushCount += 1
        }
    }

    public func sync() throws {
        state.withLock { $0.syncCount += 1 }
    }

    public func close() throws {
        try flush()
        state.withLock { $0.isClosed = true }
    }
}
