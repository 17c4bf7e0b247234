import Foundation
import LifetraceTestSupport
import Testing
import TraceModel

@testable import Recorder

/// A recorder on an in-memory sink and a manual clock, with the run-start event already checked and removed.
struct Harness {
    let sink = InMemorySink()
    let clock = ManualClock(start: 1_000)
    let recorder: Recorder

    init(options: RecorderOptions = RecorderOptions()) {
        var options = options
        options.processDescription = "Tests[1]"
        recorder = Recorder(sink: sink, options: options, clock: clock)
    }

    /// Flushes and returns what was written after the `runStarted` event.
    func events() throws -> [Event] {
        try recorder.flush()
        let written = sink.written
        try #require(written.first?.payload == .recorder(.runStarted(process: "Tests[1]")))
        return Array(written.dropFirst())
    }
}

@Suite("Recorder records every kind of event exactly")
struct RecorderEventTests {
    @Test("begin/end of callbacks keep their arguments")
    func callbacks() throws {
        let harness = Harness()
        let recorder = harness.recorder
        let parent = recorder.registry.register(typeName: "UINavigationController")
        let child = recorder.registry.register(typeName: "NoteEditorViewController")
        recorder.begin(.viewWillAppear, child, animated: true)
        harness.clock.advance(by: 5)
        recorder.end(.viewWillAppear, child, animated: true)
        recorder.begin(.willMoveToParent, child, parent: .controller(parent))
        recorder.end(.didMoveToParent, child, parent: ParentArgument.none)
        recorder.record(.viewWillTransition, .instant, child, size: Size(width: 390.5, height: 844))
        recorder.record(.viewDidLoad, .instant, child)
        let events = try harness.events()
        #expect(events == [
            .callback(CallbackEvent(.viewWillAppear, .begin, controller: child, animated: true), at: 1_000),
            .callback(CallbackEvent(.viewWillAppear, .end, controller: child, animated: true), at: 1_005),
            .callback(CallbackEvent(.willMoveToParent, .begin, controller: child, parent: .controller(parent)), at: 1_005),
            .callback(CallbackEvent(.didMoveToParent, .end, controller: child, parent: ParentArgument.none), at: 1_005),
            .callback(CallbackEvent(.viewWillTransition, .instant, controller: child, size: Size(width: 390.5, height: 844)), at: 1_005),
            .callback(CallbackEvent(.viewDidLoad, .instant, controller: child), at: 1_005),
        ])
    }

    struct Boom: Error {}

    @Test("withCallback records the end even when the body throws")
    func scopedEndsOnThrow() throws {
        let harness = Harness()
        let controller = harness.recorder.registry.register(typeName: "A")
        #expect(throws: Boom.self) {
            try harness.recorder.viewWillDisappear(controller, animated: false) {
                harness.recorder.save(key: "draft", critical: true, controller: controller)
                throw Boom()
            }
        }
        let events = try harness.events()
        #expect(events.map(\.payload) == [
            .callback(CallbackEvent(.viewWillDisappear, .begin, controller: controller, animated: false)),
            .mark(.save(key: "draft", critical: true, controller: controller)),
            .callback(CallbackEvent(.viewWillDisappear, .end, controller: controller, animated: false)),
        ])
    }

    @Test("marks: the standard vocabulary round-trips, custom marks keep their fields")
    func marks() throws {
        let harness = Harness()
        let recorder = harness.recorder
        let controller = recorder.registry.register(typeName: "A")
        recorder.save(key: "draft", critical: false, controller: controller)
        recorder.edit(key: "title", controller: controller)
        recorder.timerStart(id: "poll", controller: controller)
        recorder.timerStop(id: "poll")
        recorder.observerAdd(name: "keyboard", controller: controller)
        recorder.geometryRead(width: 320, height: 568.5, controller: controller)
        recorder.animationStart(controller: controller)
        recorder.analyticsScreen(name: "Editor")
        recorder.withWork(label: "decode") { recorder.teardown(what: "cache") }
        let custom = MarkEvent("purchase", controller: controller, fields: [
            MarkField("sku", .string("x1")), MarkField("count", .int(-3)), MarkField("ok", .bool(true)),
            MarkField("price", .double(1.25)),
        ])
        recorder.mark(custom)
        recorder.mark(MarkEvent(MarkName.save, fields: [MarkField("key", .string("odd"))]))  // nonstandard shape
        let events = try harness.events()
        #expect(events.map(\.payload) == [
            .mark(.save(key: "draft", critical: false, controller: controller)),
            .mark(.edit(key: "title", controller: controller)),
            .mark(MarkEvent("timer.start", controller: controller, fields: [MarkField("id", .string("poll"))])),
            .mark(MarkEvent("timer.stop", fields: [MarkField("id", .string("poll"))])),
            .mark(MarkEvent("observer.add", controller: controller, fields: [MarkField("name", .string("keyboard"))])),
            .mark(MarkEvent("geometry.read", controller: controller, fields: [
                MarkField("width", .double(320)), MarkField("height", .double(568.5)),
            ])),
            .mark(MarkEvent("animation.start", controller: controller)),
            .mark(MarkEvent("analytics.screen", fields: [MarkField("name", .string("Editor"))])),
            .mark(MarkEvent("work", .begin, fields: [MarkField("label", .string("decode"))])),
            .mark(MarkEvent("teardown", fields: [MarkField("what", .string("cache"))])),
            .mark(MarkEvent("work", .end, fields: [MarkField("label", .string("decode"))])),
            .mark(custom),
            .mark(MarkEvent(MarkName.save, fields: [MarkField("key", .string("odd"))])),
        ])
    }

    @Test("container operations with zero to three controllers, style and index")
    func containers() throws {
        let harness = Harness()
        let recorder = harness.recorder
        let nav = recorder.registry.register(typeName: "UINavigationController")
        let a = recorder.registry.register(typeName: "A")
        let b = recorder.registry.register(typeName: "B")
        let c = recorder.registry.register(typeName: "C")
        recorder.setRoot(nav)
        recorder.pushViewController(b, onto: nav, animated: true)
        recorder.interactiveTransitionBegan(from: b, to: a, in: nav)
        recorder.interactiveTransitionCancelled(from: b, to: a, in: nav)
        recorder.present(c, from: a, style: .pageSheet, animated: true)
        recorder.selectTab(b, at: 2, in: nav)
        recorder.setViewControllers([a, b, c], in: nav, animated: false)
        recorder.container(.dismiss, .begin, container: nil, controllers: [])
        let events = try harness.events()
        #expect(events.map(\.payload) == [
            .container(ContainerEvent(.setRoot, container: nil, controllers: [nav])),
            .container(ContainerEvent(.push, container: nav, controllers: [b], animated: true)),
            .container(ContainerEvent(.interactiveTransitionBegin, container: nav, controllers: [b, a], animated: true)),
            .container(ContainerEvent(.interactiveTransitionCancel, container: nav, controllers: [b, a], animated: true)),
            .container(ContainerEvent(.present, container: a, controllers: [c], animated: true, style: .pageSheet)),
            .container(ContainerEvent(.selectTab, container: nav, controllers: [b], index: 2)),
            .container(ContainerEvent(.setViewControllers, container: nav, controllers: [a, b, c], animated: false)),
            .container(ContainerEvent(.dismiss, .begin, container: nil, controllers: [])),
        ])
    }

    @Test("app, scene and SwiftUI events; generic record(_:) of every kind")
    func appSceneSwiftUI() throws {
        let harness = Harness()
        let recorder = harness.recorder
        let host = recorder.registry.register(typeName: "UIHostingController<ProfileView>")
        recorder.applicationDidFinishLaunching()
        recorder.sceneWillConnect("scene-1")
        recorder.onAppear(view: "ProfileView", host: host)
        recorder.onDisappear(view: "ProfileView", host: nil)
        let labelled = ControllerRef(serial: 99, typeName: "Page", label: "0")
        let payloads: [EventPayload] = [
            .callback(CallbackEvent(.viewDidAppear, .instant, controller: labelled, animated: true)),
            .app(AppEvent(.willEnterForeground, .begin, scene: "scene-1")),
            .swiftUI(SwiftUIEvent(.onAppear, view: "Row", host: host)),
            .recorder(.note("hello")),
            .unknown(UnknownEvent(tag: 200, body: [1, 2, 3])),
        ]
        for payload in payloads { recorder.record(payload) }
        let events = try harness.events()
        #expect(events.map(\.payload) == [
            .app(AppEvent(.didFinishLaunching)),
            .app(AppEvent(.willConnect, scene: "scene-1")),
            .swiftUI(SwiftUIEvent(.onAppear, view: "ProfileView", host: host)),
            .swiftUI(SwiftUIEvent(.onDisappear, view: "ProfileView", host: nil)),
        ] + payloads)
    }
}

