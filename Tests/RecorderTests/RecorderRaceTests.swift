import Foundation
import LifetraceTestSupport
import Synchronization
import Testing
import TraceModel

@testable import Recorder

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Interleavings of `close()`, `flush()`, thread exit and recorder deinit, each forced by hand (semaphores, a
/// sink that blocks, `JoinableThread.join()`, playing the writer's part on a `WriterControl`), never by timing.
@Suite("Recorder races around close, flush and thread exit")
struct RecorderRaceTests {
    /// An in-memory sink whose `close()` signals `closeEntered` and then blocks until `closeGate` is signalled.
    final class GatedSink: EventSink, Sendable {
        let inner = InMemorySink()
        let closeEntered = DispatchSemaphore(value: 0)
        let closeGate = DispatchSemaphore(value: 0)

        func append(_ event: Event) throws { try inner.append(event) }
        func flush() throws { try inner.flush() }
        func sync() throws { try inner.sync() }
        func close() throws {
            closeEntered.signal()
            closeGate.wait()
            try inner.close()
        }
    }

    /// -1 until set.
    final class Outcome: Sendable {
        let value = Atomic<Int>(-1)
        func set(_ outcome: Int) { value.store(outcome, ordering: .releasing) }
        var current: Int { value.load(ordering: .acquiring) }
    }

    @Test("a second close() while the first is still writing returns only once the sink is closed")
    func secondCloseWaits() throws {
        let sink = GatedSink()
        let recorder = Recorder(sink: sink, clock: ManualClock(start: 1))
        let controller = recorder.registry.register(typeName: "A")
        recorder.record(.viewDidLoad, .instant, controller)
        let first = JoinableThread { try? recorder.close() }
        sink.closeEntered.wait()  // the writer is in sink.close(), so the first close() is under way
        let sawClosed = Outcome()
        let second = JoinableThread {
            try? recorder.close()
            sawClosed.set(sink.inner.snapshot.isClosed ? 1 : 0)
        }
        // Let the sink finish once the second close() waits too — or has returned without waiting (the fault:
        // until 2026-11-30 it returned at once, while the trace was still being written).
        while recorder.control.closeWaiterCount < 2 && sawClosed.current == -1 { usleep(1_000) }
        sink.closeGate.signal()
        second.join()
        first.join()
        #expect(sawClosed.current == 1)
        #expect(sink.inner.written.count == 2)  // runStarted and the callback
    }

    @Test("a flush requested after the writer took its closing request throws closed instead of returning unserved")
    func flushAfterFinalDrain() throws {
        // This test is the writer: it takes the closing request, and completes it only after a flush was requested.
        let control = WriterControl()
        let closer = JoinableThread { try? control.close() }
        var request = control.takeRequest()
        while !request.closing {
            usleep(1_000)
            request = control.takeRequest()
        }
        // Here the writer would run its last drain, which a record published by the flushing thread after this
        // point (it passed `Recorder.flush()`'s closed check before `close()` set it) is not guaranteed to reach.
        let outcome = Outcome()
        let flusher = JoinableThread {
            do {
                try control.requestFlush(sync: false, wait: true)
                outcome.set(0)
            } catch let error as RecorderError {
                outcome.set(error.code == .closed ? 1 : 2)
            } catch {
                outcome.set(3)
            }
        }
        while control.requestedGeneration <= request.generation { usleep(1_000) }  // the flush is waiting
        control.complete(request.generation, finished: true)
        flusher.join()
        closer.join()
        #expect(outcome.current == 1)  // until 2026-11-30: 0, a normal return for a flush that was never served
    }

    @Test("a thread that first records after close() gets no ring in the set (no memory kept for it)")
    func noRingAfterClose() throws {
        let harness = Harness()
        let recorder = harness.recorder
        let controller = recorder.registry.register(typeName: "A")
        try recorder.close()
        let before = recorder.rings.snapshot().count
        let capacity = Outcome()
        JoinableThread {
            recorder.edit(key: "draft", controller: controller)  // interns first, so it looks its ring up
            recorder.sceneWillConnect("main")
            recorder.record(.viewDidLoad, .instant, controller)
            capacity.set(Int(recorder.rings.currentRing().takeUnretainedValue().capacity))
        }.join()
        #expect(recorder.rings.snapshot().count == before)  // until 2026-11-30: one more 1 MiB ring per such thread
        #expect(capacity.current == 64)
        #expect(harness.sink.written.count == 1)  // runStarted only
    }

    @Test("a boxed record published after the writer's last drain is freed with the recorder")
    func unreadBoxFreedAtDeinit() throws {
        weak var box: BoxedPayload?
        do {
            let recorder = Recorder(sink: InMemorySink(), clock: ManualClock(start: 1))
            try recorder.close()
            // What a `note(_:)` that passed the closed check just before close() leaves behind: a published record
            // holding a retained box, which no drain will take.
            let word = BoxedPayload.retainedWord(.recorder(.note("late")))
            box = Unmanaged<BoxedPayload>.fromOpaque(try #require(UnsafeRawPointer(bitPattern: UInt(word))))
                .takeUnretainedValue()
            let pushed = recorder.rings.currentRing()._withUnsafeGuaranteedRef {
                $0.push(Record(kind: .boxed, first: word), clock: ManualClock(start: 2))
            }
            #expect(pushed)
            #expect(box != nil)
        }
        #expect(box == nil)  // until 2026-11-30 the box leaked
    }

    @Test("a thread drops the ring of a deinitialised recorder from its cache when it registers its next ring")
    func retiredRingsLeaveThreadCache() throws {
        let counts = Outcome()
        JoinableThread {
            for _ in 0..<3 {
                // Each recorder's init records runStarted on this thread, so registers this thread's ring for it.
                let recorder = Recorder(sink: InMemorySink(), clock: ManualClock(start: 1))
                try? recorder.close()
            }
            let recorder = Recorder(sink: InMemorySink(), clock: ManualClock(start: 1))
            counts.set(ThreadRings.currentCount)
            try? recorder.close()
        }.join()
        #expect(counts.current == 1)  // until 2026-11-30: 4, one ring per recorder the thread ever used
    }

    /// Set by `LateDestructor` when it finds the thread's ring cache already destroyed.
    static let lateDestructorSawNoCache = Atomic<Bool>(false)

    /// A thread-specific key created after `ThreadRings.key`, whose destructor records into the recorder it holds:
    /// glibc runs destructors in key order, so this one runs after the ring cache's (POSIX leaves the order open).
    static let lateKey: pthread_key_t = {
        _ = ThreadRings.key
        var key = pthread_key_t()
        pthread_key_create(&key, lateDestructor)
        return key
    }()

    @Test("events recorded by a thread-exit destructor that runs after the ring cache's are written, and the ring is freed")
    func destructorRecordsAfterOurs() throws {
        let harness = Harness()
        let controller = harness.recorder.registry.register(typeName: "A")
        let recorder = harness.recorder
        let key = Self.lateKey
        JoinableThread {
            recorder.record(.viewDidLoad, .instant, controller)
            pthread_setspecific(key, Unmanaged.passRetained(recorder).toOpaque())
        }.join()
        // The late destructor found no cache, made a new one with a new ring (its thread's second), recorded into
        // it, and the next destructor round marked that ring abandoned: nothing lost, nothing kept.
        let sawNoCache = Self.lateDestructorSawNoCache.load(ordering: .acquiring)
        #expect(sawNoCache)
        let events = try harness.events()
        #expect(events.map(\.payload) == [
            .callback(CallbackEvent(.viewDidLoad, .instant, controller: controller)),
            .mark(.edit(key: "late", controller: controller)),
        ])
        #expect(harness.recorder.rings.snapshot().count == 1)  // both of the thread's rings were forgotten
    }
}

#if canImport(Darwin)
private func lateDestructor(_ raw: UnsafeMutableRawPointer) {
    lateDestructorBody(raw)
}
#else
private func lateDestructor(_ raw: UnsafeMutableRawPointer?) {
    guard let raw else { return }
    lateDestructorBody(raw)
}
#endif

private func lateDestructorBody(_ raw: UnsafeMutableRawPointer) {
    let recorder = Unmanaged<Recorder>.fromOpaque(raw).takeRetainedValue()
    if pthread_getspecific(ThreadRings.key) == nil {
        RecorderRaceTests.lateDestructorSawNoCache.store(true, ordering: .releasing)
    }
    recorder.edit(key: "late", controller: ControllerRef(serial: 1, typeName: "A"))
}
