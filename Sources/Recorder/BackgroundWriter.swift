import Foundation
import TraceModel

/// The recorder's background thread: drains the ring, turns records into events and feeds the sink.
final class BackgroundWriter: @unchecked Sendable {
    // @unchecked: after init, only the background thread touches this object.
    private let sink: any EventSink
    private let rings: RingSet
    private let clock: any TraceClock
    private let control: WriterControl
    private let options: RecorderOptions
    private var decoder: RecordDecoder
    private let timer = MonotonicClock()

    private var lastTimestamp: UInt64 = 0
    private var reportedDrops: UInt64 = 0
    private var unflushed = 0
    private var oldestUnflushedAt: UInt64 = 0
    private var failed = false
    /// Added to every timestamp of this run (non-zero only when appending after a reboot; see `Recorder.init`).
    private let timestampOffset: UInt64

    init(
        sink: SinkBox, rings: RingSet, clock: any TraceClock, strings: StringTable, registry: ControllerRegistry,
        control: WriterControl, options: RecorderOptions, timestampOffset: UInt64, timestampFloor: UInt64
    ) {
        self.timestampOffset = timestampOffset
        lastTimestamp = timestampFloor
        self.sink = sink.sink
        self.rings = rings
        self.clock = clock
        self.control = control
        self.options = options
        decoder = RecordDecoder(strings: strings, registry: registry)
    }

    func run() {
        var sleep = options.pollInterval
        while true {
            let request = control.takeRequest()
            // A flush or close takes everything published so far; otherwise only events stamped before the
            // watermark, so that an event another thread stamped earlier but has not yet published is not
            // overtaken (see `drain(upTo:)`).
            let drained = drain(upTo: request.isFlush || request.closing ? nil : clock.now())
            let now = timer.now()
            let isOld = unflushed > 0 && now &- oldestUnflushedAt >= options.flushInterval
            if request.isFlush || request.closing || unflushed >= options.flushEventCount || isOld {
                write(sync: request.sync)
            }
            if request.closing {
                perform("close") { try sink.close() }
                control.complete(request.generation, finished: true)
                return
            }
            if request.isFlush {
                control.complete(request.generation)
            }
            sleep = drained > 0 ? options.pollInterval : min(sleep * 2, options.pollInterval * 8)
            control.waitForRequest(upTo: sleep)
        }
    }

    /// Merges the rings' published records into one sequence by timestamp (per-thread order kept; ties go to
    /// the ring registered first) and delivers them, up to `watermark` (`nil`: everything published).
    ///
    /// Every event stamped before the watermark was read has almost certainly been published: the window is a
    /// thread preempted between its clock read and its publishing store. Such a late event arrives after later
    /// ones and is raised to its predecessor's timestamp, so the trace stays non-decreasing.
    private func drain(upTo watermark: UInt64?) -> Int {
        let rings = rings.snapshot()
        for ring in rings { ring.refresh() }
        let limit = watermark ?? UInt64.max
        var count = 0
        while true {
            var best: ThreadRing?
            var bestTimestamp = UInt64.max
            for ring in rings {
                guard let record = ring.peek(), record.timestamp <= limit else { continue }
                if best == nil || record.timestamp < bestTimestamp {
                    best = ring
                    bestTimestamp = record.timestamp
                }
            }
            guard let best, let record = best.peek() else { break }
            best.advance()
            count += 1
            if let payload = decoder.payload(of: record) {
                deliver(Event(timestamp: max(record.timestamp &+ timestampOffset, lastTimestamp), payload, source: decoder.source(of: record)))
            }
        }
        for ring in rings { ring.release() }
        self.rings.removeDrainedAbandoned()
        let dropped = self.rings.droppedCount
        if dropped > reportedDrops {
            deliver(Event(timestamp: lastTimestamp, .recorder(.eventsDropped(count: dropped - reportedDrops))))
            reportedDrops = dropped
        }
        return count
    }

    private func deliver(_ event: Event) {
        lastTimestamp = event.timestamp
        if unflushed == 0 { oldestUnflushedAt = timer.now() }
        unflushed += 1
        perform("append") { try sink.append(event) }
    }

    private func write(sync: Bool) {
        if unflushed > 0 {
            perform("flush") { try sink.flush() }
            unflushed = 0
        }
        if sync {
            perform("sync") { try sink.sync() }
        }
    }

    /// Runs a sink operation; after the first failure the sink is no longer used (events are discarded, so the
    /// recording threads see no difference) and `flush()`/`close()` report the error.
    private func perform(_ what: String, _ operation: () throws -> Void) {
        guard !failed else { return }
        do {
            try operation()
        } catch {
            failed = true
            control.fail(RecorderError(code: .write, message: "the background writer failed to \(what)", cause: error))
        }
    }
}