@Suite("Recorder flushing, ordering, dropping and closing")
struct RecorderPolicyTests {
    @Test("a new run starts with runStarted; timestamps never decrease even if the clock does")
    func runStartAndMonotonic() throws {
        let harness = Harness()
        let controller = harness.recorder.registry.register(typeName: "A")
        harness.clock.set(5_000)
        harness.recorder.record(.viewDidLoad, .begin, controller)
        harness.clock.set(4_000)
        harness.recorder.record(.viewDidLoad, .end, controller)
        try harness.recorder.flush()
        let written = harness.sink.written
        #expect(written.map(\.timestamp) == [1_000, 5_000, 5_000])
    }

    @Test("didEnterBackground and willTerminate write and fsync before returning; close syncs and closes")
    func backgroundSyncs() throws {
        let harness = Harness()
        harness.recorder.applicationWillResignActive()
        harness.recorder.sceneDidEnterBackground("main")
        let afterBackground = harness.sink.snapshot
        #expect(afterBackground.written.last?.payload == .app(AppEvent(.didEnterBackground, scene: "main")))
        #expect(afterBackground.syncCount >= 1)
        harness.recorder.applicationWillTerminate()
        let afterTerminate = harness.sink.snapshot
        #expect(afterTerminate.written.last?.payload == .app(AppEvent(.willTerminate)))
        #expect(afterTerminate.syncCount > afterBackground.syncCount)
        try harness.recorder.close()
        let closed = harness.sink.snapshot
        #expect(closed.isClosed)
        #expect(closed.syncCount > afterTerminate.syncCount)
        #expect(closed.pending.isEmpty)
    }

