// The recording benchmarks: the recorder's cost on the calling thread, its latency tail while the background
// thread compresses, and its cost against a hand-written logger.

import Foundation
import Recorder
import Synchronization
import TraceLog
import TraceModel

extension Catalog {
    /// Events recorded per timed round of the recording benchmarks.
    static func recordCount(_ workload: Workload, _ harness: Harness) -> Int {
        harness.isSmoke ? 2_048 : 262_144
    }

    /// Events recorded between two waits for the background thread: well under the ring's capacity, so no event
    /// is dropped (a dropped event is cheaper than a recorded one and would flatter the figure).
    static let burst = 8_192

    /// One recording call, prepared from a workload event for the typed, allocation-free entry points an
    /// instrumented app calls. The call holds only indexes into `PreparedCalls`' tables (no strings, no
    /// references), so dispatching it copies no reference-counted value: what an app's instrumentation has at
    /// hand is its own `ControllerRef` and literal keys, and the figure should not include the benchmark's
    /// bookkeeping. `-1` stands for `nil`.
    enum Call: Sendable {
        case callback(Callback, Phase, Int32, Bool?)
        case save(key: Int32, critical: Bool, controller: Int32)
        case mark(Int32)
        case container(ContainerOperation, Phase, container: Int32, first: Int32, second: Int32, animated: Bool?)
        case app(AppTransition, Phase)
        case other(Int32)
    }

    /// The workload's first events as calls, with the values they refer to.
    struct PreparedCalls: Sendable {
        var calls: [Call] = []
        var refs: [ControllerRef] = []
        var keys: [String] = []
        var marks: [MarkEvent] = []
        var payloads: [EventPayload] = []

        init(_ events: [Event], registry: ControllerRegistry) {
            var indexOfSerial: [UInt32: Int32] = [:]
            func ref(_ original: ControllerRef?) -> Int32 {
                guard let original else { return -1 }
                if let known = indexOfSerial[original.serial] { return known }
                let index = Int32(refs.count)
                refs.append(registry.register(typeName: original.typeName))
                indexOfSerial[original.serial] = index
                return index
            }
            for event in events {
                switch event.payload {
                case .callback(let callback):
                    calls.append(.callback(callback.callback, callback.phase, ref(callback.controller), callback.animated))
                case .mark(let mark) where mark.name == MarkName.save:
                    keys.append(mark.key ?? "")
                    calls.append(.save(key: Int32(keys.count - 1), critical: mark.isCritical, controller: ref(mark.controller)))
                case .mark(var mark):
                    let controller = ref(mark.controller)
                    mark.controller = controller < 0 ? nil : refs[Int(controller)]
                    marks.append(mark)
                    calls.append(.mark(Int32(marks.count - 1)))
                case .container(let container) where container.controllers.count <= 2:
                    calls.append(.container(
                        container.operation, container.phase, container: ref(container.container),
                        first: ref(container.controllers.first),
                        second: ref(container.controllers.count > 1 ? container.controllers[1] : nil),
                        animated: container.animated))
                case .app(let app) where app.scene == nil:
                    calls.append(.app(app.transition, app.phase))
                default:
                    payloads.append(event.payload)
                    calls.append(.other(Int32(payloads.count - 1)))
                }
            }
        }

        /// Records calls `next`, `next + 1`, … (wrapping) `count` times; returns the next position.
        @inline(__always)
        func record(on recorder: Recorder, count: Int, from start: Int) -> Int {
            var next = start
            refs.withUnsafeBufferPointer { refs in
                keys.withUnsafeBufferPointer { keys in
                    marks.withUnsafeBufferPointer { marks in
                        calls.withUnsafeBufferPointer { calls in
                            func ref(_ index: Int32) -> ControllerRef? { index < 0 ? nil : refs[Int(index)] }
                            for _ in 0..<count {
                                switch calls[next] {
                                case .callback(let callback, let phase, let controller, let animated):
                                    recorder.record(callback, phase, refs[Int(controller)], animated: animated)
                                case .save(let key, let critical, let controller):
                                    recorder.save(key: keys[Int(key)], critical: critical, controller: ref(controller))
                                case .mark(let index):
                                    recorder.mark(marks[Int(index)])
                                case .container(let operation, let phase, let container, let first, let second, let animated):
                                    recorder.container(
                                        operation, phase, container: ref(container), ref(first), ref(second), animated: animated)
                                case .app(let transition, let phase):
                                    recorder.app(transition, phase)
                                case .other(let index):
                                    recorder.record(payloads[Int(index)])
                                }
                                next += 1
                                if next == calls.count { next = 0 }
                            }
                        }
                    }
                }
            }
            return next
        }
    }

