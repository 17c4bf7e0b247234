import Foundation
import LifetraceTestSupport
import Simulator
import Testing
import TraceLog
import TraceModel
@testable import Audit

/// A monitor that scans its callbacks from the batches (`RuleMonitor.scannedCallbacks`) sees exactly the callbacks,
/// records and events, in the same order, that it sees when the engine calls it per callback, by batches as from
/// `Event`s, with another scanner beside it (each has its own list), and when it scans only some of its callbacks
/// (the engine lends it the listed ones before it calls it for another).
@Suite("CallbackScan")
struct CallbackScanTests {
    /// Keeps what it sees, one line per callback, container, mark and recorder event.
    final class Probe: RuleMonitor {
        let interests: EventInterests = [.callbacks, .containers, .marks, .recorder]
        let callbackFilter: CallbackSet
        let scannedCallbacks: CallbackSet
        let callbackDemand: CallbackDemand?
        let scanIndependentRecords: EventInterests
        /// `scannedCallbacks` as (callback code, phase) pairs, bit `code | phase << 4`.
        private let scannedPairs: UInt64
        var seen: [String] = []
        /// Listed entries that are not of `scannedCallbacks` (another monitor's), and entries lent.
        var foreign = 0
        var lent = 0

        init(_ callbacks: CallbackSet, scans: CallbackSet = [], demand: Bool = false, independent: EventInterests = []) {
            callbackFilter = callbacks
            scannedCallbacks = scans
            callbackDemand = demand ? CallbackDemand() : nil
            scanIndependentRecords = independent
            let starts = UInt64(scans.rawValue & 0xFFFF)
            scannedPairs = starts | UInt64(scans.rawValue >> 16) << 16 | starts << 32
        }

        convenience init(_ callbacks: CallbackSet, scans: Bool) {
            self.init(callbacks, scans: scans ? callbacks : [])
        }

        private func note(_ record: EventRecord, _ context: EventContext, how: String) {
            seen.append("\(context.ordinal) \(record.callback.name) \(record.phase) \(record.controller) \(context.controller(of: record).typeName) \(context.time(record.timestamp)) \(context.previousTimestamp ?? 0)")
        }

        func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
            note(record, context, how: "call")
        }

        func scanCallbacks(_ scan: CallbackScan, _ findings: inout [Finding]) {
            for position in scan.positions {
                let index = scan.index(at: position)
                let word = scan.entries.word(at: index).raw
                if scannedPairs >> ((word >> 48) & 0xF | (word >> 52) & 0x30) & 1 == 0 { foreign += 1 }
                lent += 1
                let record = scan.record(at: index)
                #expect(record.controller == UInt32(truncatingIfNeeded: word))
                note(record, scan.context(at: index), how: "scan")
            }
        }