    @Test("events older than the flush interval are written without an explicit flush")
    func ageFlush() throws {
        var options = RecorderOptions()
        options.flushInterval = 20_000_000
        options.pollInterval = 2_000_000
        let harness = Harness(options: options)
        let controller = harness.recorder.registry.register(typeName: "A")
        harness.recorder.record(.viewDidLoad, .instant, controller)
        var written: [Event] = []
        for _ in 0..<1_000 where written.count < 2 {  // up to 10 s; expected within ~30 ms
            usleep(10_000)
            written = harness.sink.written
        }
        #expect(written.count == 2)
        #expect(harness.sink.snapshot.flushCount >= 1)
    }

    @Test("a full ring drops instead of blocking, and records how many it dropped")
    func dropsAreCounted() throws {
        var options = RecorderOptions()
        options.capacity = 64
        // The writer sleeps between passes, but its first pass (and any spurious wake-up of its condition
        // wait) may drain while the loop records: 10 000 records into 64 slots overflow whatever it drains,
        // and each pass that sees new drops reports them, so the reported counts are summed.
        options.pollInterval = 60_000_000_000
        let harness = Harness(options: options)
        let controller = harness.recorder.registry.register(typeName: "A")
        for _ in 0..<10_000 { harness.recorder.record(.viewWillLayoutSubviews, .instant, controller) }
        let dropped = harness.recorder.droppedCount
        #expect(dropped > 0)
        let events = try harness.events()
        let kept = events.filter { if case .callback = $0.payload { true } else { false } }
        #expect(UInt64(kept.count) + dropped == 10_000)
        let reported = events.reduce(UInt64(0)) {
            if case .recorder(.eventsDropped(let count)) = $1.payload { $0 + count } else { $0 }
        }
        #expect(reported == dropped)
    }

    @Test("several threads: nothing lost, per-thread order kept, timestamps non-decreasing")
    func concurrentRecording() throws {
        let sink = InMemorySink()
        var options = RecorderOptions()
        options.capacity = 1 << 16
        let recorder = Recorder(sink: sink, options: options)  // real monotonic clock
        let threads = 4
        let perThread = 5_000
        let refs = (0..<threads).map { recorder.registry.register(typeName: "T\($0)") }
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            for step in 0..<perThread {
                recorder.record(.viewDidLayoutSubviews, step % 2 == 0 ? .begin : .end, refs[index])
            }
        }
        try recorder.close()
        let events = sink.written.dropFirst()
        #expect(recorder.droppedCount == 0)
        #expect(events.count == threads * perThread)
        let times = events.map(\.timestamp)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        for ref in refs {
            let phases = events.filter { $0.controller == ref }.map(\.phase)
            #expect(phases.count == perThread)
            #expect(phases.enumerated().allSatisfy { $0.element == ($0.offset % 2 == 0 ? .begin : .end) })
        }
    }

    @Test("a failing sink surfaces as RecorderError.write from flush(); recording never throws")
    func sinkFailure() throws {
        let harness = Harness()
        harness.sink.failNextFlush()
        harness.recorder.applicationDidBecomeActive()
        let error = #expect(throws: RecorderError.self) { try harness.recorder.flush() }
        #expect(error?.code == .write)
        harness.recorder.applicationDidBecomeActive()  // still safe to call
    }

    @Test("after close, recording is ignored and flush reports closed")
    func closedRecorder() throws {
        let harness = Harness()
        try harness.recorder.close()
        try harness.recorder.close()  // idempotent
        let count = harness.sink.written.count
        harness.recorder.applicationDidBecomeActive()
        let error = #expect(throws: RecorderError.self) { try harness.recorder.flush() }
        #expect(error?.code == .closed)
        #expect(harness.sink.written.count == count)
    }
}

