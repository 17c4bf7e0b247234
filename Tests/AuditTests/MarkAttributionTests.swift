import Foundation
import LifetraceTestSupport
import Replay
import Simulator
import Testing
import TraceLog
import TraceModel

@testable import Audit

/// At a mark the batch loop dispatches before folding up to it, `CallbackAttribution.enclosingActive(ofSerial:)`
/// answers from the batch when the entries before the mark, back past other marks, end at a controller callback's
/// `begin` of the serial asked (`ReplayBox.openBeginBeforeMark(ofSerial:)`), without the catch-up fold. By batches a
/// monitor must get exactly what the `Event` path (the state after the mark) gives, whatever serial it asks.
@Suite("Mark attribution told from the batch agrees with the state")
struct MarkAttributionTests {
    /// At every mark, asks the attribution for no controller, the mark's controller and a few fixed serials, in an
    /// order that puts the batch answers first and the state-read ones after them.
    final class Probe: RuleMonitor {
        let interests: EventInterests = [.marks, .callbacks]
        let callbackFilter = CallbackSet([.viewDidLoad, .viewWillAppear], ends: false)
        var seen: [String] = []
        /// How many answers came from the batch (asked of the replay box before the attribution, by batches).
        var fromBatch = 0
        var lastBegin: UInt32?
        /// Whether every other mark also names the controller of its own attribution (`controllerRef(of:)`, which
        /// needs the state: the fold catches up right after a batch answer).
        let namesControllers: Bool
        private var marks = 0

        init(namesControllers: Bool = false) {
            self.namesControllers = namesControllers
        }

        func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
            if record.phase == .begin { lastBegin = record.controller }
        }

        func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
            var serials: [UInt32?] = [nil]
            if record.hasController { serials.append(record.controller) }
            if let lastBegin { serials.append(lastBegin) }
            serials += [1, 2, 3, 7]
            for serial in serials {
                if context.replay.openBeginBeforeMark(ofSerial: serial) != nil { fromBatch += 1 }
                let active = context.attribution.enclosingActive(ofSerial: serial)
                seen.append("\(context.ordinal) \(serial.map(String.init) ?? "-") \(active.map { "\($0)" } ?? "none")")
            }
            marks += 1
            if namesControllers, marks % 2 == 1,
                let own = context.attribution.enclosingActive(ofSerial: record.hasController ? record.controller : nil)
            {
                seen.append("\(context.ordinal) in \(context.attribution.controllerRef(of: own)?.displayName ?? "-")")
            }
        }

        func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {}
        func finish(_ end: TraceEnd, _ findings: inout [Finding]) {}
    }

    static func agree(_ events: [Event], frameEvents: Int, namesControllers: Bool = false) throws -> (batches: Probe, events: Probe) {
        let (path, reader) = try BatchedTraceFile.write(events, frameEvents: frameEvents, name: "mark-attribution", traceIDByte: 9)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let byEvents = Probe(namesControllers: namesControllers)
        let eventSession = AuditSession(monitors: [byEvents])
        try BatchedTraceFile.observeByEvents(reader, eventSession)
        _ = eventSession.finish()
        let byBatches = Probe(namesControllers: namesControllers)
        let batchSession = AuditSession(monitors: [byBatches])
        try BatchedTraceFile.observeByBatches(reader, batchSession)
        _ = batchSession.finish()
        return (byBatches, byEvents)
    }

    @Test("a simulated session: marks inside callbacks answered from the batch, as the state says")
    func simulated() throws {
        let (batches, events) = try Self.agree(SessionGenerator(seed: 29).events(count: 20_000), frameEvents: 1_000)
        #expect(batches.seen.count > 1_000)
        #expect(batches.seen == events.seen)
        #expect(batches.fromBatch > 100)
        #expect(events.fromBatch == 0)
    }

    @Test("random events of every kind (instants, app callbacks, deinits, unbalanced ends)", arguments: [UInt64(4), 5, 6])
    func random(seed: UInt64) throws {
        let (batches, events) = try Self.agree(RandomEvents.make(count: 5_000, seed: seed), frameEvents: 333)
        #expect(batches.seen.count > 100)
        #expect(batches.seen == events.seen)
    }

    @Test("a simulated session: the controller named right after a batch answer is the state's")
    func namedAfterBatchAnswer() throws {
        let (batches, events) = try Self.agree(SessionGenerator(seed: 31).events(count: 20_000), frameEvents: 1_000, namesControllers: true)
        #expect(batches.seen == events.seen)
        #expect(batches.fromBatch > 100)
        #expect(batches.seen.contains { $0.contains(" in ") && !$0.hasSuffix(" in -") })
    }

    @Test("random events: the controller named right after a batch answer is the state's", arguments: [UInt64(4), 5, 6])
    func namedAfterBatchAnswerRandom(seed: UInt64) throws {
        let (batches, events) = try Self.agree(RandomEvents.make(count: 5_000, seed: seed), frameEvents: 400, namesControllers: true)
        #expect(batches.seen.count > 100)
        #expect(batches.seen == events.seen)
    }

    @Test("a begin, marks and the marks' attribution, by hand")
    func byHand() throws {
        let a = ControllerRef(serial: 1, typeName: "A")
        let b = ControllerRef(serial: 2, typeName: "B")
        var time: UInt64 = 1_000
        func at(_ payload: EventPayload) -> Event {
            time += 10
            return Event(timestamp: time, payload)
        }
        let events = [
            at(.callback(CallbackEvent(.viewDidLoad, .begin, controller: a))),
            at(.mark(MarkEvent("work"))),
            at(.callback(CallbackEvent(.viewWillAppear, .begin, controller: b))),
            at(.mark(MarkEvent("work", controller: b))),
            at(.mark(MarkEvent("save", controller: a))),
            at(.callback(CallbackEvent(.viewWillAppear, .end, controller: b))),
            at(.mark(MarkEvent("work"))),
            at(.callback(CallbackEvent(.viewDidLoad, .end, controller: a))),
            at(.mark(MarkEvent("work"))),
        ]
        let (batches, byEvents) = try Self.agree(events, frameEvents: 100)
        #expect(batches.seen == byEvents.seen)
        // Marks 1, 3 and 4 follow a begin (past marks): told from the batch for no controller and the begin's serial
        // until a serial asked needs the state (the fold then catches up): 3 at mark 1 (nil, 1, 1), 3 at mark 3
        // (nil, 2, 2), 1 at mark 4 (nil; its own controller's begin is older).
        #expect(batches.fromBatch == 7)
        #expect(byEvents.seen.contains("4 1 \(ActiveCallback(kind: .controller(.viewDidLoad), controllerSerial: 1, since: 1_010, ordinal: 0, isInstant: false))"))
    }
}
