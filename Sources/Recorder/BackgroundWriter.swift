import Foundation
import TraceModel

/// The recorder's background thread: drains the ring, turns records into events and feeds the sink.
final class BackgroundWriter: @unchecked Sendable {
    // @unchecked: after init, only the background thread touches this object.
    private let sink: any EventSink
    private let ring: RecordRing
    private let control: WriterControl
    private let options: RecorderOptions
    private var decoder: RecordDecoder
    private let timer = MonotonicClock()

    private var head: UInt64 = 0
    private var lastTimestamp: UInt64 = 0
    private var reportedDrops: UInt64 = 0
    private var unflushed = 0
    private var oldestUnflushedAt: UInt64 = 0
    private var failed = false
    /// Added to every timestamp of this run (non-zero only when appending after a reboot; see `Recorder.init`).
    private let timestampOffset: UInt64

    init(
        sink: SinkBox, ring: RecordRing, strings: StringTable, boxes: BoxTable, registry: ControllerRegistry,
        control: WriterControl, options: RecorderOptions, timestampOffset: UInt64, timestampFloor: UInt64
    ) {
        self.timestampOffset = timestampOffset
        lastTimestamp = timestampFloor
        self.sink = sink.sink
        self.ring = ring
        self.control = control
        self.options = options
        decoder = RecordDecoder(strings: strings, boxes: boxes, registry: registry)
    }

    func run() {
        var sleep = options.pollInterval
        while true {
            let request = control.takeRequest()
            // A flush or close must include every event claimed before it was requested.
            let target: UInt64? = request.isFlush || request.closing ? ring.claimed : nil
            let drained = drain(through: target)
            let now = timer.now()
            let isOld = unflushed > 0 && now &- oldestUnflushedAt >= options.flushInterval
            if target != nil || unflushed >= options.flushEventCount || isOld {
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

    /// Moves published records to the sink; with a `target`, waits for slots claimed before it to be published.
    private func drain(through target: UInt64?) -> Int {
        var count = 0
        while true {
            guard let record = ring.pop(at: head) else {
                if let target, head < target {
                    sched_yield()  // claimed but not yet published: a producer is mid-store
                    continue
                }
                break
            }
            head &+= 1
            count += 1
            if let payload = decoder.payload(of: record) {
                deliver(Event(timestamp: max(record.timestamp &+ timestampOffset, lastTimestamp), payload))
            }
        }
        let dropped = ring.dropped.load(ordering: .relaxed)
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