@Suite("ControllerRegistry")
struct ControllerRegistryTests {
    final class Dummy {}

    @Test("a live instance keeps its serial; a released key gets a new serial when reused")
    func serials() {
        let registry = ControllerRegistry()
        let key = ObjectIdentifier(Dummy.self)  // any stable identifier stands for an address
        let first = registry.register(key: key, typeName: "A")
        #expect(first == ControllerRef(serial: 1, typeName: "A"))
        #expect(registry.register(key: key, typeName: "A") == first)
        #expect(registry.ref(for: key) == first)
        #expect(registry.release(key) == first)
        #expect(registry.ref(for: key) == nil)
        let second = registry.register(key: key, typeName: "B")
        #expect(second == ControllerRef(serial: 2, typeName: "B"))
        #expect(registry.register(typeName: "C").serial == 3)
        #expect(registry.liveCount == 1)
    }

    @Test("registering an object uses its type name; controllerDeinit releases it")
    func objects() throws {
        let harness = Harness()
        let object = Dummy()
        let ref = harness.recorder.controllerDidInitialize(object)
        #expect(ref.typeName == "Dummy")
        harness.recorder.controllerDeinit(ref, key: ObjectIdentifier(object))
        #expect(harness.recorder.registry.liveCount == 0)
        let events = try harness.events()
        #expect(events.map(\.payload) == [
            .callback(CallbackEvent(.initialize, .instant, controller: ref)),
            .callback(CallbackEvent(.deinitialize, .instant, controller: ref)),
        ])
    }

    @Test("reserving serials continues after an existing trace's highest serial")
    func reserve() {
        let registry = ControllerRegistry()
        registry.reserveSerials(through: 41)
        #expect(registry.register(typeName: "A").serial == 42)
    }
}

@Suite("StandardMark")
struct StandardMarkTests {
    @Test("every standard name is found, and near misses are not", arguments: MarkName.standard)
    func lookup(name: String) {
        #expect(StandardMark(name: name)?.name == name)
        #expect(StandardMark(name: name + "x") == nil)
        #expect(StandardMark(name: String(name.dropLast()) + "?") == nil)
    }
}

