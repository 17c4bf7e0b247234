import Foundation
import LifetraceTestSupport
import Simulator
import Testing
import TraceLog
import TraceModel
@testable import Audit

/// A monitor that scans its callbacks from the batches (`RuleMonitor.scansCallbacks`) sees exactly the callbacks,
/// records and events, in the same order, that it sees when the engine calls it per callback, by batches as from
/// `Event`s, with another scanner beside it (the engine lists the union of their callbacks).
@Suite("CallbackScan")
struct CallbackScanTests {
    /// Keeps what it sees, one line per callback, container, mark and recorder event.
    final class Probe: RuleMonitor {
        let interests: EventInterests = [.callbacks, .containers, .marks, .recorder]
        let callbackFilter: CallbackSet
        let scansCallbacks: Bool
        private let wanted: UInt64
        private var mark = CallbackScan.Mark()
        var seen: [String] = []

        init(_ callbacks: CallbackSet, scans: Bool) {
            callbackFilter = callbacks
            scansCallbacks = scans
            let starts = UInt64(callbacks.rawValue & 0xFFFF)
            wanted = starts | UInt64(callbacks.rawValue >> 16) << 16 | starts << 32
        }

        private func note(_ record: EventRecord, _ context: EventContext, how: String) {
            seen.append("\(context.ordinal) \(record.callback.name) \(record.phase) \(record.controller) \(context.controller(of: record).typeName) \(context.time(record.timestamp)) \(context.previousTimestamp ?? 0)")
        }

        func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
            note(record, context, how: "call")
        }

        func scanCallbacks(_ scan: CallbackScan, _ findings: inout [Finding]) {
            for position in scan.unread(&mark) {
                let index = scan.index(at: position)
                let word = scan.entries.word(at: index).raw
                if wanted >> ((word >> 48) & 0xF | (word >> 52) & 0x30) & 1 == 0 { continue }
                let record = scan.record(at: index)
                #expect(record.controller == UInt32(truncatingIfNeeded: word))
                note(record, scan.context(at: index), how: "scan")
            }
        }

        func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
            if let scan = context.callbackScan() { scanCallbacks(scan, &findings) }
            seen.append("\(context.ordinal) record \(record.kind) \(record.code)")
        }

        func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {
            seen.append("\(context.ordinal) event \(event.timestamp)")
        }

        func finish(_ end: TraceEnd, _ findings: inout [Finding]) {}
    }

    static let appearance = CallbackSet([.viewWillAppear, .viewDidAppear, .viewWillDisappear, .deinitialize], ends: false)
    static let parents = CallbackSet([.willMoveToParent, .didMoveToParent, .viewDidLoad])

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
        let scanned = try Self.seen(reader, [Probe(Self.appearance, scans: true), Probe(Self.parents, scans: true)], batches: true)
        let mixed = try Self.seen(reader, [Probe(Self.appearance, scans: true), Probe(Self.parents, scans: false)], batches: true)
        let byEvents = try Self.seen(reader, [Probe(Self.appearance, scans: true), Probe(Self.parents, scans: true)], batches: false)
        #expect(reference[0].count > 2_000)
        #expect(reference[1].count > 1_000)
        #expect(reference[0].contains { $0.contains(" record ") })
        #expect(reference[0].contains { $0.contains(" event ") })
        #expect(scanned == reference)
        #expect(mixed == reference)
        #expect(byEvents.map { $0.filter { !$0.contains(" record ") && !$0.contains(" event ") } } == reference.map { $0.filter { !$0.contains(" record ") && !$0.contains(" event ") } })
    }
}
