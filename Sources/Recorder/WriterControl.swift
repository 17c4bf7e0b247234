import Foundation

/// The handshake between recording threads (flush requests, close) and the background writer.
///
/// Only `flush()`, the background/terminate app events and `close()` use it; the per-event hot path never does.
final class WriterControl: @unchecked Sendable {
    // @unchecked: every field is guarded by `condition`.
    private let condition = NSCondition()
    private var requested: UInt64 = 0
    private var completed: UInt64 = 0
    private var syncRequested = false
    private var closing = false
    private var finished = false
    private var error: RecorderError?
    /// Threads waiting in `close()` or `waitUntilClosed()` (for tests that force an interleaving).
    private var closeWaiters = 0

    struct Request {
        var generation: UInt64
        var isFlush: Bool
        var sync: Bool
        var closing: Bool
    }

    /// Asks the writer to drain and write; if `wait`, returns once it has served this request.
    ///
    /// - Throws: the writer's failure; or `.closed` if the writer has stopped — before this call, or (when
    ///   `wait`) after taking its closing request but before this one: its last drain may have run before this
    ///   thread's records were visible to it, so returning normally would claim a write that was not made.
    func requestFlush(sync: Bool, wait: Bool) throws {
        condition.lock()
        defer { condition.unlock() }
        if finished {
            if let error { throw error }
            throw RecorderError(code: .closed, message: "the recorder is closed")
        }
        requested += 1
        let generation = requested
        if sync { syncRequested = true }
        condition.broadcast()
        if wait {
            while completed < generation && !finished {
                condition.wait()
            }
            if completed < generation {
                if let error { throw error }
                throw RecorderError(code: .closed, message: "the recorder was closed before this flush was served")
            }
        }
        if let error { throw error }
    }

    /// Asks the writer to write everything, close the sink and stop, and waits until it has.
    func close() throws {
        condition.lock()
        defer { condition.unlock() }
        closing = true
        requested += 1
        syncRequested = true
        condition.broadcast()
        try waitForFinish()
    }

    /// Waits until the writer has stopped (a `close()` on another thread is under way).
    ///
    /// - Throws: the writer's failure, if any.
    func waitUntilClosed() throws {
        condition.lock()
        defer { condition.unlock() }
        try waitForFinish()
    }

    /// Call with `condition` locked.
    private func waitForFinish() throws {
        closeWaiters += 1
        while !finished {
            condition.wait()
        }
        closeWaiters -= 1
        if let error { throw error }
    }

    /// The number of threads waiting for the writer to stop (tests).
    var closeWaiterCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return closeWaiters
    }

    /// The generation of the latest request (tests).
    var requestedGeneration: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return requested
    }

    // MARK: writer side

    /// The pending request, clearing the sync flag it takes over.
    func takeRequest() -> Request {
        condition.lock()
        defer { condition.unlock() }
        let request = Request(generation: requested, isFlush: requested > completed, sync: syncRequested, closing: closing)
        syncRequested = false
        return request
    }

    func complete(_ generation: UInt64, finished isFinished: Bool = false) {
        condition.lock()
        if generation > completed { completed = generation }
        if isFinished { finished = true }
        condition.broadcast()
        condition.unlock()
    }

    func fail(_ failure: RecorderError) {
        condition.lock()
        if error == nil { error = failure }
        condition.unlock()
    }

    /// Sleeps up to `nanoseconds` unless a request is pending or arrives.
    func waitForRequest(upTo nanoseconds: UInt64) {
        condition.lock()
        if requested == completed && !closing {
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(nanoseconds) / 1e9))
        }
        condition.unlock()
    }
}