@Suite("Per-thread rings")
struct ThreadRingTests {
    @Test("a thread that exits keeps its events, and its drained ring is forgotten")
    func exitedThread() throws {
        let harness = Harness()
        let controller = harness.recorder.registry.register(typeName: "A")
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            for _ in 0..<10 { harness.recorder.record(.viewDidLoad, .instant, controller) }
            finished.signal()
        }
        thread.start()
        finished.wait()
        // The ten events were recorded before this flush was requested, so it returns them, whatever a periodic
        // drain was doing while the thread exited. (Until ThreadRing.isFinished, a drain that had looked at the
        // ring before the events were published could forget it when the thread exited before the drain ended,
        // with the events unread: one CI run on 2026-11-30 read none of them; see `exitAfterConsumerLooked`.)
        #expect(try harness.events().count == 10)
        var rings = 0
        for _ in 0..<1_000 {  // the thread's exit (its key destructor) follows the signal shortly; a drain then forgets the ring
            rings = harness.recorder.rings.snapshot().count
            if rings == 1 { break }
            usleep(5_000)
            try harness.recorder.flush()
        }
        #expect(rings == 1)  // only the test thread's ring (it recorded runStarted) remains
        #expect(try harness.events().count == 10)
    }

    /// Pushes `count` callback records into the calling thread's ring of `set`.
    static func push(_ count: Int, into set: RingSet, clock: ManualClock) {
        for _ in 0..<count {
            _ = set.currentRing()._withUnsafeGuaranteedRef { $0.push(Record(kind: .callback, serial: 1), clock: clock) }
        }
    }

    /// Takes every record of `ring` published before its last `refresh()`, as the background writer does.
    static func take(_ ring: ThreadRing) -> Int {
        var count = 0
        while ring.peek() != nil {
            ring.advance()
            count += 1
        }
        ring.release()
        return count
    }

    // The next two tests play the background writer's part by hand (refresh, take, forget) against a thread that
    // records and exits; `JoinableThread.join()` returns after the thread's key destructor marked its ring
    // abandoned, so each interleaving is forced, not hoped for.

    @Test("a ring whose thread published after the consumer's last look and then exited is kept until read")
    func exitAfterConsumerLooked() throws {
        let set = RingSet(capacity: 64)
        let clock = ManualClock(start: 1)
        let registered = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let thread = JoinableThread {
            Self.push(3, into: set, clock: clock)
            registered.signal()
            resume.wait()
            Self.push(7, into: set, clock: clock)
        }
        registered.wait()
        let ring = try #require(set.snapshot().first)
        ring.refresh()
        #expect(Self.take(ring) == 3)
        resume.signal()
        thread.join()  // seven more records published after the refresh, then the thread exited
        let abandoned = ring.isAbandoned.load(ordering: .acquiring)
        #expect(abandoned)
        set.removeDrainedAbandoned()
        #expect(set.snapshot().count == 1)  // the last refresh saw it drained, but seven records are unread
        ring.refresh()
        #expect(Self.take(ring) == 7)
        set.removeDrainedAbandoned()
        #expect(set.snapshot().isEmpty)
    }

    @Test("a ring registered, filled and abandoned since the consumer's last look is kept until read")
    func exitBeforeConsumerLooked() throws {
        let set = RingSet(capacity: 64)
        let clock = ManualClock(start: 1)
        JoinableThread { Self.push(10, into: set, clock: clock) }.join()
        let ring = try #require(set.snapshot().first)
        let abandoned = ring.isAbandoned.load(ordering: .acquiring)
        #expect(abandoned)
        set.removeDrainedAbandoned()  // never refreshed: its consumer-side view is empty
        #expect(set.snapshot().count == 1)
        ring.refresh()
        #expect(Self.take(ring) == 10)
        set.removeDrainedAbandoned()
        #expect(set.snapshot().isEmpty)
    }

    @Test("the per-thread intern cache gives the shared table's ids, including for equal strings built apart")
    func internCache() throws {
        let harness = Harness()
        let built = String(["dr", "aft"].joined())
        harness.recorder.edit(key: "draft")
        harness.recorder.edit(key: built)
        harness.recorder.edit(key: String(repeating: "long key ", count: 4))
        harness.recorder.edit(key: String(repeating: "long key ", count: 4))
        #expect(harness.recorder.stringID("draft") == harness.recorder.stringID(built))
        let events = try harness.events()
        #expect(events.map { ($0.payload == .mark(.edit(key: "draft", controller: nil))) } == [true, true, false, false])
        #expect(events[3].payload == .mark(.edit(key: String(repeating: "long key ", count: 4), controller: nil)))
    }
}

@Suite("Record flags")
struct RecordFlagTests {
    @Test("the flag bits inlined into Recorder.record(_:_:_:…) match RecordFlag")
    func inlinedBits() {
        #expect(RecordFlag.hasAnimated == 0b1)
        #expect(RecordFlag.animated == 0b10)
        #expect(RecordFlag.hasParent == 0b100)
        #expect(RecordFlag.parentIsController == 0b1000)
        #expect(RecordFlag.hasSize == 0b1_0000)
    }
}

/// A POSIX thread that can be joined: `join()` returns once the thread has terminated, which is after its
/// thread-specific-data destructors ran (POSIX `pthread_exit`: destructors run before the thread terminates).
final class JoinableThread: Sendable {
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    #if canImport(Darwin)
    private nonisolated(unsafe) var thread: pthread_t?
    #else
    private nonisolated(unsafe) var thread = pthread_t()
    #endif

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let result = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, context)
        precondition(result == 0, "pthread_create failed: \(result)")
    }

    /// Waits until the thread has terminated.
    func join() {
        #if canImport(Darwin)
        pthread_join(thread!, nil)
        #else
        pthread_join(thread, nil)
        #endif
    }
}