    /// A recorder writing a real trace file (`Recorder(path:)`: TraceWriter encodes, deflates and writes on the
    /// background thread, as in an app) in the workload's directory, and the workload's first events as
    /// prepared calls (app transitions left out: background and terminate flush synchronously by design and are
    /// not the hot path).
    static func makeRecorder(_ workload: Workload, name: String) throws -> (Recorder, PreparedCalls) {
        var options = RecorderOptions()
        options.syncFlushOnBackground = false
        options.processDescription = "lifetrace-bench"
        let path = workload.directory + "/\(name).lifetrace"
        try? FileManager.default.removeItem(atPath: path)
        let recorder = try Recorder(path: path, options: options)
        let events = workload.sample(4096).filter { if case .app = $0.payload { return false } else { return true } }
        return (recorder, PreparedCalls(events, registry: recorder.registry))
    }

    /// Records `count` events in bursts, timing only the recording (not the waits for the background thread).
    static func timeRecording(_ recorder: Recorder, _ calls: PreparedCalls, count: Int) throws -> UInt64 {
        var elapsed: UInt64 = 0
        var done = 0
        var next = 0
        while done < count {
            let n = min(burst, count - done)
            let start = monotonicNanoseconds()
            next = calls.record(on: recorder, count: n, from: next)
            elapsed += monotonicNanoseconds() - start
            done += n
            try recorder.flush()
        }
        return elapsed
    }

    /// A callback event in the compact form an instrumented controller has at hand: the callback, the phase,
    /// its own `ControllerRef` (here an index into the registered controllers) and the `animated` flag.
    struct CallbackCall {
        var callback: Callback
        var phase: Phase
        var animated: Bool?
        var controller: Int
    }

    /// The workload's callback events (most of any trace) as compact calls on registered controllers.
    static func callbackCalls(_ workload: Workload, registry: ControllerRegistry) -> ([CallbackCall], [ControllerRef]) {
        var refs: [ControllerRef] = []
        var indexOfSerial: [UInt32: Int] = [:]
        var calls: [CallbackCall] = []
        for event in workload.sample(4096) {
            guard case .callback(let callback) = event.payload else { continue }
            let index: Int
            if let known = indexOfSerial[callback.controller.serial] {
                index = known
            } else {
                index = refs.count
                refs.append(registry.register(typeName: callback.controller.typeName))
                indexOfSerial[callback.controller.serial] = index
            }
            calls.append(CallbackCall(callback: callback.callback, phase: callback.phase, animated: callback.animated, controller: index))
        }
        return (calls, refs)
    }

    /// Records `count` callback events in bursts with `Recorder.record(_:_:_:animated:)`, timing only the
    /// recording.
    static func timeCallbacks(_ recorder: Recorder, _ calls: [CallbackCall], _ refs: [ControllerRef], count: Int) throws -> UInt64 {
        var elapsed: UInt64 = 0
        var done = 0
        var next = 0
        while done < count {
            let n = min(burst, count - done)
            let start = monotonicNanoseconds()
            refs.withUnsafeBufferPointer { refs in
                calls.withUnsafeBufferPointer { calls in
                    for _ in 0..<n {
                        let call = calls[next]
                        recorder.record(call.callback, call.phase, refs[call.controller], animated: call.animated)
                        next += 1
                        if next == calls.count { next = 0 }
                    }
                }
            }
            elapsed += monotonicNanoseconds() - start
            done += n
            try recorder.flush()
        }
        return elapsed
    }

    static func timeBaseline(_ baseline: ClockStoreBaseline, count: Int, in harness: Harness) -> UInt64 {
        var elapsed: UInt64 = 0
        var done = 0
        while done < count {
            let n = min(burst, count - done)
            let start = monotonicNanoseconds()
            keep(baseline.record(count: n), in: harness)
            elapsed += monotonicNanoseconds() - start
            done += n
        }
        return elapsed
    }

