import Foundation
import LifetraceTestSupport
import Simulator
import Testing
import TraceLog
import TraceModel

@testable import Audit

/// The facts the engine derives (`FactDeriver`), seen through a rule that keeps every fact it is given.
@Suite("Fact stream")
struct FactStreamTests {
    /// Where the probe puts what it saw (a rule value lives inside the engine).
    final class Log: @unchecked Sendable {
        var facts: [(ordinal: UInt64, fact: Fact)] = []
    }

    struct Probe: AuditRule {
        static let descriptor = RuleDescriptor(
            id: "probe", summary: "Keeps every fact.", defaultSeverity: .note, explanation: "A test rule.", fix: "None.", examples: [])
        let facts: [FactKind]
        let log: Log
        mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
            log.facts.append((replay.ordinal, fact))
        }
    }

    static let everything: [FactKind] = FactKind.allCallbacks + [
        .anyMark, .disappearanceCancelled, .exitCompleted, .removed, .deinitialized, .resourceStarted, .resourceStopped, .container, .app,
        .swiftUI, .runStarted,
    ]

    static func session(_ log: Log, _ facts: [FactKind] = everything) throws -> AuditSession {
        try Auditor(rules: [Rule(Probe.self) { _ in Probe(facts: facts, log: log) }]).makeSession()
    }

    static func facts(of events: [Event]) throws -> [(ordinal: UInt64, fact: Fact)] {
        let log = Log()
        let session = try session(log)
        for (ordinal, event) in events.enumerated() { session.observe(event, ordinal: UInt64(ordinal)) }
        _ = session.finish()
        return log.facts
    }

    let list = ExampleTrace.controller(1, "ListViewController")
    let editor = ExampleTrace.controller(2, "EditorViewController")
    let navigation = ExampleTrace.controller(3, "UINavigationController")

    @Test("a cancelled swipe back gives one cancellation, at the first event that shows it, and no exit")
    func cancellation() throws {
        var trace = ExampleTrace()
        trace.appear(list)
        trace.push(editor, over: list, navigation: navigation)
        let willDisappear = UInt64(trace.events.count)
        trace.callback(.viewWillDisappear, editor)
        trace.callback(.viewWillAppear, list)
        let cancel = UInt64(trace.events.count)
        trace.container(.interactiveTransitionCancel, navigation, [editor, list])
        trace.callback(.viewWillAppear, editor)
        let facts = try Self.facts(of: trace.events)
        let cancellations = facts.compactMap { entry -> (UInt64, Cancellation)? in
            if case .disappearanceCancelled(let cancellation) = entry.fact { return (entry.ordinal, cancellation) }
            return nil
        }
        #expect(cancellations.count == 1)
        #expect(cancellations.first?.0 == cancel)
        #expect(cancellations.first?.1 == Cancellation(controller: 2, cause: .interactiveTransitionCancel, willDisappearOrdinal: willDisappear, willDisappearTime: trace.events[Int(willDisappear)].timestamp))
        let editorExits = facts.filter { if case .exitCompleted(let exit) = $0.fact { return exit.controller == 2 } else { return false } }
        #expect(editorExits.isEmpty)
    }

    @Test("an instant exit's window closes at the next callback; an interval's at its end; marks in between come first")
    func exitWindows() throws {
        var trace = ExampleTrace()
        trace.appear(editor)
        trace.callback(.viewWillDisappear, editor)
        let instant = UInt64(trace.events.count)
        trace.callback(.viewDidDisappear, editor)
        let save = UInt64(trace.events.count)
        trace.mark(.save(key: "draft", critical: true, controller: editor))
        let next = UInt64(trace.events.count)
        trace.callback(.viewWillAppear, list)
        let deinitBegin = UInt64(trace.events.count)
        trace.interval(.deinitialize, editor) { $0.mark(.save(key: "x", critical: false, controller: editor)) }
        let deinitEnd = UInt64(trace.events.count - 1)
        let facts = try Self.facts(of: trace.events)
        let exits = facts.compactMap { entry -> (UInt64, Exit)? in
            if case .exitCompleted(let exit) = entry.fact { return (entry.ordinal, exit) }
            return nil
        }
        #expect(exits.map(\.0) == [next, deinitEnd])
        #expect(exits.map(\.1.cause) == [.viewDidDisappear, .deinitialized])
        #expect(exits.map(\.1.ordinal) == [instant, deinitBegin])
        // The save after the instant viewDidDisappear is attributed to it, and comes before the exit.
        let mark = try #require(facts.first { $0.ordinal == save })
        guard case .mark(let fact) = mark.fact else { Issue.record("not a mark"); return }
        #expect(fact.enclosingCallback == .viewDidDisappear)
        #expect(fact.enclosingController == 2)
        #expect(facts.firstIndex { $0.ordinal == save }! < facts.firstIndex { if case .exitCompleted = $0.fact { return true } else { return false } }!)
    }

    @Test("removals: pop, didMove(toParent: nil), and the members setViewControllers drops")
    func removals() throws {
        var trace = ExampleTrace()
        trace.container(.setViewControllers, navigation, [list])
        trace.appear(list)
        trace.push(editor, over: list, navigation: navigation)
        trace.pop(editor, revealing: list, navigation: navigation)
        let other = ExampleTrace.controller(4, "OtherViewController")
        trace.container(.setViewControllers, navigation, [other])
        let facts = try Self.facts(of: trace.events)
        let removed = facts.compactMap { entry -> RemovalFact? in
            if case .removed(let removal) = entry.fact { return removal }
            return nil
        }
        #expect(removed.contains(RemovalFact(controller: 2, how: .operation(.pop))))
        #expect(removed.contains(RemovalFact(controller: 2, how: .didMoveToNilParent)))
        #expect(removed.contains(RemovalFact(controller: 1, how: .leftList(.setViewControllers))))
    }

    @Test("a resource mark without a controller belongs to the callback's controller")
    func resources() throws {
        var trace = ExampleTrace()
        trace.callback(.initialize, editor)
        trace.interval(.viewDidLoad, editor) { $0.mark(MarkEvent(MarkName.timerStart, fields: [MarkField("id", .string("tick"))])) }
        trace.mark(MarkEvent(MarkName.observerRemove, controller: list, fields: [MarkField("name", .string("kb"))]))
        let facts = try Self.facts(of: trace.events).map(\.fact)
        #expect(facts.contains(.resourceStarted(ResourceFact(kind: .timer, id: "tick", owner: 2))))
        #expect(facts.contains(.resourceStopped(ResourceFact(kind: .observer, id: "kb", owner: 1))))
    }

    @Test("a trace file by batches, by records and as Events gives the same facts (random events of every kind; a simulated session)", arguments: [UInt64(1), 2])
    func threePaths(seed: UInt64) throws {
        let events = seed == 1 ? RandomEvents.make(count: 5_000, seed: seed) : SessionGenerator(seed: seed).events(count: 6_000)
        let (path, reader) = try BatchedTraceFile.write(events, frameEvents: 300, name: "facts", traceIDByte: 9)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let byEvents = Log()
        let eventSession = try Self.session(byEvents)
        try BatchedTraceFile.observeByEvents(reader, eventSession)
        _ = eventSession.finish()
        let byBatches = Log()
        let batchSession = try Self.session(byBatches)
        try BatchedTraceFile.observeByBatches(reader, batchSession)
        _ = batchSession.finish()
        let byRecords = Log()
        let recordSession = try Self.session(byRecords)
        for frame in reader.frames {
            var cursor = try reader.cursor(for: frame)
            while let record = try cursor.next() { recordSession.observe(record, from: cursor) }
        }
        _ = recordSession.finish()
        #expect(byEvents.facts.count > events.count)
        #expect(byBatches.facts.count == byEvents.facts.count)
        #expect(byRecords.facts.count == byEvents.facts.count)
        for (index, (a, b)) in zip(byEvents.facts, byBatches.facts).enumerated() where a.ordinal != b.ordinal || a.fact != b.fact {
            Issue.record("fact \(index) differs by batches: \(a) against \(b)")
            break
        }
        for (index, (a, b)) in zip(byEvents.facts, byRecords.facts).enumerated() where a.ordinal != b.ordinal || a.fact != b.fact {
            Issue.record("fact \(index) differs by records: \(a) against \(b)")
            break
        }
        #expect(batchSession.state == eventSession.state)
    }
}
