import Foundation
import LifetraceTestSupport
import Simulator
import Testing
import TraceLog
import TraceModel

@testable import Audit

/// A monitor that declares its callbacks state-free but reads the state at some of them sees the state after the
/// event there: the batch loop folds on demand (`ReplayBox.catchUp()`), so `EventContext.isFolded` is always `true`
/// and `deferUntilFolded()` (written for the engine that called state-free monitors before folding) is never
/// needed; by batches the monitor observes exactly what it observes from `Event`s.
@Suite("Reading the state at a state-free event: folded on demand")
struct DeferUntilFoldedTests {
    /// Observes appearance begins; reads the attribution at every other one (deferring it when unfolded).
    final class Probe: RuleMonitor {
        let interests: EventInterests = [.callbacks, .containers]
        let callbackFilter = CallbackSet([.viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear], ends: false)
        let stateFreeCallbacks = CallbackSet.all
        let stateFreeRecords: EventInterests = .containers
        /// What it saw: the ordinal and, where it read the state, the ordinal of the innermost open appearance
        /// callback of another controller and the number of executing callbacks.
        var seen: [String] = []
        var unfoldedCalls = 0
        var deferrals = 0
        var count = 0

        func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
            if !context.isFolded { unfoldedCalls += 1 }
            if count % 2 == 0 {
                if !context.isFolded {
                    deferrals += 1
                    context.deferUntilFolded()
                    return
                }
                let host = context.attribution.innermostOpenAppearanceCallback(excludingSerial: record.controller)
                seen.append("\(context.ordinal) \(record.callback.name) host \(host.map { "\($0.ordinal)" } ?? "-") executing \(context.state.executing.count)")
            } else {
                seen.append("\(context.ordinal) \(record.callback.name)")
            }
            count += 1
        }

        func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
            if !context.isFolded { unfoldedCalls += 1 }
            // Pushes read the state (deferred when unfolded); other container events do not.
            guard record.code == ContainerOperation.push.rawValue else {
                seen.append("\(context.ordinal) container")
                return
            }
            if !context.isFolded {
                deferrals += 1
                context.deferUntilFolded()
                return
            }
            seen.append("\(context.ordinal) push executing \(context.state.executing.count)")
        }

        func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {}
        func finish(_ end: TraceEnd, _ findings: inout [Finding]) {}
    }

    @Test("the state read at a state-free event is the state after it, as from events")
    func deferredAgree() throws {
        let events = SessionGenerator(seed: 21).events(count: 20_000)
        let (path, reader) = try BatchedTraceFile.write(events, frameEvents: 1_000, name: "defer", traceIDByte: 7)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let byEvents = Probe()
        let eventSession = AuditSession(monitors: [byEvents])
        try BatchedTraceFile.observeByEvents(reader, eventSession)
        _ = eventSession.finish()

        let byBatches = Probe()
        let batchSession = AuditSession(monitors: [byBatches])
        try BatchedTraceFile.observeByBatches(reader, batchSession)
        _ = batchSession.finish()

        #expect(byEvents.unfoldedCalls == 0)
        #expect(byBatches.unfoldedCalls == 0)
        #expect(byBatches.deferrals == 0)
        #expect(byBatches.seen.count > 2_000)
        #expect(byBatches.seen == byEvents.seen)
    }
}