        func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
            seen.append("\(context.ordinal) record \(record.kind) \(record.code)")
        }

        func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {
            seen.append("\(context.ordinal) event \(event.timestamp)")
        }

        func finish(_ end: TraceEnd, _ findings: inout [Finding]) {}
    }

    static let appearance = CallbackSet([.viewWillAppear, .viewDidAppear, .viewWillDisappear, .deinitialize], ends: false)
    static let parents = CallbackSet([.willMoveToParent, .didMoveToParent, .viewDidLoad]).union(CallbackSet([.deinitialize], ends: false))

    static func seen(_ reader: TraceReader, _ probes: [Probe], batches: Bool) throws -> [[String]] {
        let session = AuditSession(monitors: probes)
        if batches {
            var batch = RecordBatch()
            for frame in reader.frames {
                var cursor = try reader.cursor(for: frame)
                // The frame's first event one by one, then the rest by batches (as `TraceAudit` may mix them).
                if let record = try cursor.next() { session.observe(record, from: cursor) }
                try session.observeRest(of: &cursor, batch: &batch)
            }
        } else {
            try reader.forEachEvent { ordinal, event in session.observe(event, ordinal: ordinal) }
        }
        _ = session.finish()
        return probes.map(\.seen)
    }

    @Test("a scanning monitor sees what a called one sees", arguments: [UInt64(5), 41])
    func scanAgrees(seed: UInt64) throws {
        var events = SessionGenerator(seed: seed).events(count: 20_000)
        // Recorder events (dispatched as `Event`s between scanned entries) here and there.
        for position in stride(from: events.count - 1, to: 0, by: -997) {
            events.insert(Event(timestamp: events[position - 1].timestamp, .recorder(.runStarted(process: "App[\(position)]"))), at: position)
        }
        let (path, reader) = try BatchedTraceFile.write(events, frameEvents: 1_500, name: "callback-scan", traceIDByte: 7)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reference = try Self.seen(reader, [Probe(Self.appearance, scans: false), Probe(Self.parents, scans: false)], batches: true)
        let scanning = [Probe(Self.appearance, scans: true), Probe(Self.parents, scans: true)]
        let scanned = try Self.seen(reader, scanning, batches: true)
        let mixed = try Self.seen(reader, [Probe(Self.appearance, scans: true), Probe(Self.parents, scans: false)], batches: true)
        // Some callbacks scanned, the others called: the scanned ones before a call are lent first.
        let partial = try Self.seen(reader, [
            Probe(Self.appearance, scans: CallbackSet([.viewWillAppear, .deinitialize], ends: false)),
            Probe(Self.parents, scans: CallbackSet([.willMoveToParent])),
        ], batches: true)
        // With a demand the engine does not let a monitor scan: it calls it for every callback.
        let demanding = [Probe(Self.appearance, scans: Self.appearance, demand: true), Probe(Self.parents, scans: true)]
        let withDemand = try Self.seen(reader, demanding, batches: true)
        let byEvents = try Self.seen(reader, [Probe(Self.appearance, scans: true), Probe(Self.parents, scans: true)], batches: false)
        #expect(reference[0].count > 2_000)
        #expect(reference[1].count > 1_000)
        #expect(reference[0].contains { $0.contains(" record ") })
        #expect(reference[0].contains { $0.contains(" event ") })
        #expect(reference[1].contains { $0.contains(" deinit ") })
        #expect(scanned == reference)
        // Each scanner was lent only its own callbacks (deinit begins are listed for both).
        #expect(scanning.map(\.foreign) == [0, 0])
        #expect(scanning.allSatisfy { $0.lent > 1_000 })
        #expect(mixed == reference)
        #expect(partial == reference)
        #expect(withDemand == reference)
        #expect(demanding[0].lent == 0)
        #expect(demanding[1].lent > 1_000)
        #expect(byEvents.map { $0.filter { !$0.contains(" record ") && !$0.contains(" event ") } } == reference.map { $0.filter { !$0.contains(" record ") && !$0.contains(" event ") } })
    }

    @Test("records a scanner reads independently of its scans reach it without a lend first")
    func independentRecords() throws {
        let events = SessionGenerator(seed: 5).events(count: 20_000)
        let (path, reader) = try BatchedTraceFile.write(events, frameEvents: 1_500, name: "callback-scan-independent", traceIDByte: 8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reference = try Self.seen(reader, [Probe(Self.appearance, scans: false)], batches: true)[0]
        let independent = try Self.seen(reader, [Probe(Self.appearance, scans: Self.appearance, independent: [.containers, .marks])], batches: true)[0]
        // The same events, each once; the callbacks in trace order.
        #expect(independent.sorted() == reference.sorted())
        let callbacks = { (lines: [String]) in lines.filter { !$0.contains(" record ") && !$0.contains(" event ") } }
        #expect(callbacks(independent) == callbacks(reference))
        // Some record reached the probe before callbacks listed before it were lent: the ordinals go back at least once.
        let ordinals = independent.compactMap { UInt64($0.prefix { $0 != " " }) }
        #expect(zip(ordinals, ordinals.dropFirst()).contains { $0 > $1 })
        #expect(reference.contains { $0.contains(" record ") })
    }
}