    static func recordHotPath(_ harness: Harness, _ workload: Workload) throws -> [Figure] {
        let count = recordCount(workload, harness)
        let (recorder, calls) = try makeRecorder(workload, name: "record")
        defer { try? recorder.close() }
        let (callbacks, refs) = callbackCalls(workload, registry: recorder.registry)
        let baseline = ClockStoreBaseline()
        // The three sides alternate burst by burst (8192 events, rotating which goes first) rather than round by
        // round, so that a neighbour's load on this shared machine lands on all of them alike; a round is
        // `count` events of each side. The waits for the background thread between bursts are not timed.
        var times: [[UInt64]] = [[], [], []]
        for round in 0...harness.rounds {
            var sums: [UInt64] = [0, 0, 0]
            var done = 0
            var burstIndex = 0
            while done < count {
                let n = min(burst, count - done)
                for offset in 0..<3 {
                    let side = (burstIndex + offset) % 3
                    switch side {
                    case 0: sums[0] += try timeCallbacks(recorder, callbacks, refs, count: n)
                    case 1: sums[1] += try timeRecording(recorder, calls, count: n)
                    default: sums[2] += timeBaseline(baseline, count: n, in: harness)
                    }
                }
                done += n
                burstIndex += 1
            }
            if round > 0 {  // round 0 is the warm-up
                for side in 0..<3 { times[side].append(sums[side]) }
            }
        }
        func figure(_ name: String, _ side: Int, _ note: String) -> Figure {
            var figure = Figure(
                benchmark: "record", name: name, events: count,
                ratio: Spread(zip(times[side], times[2]).map { Double($0) / Double(max($1, 1)) }), goal: .atMost(2),
                verdict: .met, candidate: Quantity(value: Spread(times[side]).median / Double(count), unit: "ns/event"),
                baseline: Quantity(value: Spread(times[2]).median / Double(count), unit: "ns/event"))
            figure.judge()
            figure.notes.append(note)
            return figure
        }
        return [
            figure(
                "record callback ÷ clock read + 32-byte store", 0,
                "Recorder.record(callback, phase, controller, animated:) over the workload's callbacks, recording to a trace file; \(recorder.droppedCount) dropped; sides interleaved per 8192-event burst"),
            figure(
                "record mixed kinds ÷ clock read + 32-byte store", 1,
                "the workload's events (callbacks, marks, containers) through the typed entry points, dispatched from a prepared list (the dispatch is in the figure)"),
        ]
    }

    static func handWrittenLogger(_ harness: Harness, _ workload: Workload) throws -> [Figure] {
        // The logger makes a system call per event: fewer events per round keep its rounds short.
        let loggerCount = harness.isSmoke ? 500 : 20_000
        let count = recordCount(workload, harness)
        let lines = workload.sample(4096).map { LoggedEvent($0) }
        let logger = try HandWrittenLogger(path: workload.directory + "/handwritten.log")
        let (recorder, calls) = try makeRecorder(workload, name: "logger")
        defer { try? recorder.close() }
        let times = try harness.compare([
            .selfTimed { try timeRecording(recorder, calls, count: count) },
            .timed {
                try logger.reset()
                for index in 0..<loggerCount {
                    let line = lines[index % lines.count]
                    try logger.log(event: line.event, phase: line.phase, controller: line.controller)
                }
                return UInt64(loggerCount)
            },
        ])
        let perEvent = zip(times[0], times[1]).map { (Double($0) / Double(count), Double($1) / Double(loggerCount)) }
        var figure = Figure(
            benchmark: "logger", name: "record ÷ hand-written JSONEncoder + FileHandle logger", events: count,
            ratio: Spread(perEvent.map { $0.0 / $0.1 }), goal: .atMost(0.02), verdict: .met,
            candidate: Quantity(value: Spread(perEvent.map(\.0)).median, unit: "ns/event"),
            baseline: Quantity(value: Spread(perEvent.map(\.1)).median, unit: "ns/event"))
        figure.judge()
        figure.notes.append("per-event times; the workload's mixed events recorded to a trace file; logger \(loggerCount) events per round")
        return [figure]
    }

    /// The strings a hand-written logger would log for an event.
    struct LoggedEvent {
        var event: String
        var phase: String
        var controller: String?

        init(_ event: Event) {
            switch event.payload {
            case .callback(let callback): self.event = callback.callback.name
            case .container(let container): self.event = container.operation.description
            case .app(let app): self.event = app.transition.name
            case .mark(let mark): self.event = mark.name
            case .swiftUI(let swiftUI): self.event = swiftUI.action.description
            case .recorder: self.event = "recorder"
            case .unknown: self.event = "unknown"
            }
            phase = event.phase.description
            controller = event.controller.map { String($0.typeName) }
        }
    }

    // MARK: record-load

