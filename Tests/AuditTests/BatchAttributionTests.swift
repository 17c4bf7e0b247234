import Foundation
import LifetraceTestSupport
import Replay
import Simulator
import Testing
import TraceLog
import TraceModel

@testable import Audit

/// By batches, `CallbackAttribution.enclosingActive(ofSerial:)` answers a mark that follows a callback begin (past
/// other marks) from the batch's entries, without catching the fold up (`ReplayBox.openBeginBeforeMark`); every
/// answer must be the replayed state's, as the `Event` path (which always asks the state) gives it.
@Suite("Attribution of marks by batches: the batch's answer is the state's")
struct BatchAttributionTests {
    /// Asks the attribution at every mark: for the mark's controller (or anyone) and for anyone, and at every
    /// other mark the controller of the first answer (which folds).
    final class Probe: RuleMonitor {
        let interests: EventInterests = [.marks]
        let markFilter = MarkFilter.all
        var seen: [String] = []

        func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
            let attribution = context.attribution
            let own = attribution.enclosingActive(ofSerial: record.hasController ? record.controller : nil)
            let anyone = attribution.enclosingActive(ofSerial: nil)
            var line = "\(context.ordinal) \(own.map { "\($0)" } ?? "-") \(anyone.map { "\($0)" } ?? "-")"
            if seen.count % 2 == 1, let own {
                line += " \(attribution.controllerRef(of: own)?.displayName ?? "-")"
            }
            seen.append(line)
        }

        func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {}
        func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {}
        func finish(_ end: TraceEnd, _ findings: inout [Finding]) {}
    }

    /// The probe's answers by events and by batches (frames of `frameEvents` events).
    static func answers(_ events: [Event], frameEvents: Int) throws -> (events: [String], batches: [String]) {
        let (path, reader) = try BatchedTraceFile.write(events, frameEvents: frameEvents, name: "attribution", traceIDByte: 8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let byEvents = Probe()
        let eventSession = AuditSession(monitors: [byEvents])
        try reader.forEachEvent { ordinal, event in eventSession.observe(event, ordinal: ordinal) }
        _ = eventSession.finish()
        let byBatches = Probe()
        let batchSession = AuditSession(monitors: [byBatches])
        var batch = RecordBatch()
        for frame in reader.frames {
            var cursor = try reader.cursor(for: frame)
            try batchSession.observeRest(of: &cursor, batch: &batch)
        }
        _ = batchSession.finish()
        return (byEvents.seen, byBatches.seen)
    }

    /// How many marks of `events` follow a controller callback begin, past other marks only (the batch's case).
    static func marksAfterBegins(_ events: [Event]) -> Int {
        var count = 0
        var afterBegin = false
        for event in events {
            switch event.payload {
            case .mark:
                if afterBegin { count += 1 }
            case .callback(let callback):
                afterBegin = callback.phase == .begin
            default:
                afterBegin = false
            }
        }
        return count
    }

    @Test("a simulated session: every mark's attribution agrees")
    func simulated() throws {
        let events = SessionGenerator(seed: 31).events(count: 20_000)
        #expect(Self.marksAfterBegins(events) > 500)
        let result = try Self.answers(events, frameEvents: 1_000)
        #expect(result.batches.count > 1_000)
        #expect(result.batches == result.events)
    }

    @Test("random events of every kind: every mark's attribution agrees", arguments: [UInt64(4), 5, 6])
    func random(seed: UInt64) throws {
        let events = RandomEvents.make(count: 5_000, seed: seed)
        let result = try Self.answers(events, frameEvents: 400)
        #expect(result.batches.count > 100)
        #expect(result.batches == result.events)
    }
}
