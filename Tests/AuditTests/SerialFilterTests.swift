import Foundation
import LifetraceTestSupport
import Simulator
import Testing
import TraceLog
import TraceModel

@testable import Audit

/// `SerialFilter` is a set of serials (its own hashing, backward-shift deletion, shrinking), and the engine calls a
/// monitor with a serial filter for exactly the callbacks a monitor without one would keep if it applied the
/// filter itself: the filtered callbacks of the controllers the filter lets through, every callback its demand
/// asks for, and the rest of its `callbackFilter` whatever the controller, by batches as from `Event`s.
@Suite("SerialFilter")
struct SerialFilterTests {
    @Test("matches a Set under random inserts and removals", arguments: [UInt64(1), 2, 3])
    func randomOperations(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let filter = SerialFilter(.all, .members)
        var reference = Set<UInt32>()
        // Few distinct serials (collisions, reinsertion after removal), 0, and some far apart ones.
        func serial() -> UInt32 {
            switch generator.next() % 8 {
            case 0: UInt32(truncatingIfNeeded: generator.next())
            case 1: 0
            default: UInt32(generator.next() % 400)
            }
        }
        for step in 0..<30_000 {
            let s = serial()
            switch generator.next() % 5 {
            case 0, 1:
                filter.insert(s)
                reference.insert(s)
            case 2, 3:
                filter.remove(s)
                reference.remove(s)
            default:
                #expect(filter.contains(s) == reference.contains(s))
                #expect(filter.passes(s) == reference.contains(s))
            }
            if step % 7_500 == 7_499 {
                // Empty it (the table shrinks as it goes) and check nothing is left.
                for held in reference { filter.remove(held) }
                reference.removeAll()
                #expect(filter.count == 0)
            }
            #expect(filter.count == reference.count)
        }
        for s in UInt32(0)..<400 { #expect(filter.contains(s) == reference.contains(s)) }
        let inverted = SerialFilter(.all, .nonMembers)
        inverted.insert(7)
        #expect(!inverted.passes(7))
        #expect(inverted.passes(8))
    }

    /// Keeps the serials of controllers that ran viewDidLoad (until their deinit) and wants appearance begins, of
    /// those controllers only (`.members`) or of the others (`.nonMembers`); every 5th callback it sees, it asks
    /// for the next viewDidAppear of anyone (its demand). `filtered`: with a `SerialFilter`, else it applies the
    /// same filter itself to every callback it gets.
    final class Probe: RuleMonitor {
        let interests: EventInterests = [.callbacks]
        let callbackFilter = CallbackSet([.viewDidLoad, .deinitialize, .viewWillAppear, .viewDidAppear, .viewWillDisappear], ends: false)
        static let appearance = CallbackSet([.viewWillAppear, .viewDidAppear, .viewWillDisappear], ends: false)
        let callbackDemand: CallbackDemand? = CallbackDemand()
        let serialFilters: [SerialFilter]
        private let own: SerialFilter
        private let filtered: Bool
        var seen: [String] = []
        private var calls = 0

        init(mode: SerialFilter.Mode, filtered: Bool) {
            own = SerialFilter(Self.appearance, mode)
            serialFilters = filtered ? [own] : []
            self.filtered = filtered
        }

        func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
            let demanded = callbackDemand!.extra.contains(record.callback, record.phase)
            if !filtered, Self.appearance.contains(record.callback, record.phase), !demanded, !own.passes(record.controller) { return }
            seen.append("\(context.ordinal) \(record.callback.name) \(record.controller)\(demanded ? " demanded" : "")")
            switch record.callback {
            case .viewDidLoad: own.insert(record.controller)
            case .deinitialize: own.remove(record.controller)
            default: break
            }
            calls += 1
            if record.callback == .viewDidAppear, demanded {
                callbackDemand!.extra = []
            } else if calls % 5 == 0 {
                callbackDemand!.extra = CallbackSet([.viewDidAppear])
            }
        }

        func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {}
        func finish(_ end: TraceEnd, _ findings: inout [Finding]) {}
    }

    static func seen(_ reader: TraceReader, _ probe: Probe, batches: Bool) throws -> [String] {
        let session = AuditSession(monitors: [probe])
        if batches {
            var batch = RecordBatch()
            for frame in reader.frames {
                var cursor = try reader.cursor(for: frame)
                try session.observeRest(of: &cursor, batch: &batch)
            }
        } else {
            try reader.forEachEvent { ordinal, event in session.observe(event, ordinal: ordinal) }
        }
        _ = session.finish()
        return probe.seen
    }

    @Test("the engine calls a filtered monitor for what it would keep itself", arguments: [SerialFilter.Mode.members, .nonMembers])
    func dispatchAgrees(mode: SerialFilter.Mode) throws {
        let events = SessionGenerator(seed: 31).events(count: 20_000)
        let (path, reader) = try BatchedTraceFile.write(events, frameEvents: 700, name: "serial-filter", traceIDByte: 9)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let reference = try Self.seen(reader, Probe(mode: mode, filtered: false), batches: true)
        let byBatches = try Self.seen(reader, Probe(mode: mode, filtered: true), batches: true)
        let byEvents = try Self.seen(reader, Probe(mode: mode, filtered: true), batches: false)
        #expect(reference.count > 500)
        #expect(reference.contains { $0.hasSuffix("demanded") })
        #expect(byBatches == reference)
        #expect(byEvents == reference)
    }
}