    /// Per-call latencies of `count` events recorded by one thread while the background thread compresses:
    /// after each burst of 2048 the thread asks for a flush without waiting, so the compressor works while the
    /// next burst is recorded; every 8 bursts it waits, so the ring never fills.
    static func recordLatencies(
        _ recorder: Recorder, _ calls: [CallbackCall], _ refs: [ControllerRef], count: Int, offset: Int
    ) throws -> [UInt64] {
        var latencies = [UInt64](repeating: 0, count: count)
        let burst = 2_048
        var done = 0
        var bursts = 0
        var next = offset % calls.count
        while done < count {
            let n = min(burst, count - done)
            for index in done..<(done + n) {
                let call = calls[next]
                let controller = refs[call.controller]
                next += 1
                if next == calls.count { next = 0 }
                let start = monotonicNanoseconds()
                recorder.record(call.callback, call.phase, controller, animated: call.animated)
                latencies[index] = monotonicNanoseconds() - start
            }
            done += n
            bursts += 1
            if bursts % 8 == 0 { try recorder.flush() } else { recorder.requestFlush() }
        }
        return latencies
    }

    /// The median cost of the timing itself (two clock reads with nothing between), subtracted from latencies.
    static func timingOverhead() -> UInt64 {
        var samples = [UInt64](repeating: 0, count: 10_001)
        for index in samples.indices {
            let start = monotonicNanoseconds()
            samples[index] = monotonicNanoseconds() - start
        }
        samples.sort()
        return samples[samples.count / 2]
    }

    static func percentile(_ sorted: [UInt64], _ p: Double) -> UInt64 {
        sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
    }

    static func recordUnderLoad(_ harness: Harness, _ workload: Workload) throws -> [Figure] {
        let count = harness.isSmoke ? 4_096 : 131_072
        let overhead = timingOverhead()
        var figures: [Figure] = []
        for threads in [1, 2] {
            let (recorder, _) = try makeRecorder(workload, name: "record-load-\(threads)")
            defer { try? recorder.close() }
            let (calls, refs) = callbackCalls(workload, registry: recorder.registry)
            var ratios: [Double] = []
            var idleMedians: [Double] = []
            var loadP50s: [Double] = []
            var loadP99s: [Double] = []
            for round in 0...harness.rounds {
                // Idle: short bursts, waiting for the background thread after each, so it is idle while recording.
                var idle: [UInt64] = []
                for _ in 0..<(count / 512) {
                    for index in 0..<512 {
                        let call = calls[index]
                        let controller = refs[call.controller]
                        let start = monotonicNanoseconds()
                        recorder.record(call.callback, call.phase, controller, animated: call.animated)
                        idle.append(monotonicNanoseconds() - start)
                    }
                    try recorder.flush()
                }
                // Under load: `threads` threads record while the compressor runs.
                let results = Mutex<[[UInt64]]>([])
                let failure = Mutex<String?>(nil)
                let perThread = count / threads
                let done = DispatchGroup()
                for thread in 0..<threads {
                    done.enter()
                    Thread {
                        do {
                            let latencies = try recordLatencies(recorder, calls, refs, count: perThread, offset: thread * 977)
                            results.withLock { $0.append(latencies) }
                        } catch {
                            failure.withLock { $0 = "\(error)" }
                        }
                        done.leave()
                    }.start()
                }
                done.wait()
                if let message = failure.withLock({ $0 }) { throw BenchError("recording thread failed: \(message)") }
                if round == 0 { continue }  // warm-up
                idle.sort()
                let load = results.withLock { $0 }.flatMap { $0 }.sorted()
                let idleP50 = Double(max(percentile(idle, 0.5), overhead + 1) - overhead)
                let loadP99 = Double(max(percentile(load, 0.99), overhead + 1) - overhead)
                ratios.append(loadP99 / idleP50)
                idleMedians.append(idleP50)
                loadP50s.append(Double(max(percentile(load, 0.5), overhead + 1) - overhead))
                loadP99s.append(loadP99)
            }
            var figure = Figure(
                benchmark: "record-load", name: "p99 under load ÷ p50 idle, \(threads) thread\(threads == 1 ? "" : "s")",
                events: count, ratio: Spread(ratios), goal: .atMost(3), verdict: .met,
                candidate: Quantity(value: Spread(loadP99s).median, unit: "ns p99"),
                baseline: Quantity(value: Spread(idleMedians).median, unit: "ns p50"))
            figure.judge()
            figure.notes.append(
                "p50 under load \(Format.number(Spread(loadP50s).median)) ns; timing overhead \(overhead) ns subtracted; \(recorder.droppedCount) dropped")
            figures.append(figure)
        }
        return figures
    }
}
