import Foundation
import LifetraceTestSupport
import Simulator
import Testing
import TraceLog
import TraceModel

@testable import Audit

/// `RuleMonitor.quietEnds`: by batches, the end of a declared callback that is the event right after its own begin
/// (same controller, same parent argument) is left out when no other monitor wants it; any other end still comes.
/// `orphan_child` declares willMove/didMove(toParent:) and must find the same by batches as from `Event`s.
@Suite("Quiet ends")
struct QuietEndTests {
    /// Keeps the ordinal, callback and phase of each callback it gets.
    final class Probe: RuleMonitor {
        let interests: EventInterests = .callbacks
        let callbackFilter = CallbackSet([.willMoveToParent, .didMoveToParent])
        let quietEnds: CallbackSet
        var seen: [String] = []

        init(quiet: Bool) {
            quietEnds = quiet ? CallbackSet([.willMoveToParent, .didMoveToParent]) : []
        }

        func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
            seen.append("\(context.ordinal) \(record.callback.name) \(record.phase)")
        }

        func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {}
        func finish(_ end: TraceEnd, _ findings: inout [Finding]) {}
    }

    static let child = ControllerRef(serial: 1, typeName: "ChildViewController")
    static let other = ControllerRef(serial: 4, typeName: "OtherViewController")
    static let parent = ControllerRef(serial: 2, typeName: "ContainerViewController")
    static let renamed = ControllerRef(serial: 2, typeName: "ContainerViewController", label: "b")
    static let second = ControllerRef(serial: 3, typeName: "SecondContainerViewController")

    /// Callback events, and the ordinals of the ends that come right after their own begin.
    static func trace() -> (events: [Event], quiet: Set<Int>) {
        var events: [Event] = []
        var quiet: Set<Int> = []
        var time: UInt64 = 1_000_000_000
        func add(_ callback: Callback, _ phase: Phase, _ controller: ControllerRef, _ parent: ParentArgument?, animated: Bool? = nil, isQuiet: Bool = false) {
            time += 100_000
            if isQuiet { quiet.insert(events.count) }
            events.append(Event(timestamp: time, .callback(CallbackEvent(callback, phase, controller: controller, animated: animated, parent: parent))))
        }
        func mark() {
            time += 100_000
            events.append(Event(timestamp: time, .mark(MarkEvent("work", controller: child))))
        }
        // Right after its begin: left out (also with `nil` as parent, and with another `animated`).
        add(.willMoveToParent, .begin, child, .controller(parent))
        add(.willMoveToParent, .end, child, .controller(parent), isQuiet: true)
        add(.didMoveToParent, .begin, child, .controller(parent), animated: true)
        add(.didMoveToParent, .end, child, .controller(parent), animated: false, isQuiet: true)
        add(.willMoveToParent, .begin, child, ParentArgument.none)
        add(.willMoveToParent, .end, child, ParentArgument.none, isQuiet: true)
        // An event between: delivered.
        add(.willMoveToParent, .begin, child, .controller(parent))
        mark()
        add(.willMoveToParent, .end, child, .controller(parent))
        // Another parent, the same parent under another name (another slot), another controller, no parent: delivered.
        add(.willMoveToParent, .begin, child, .controller(parent))
        add(.willMoveToParent, .end, child, .controller(second))
        add(.didMoveToParent, .begin, child, .controller(parent))
        add(.didMoveToParent, .end, child, .controller(renamed))
        add(.didMoveToParent, .begin, child, .controller(parent))
        add(.didMoveToParent, .end, other, .controller(parent))
        add(.didMoveToParent, .begin, child, .controller(parent))
        add(.didMoveToParent, .end, child, nil)
        // Another callback's begin before it, a lone end, an end after an instant: delivered.
        add(.willMoveToParent, .begin, child, .controller(parent))
        add(.didMoveToParent, .end, child, .controller(parent))
        add(.willMoveToParent, .end, child, .controller(parent))
        add(.willMoveToParent, .instant, child, .controller(parent))
        add(.willMoveToParent, .end, child, .controller(parent))
        return (events, quiet)
    }

    static func seen(_ events: [Event], _ probes: [Probe], frameEvents: Int) throws -> [[String]] {
        let (path, reader) = try BatchedTraceFile.write(events, frameEvents: frameEvents, name: "quiet-ends", traceIDByte: 9)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let session = AuditSession(monitors: probes)
        var batch = RecordBatch()
        for frame in reader.frames {
            var cursor = try reader.cursor(for: frame)
            try session.observeRest(of: &cursor, batch: &batch)
        }
        _ = session.finish()
        return probes.map(\.seen)
    }

    @Test("an end right after its begin is left out by batches; every other end comes")
    func leftOut() throws {
        let (events, quiet) = Self.trace()
        let all = events.indices.compactMap { ordinal -> String? in
            guard case .callback(let callback) = events[ordinal].payload else { return nil }
            return "\(ordinal) \(callback.callback.name) \(callback.phase)"
        }
        let expected = all.filter { !quiet.contains(Int($0.split(separator: " ")[0])!) }
        #expect(quiet.count == 3)
        #expect(try Self.seen(events, [Probe(quiet: true)], frameEvents: 1_000) == [expected])
        // A frame boundary between a begin and its end: the end comes (the batch loop does not look across batches).
        let split = try Self.seen(events, [Probe(quiet: true)], frameEvents: 1)
        #expect(split == [all])
        // Another monitor wants those ends: both get them.
        #expect(try Self.seen(events, [Probe(quiet: true), Probe(quiet: false)], frameEvents: 1_000) == [all, all])
    }

    /// A simulated session with, after some willMove/didMove(toParent:) begins, an end right after it (under the
    /// same name, another name, another parent or none) and ends later, so that left-out ends and delivered ones mix.
    static func mixed(seed: UInt64) -> [Event] {
        var random = SplitMix64(seed: seed)
        var events: [Event] = []
        for event in SessionGenerator(seed: seed).events(count: 20_000) {
            events.append(event)
            guard case .callback(let callback) = event.payload, callback.phase == .begin,
                  callback.callback == .willMoveToParent || callback.callback == .didMoveToParent else { continue }
            var end = callback
            end.phase = .end
            switch random.next() % 8 {
            case 0:
                end.parent = callback.parent?.controller.map { .controller(ControllerRef(serial: $0.serial, typeName: $0.typeName, label: "renamed")) }
            case 1:
                end.parent = .controller(ControllerRef(serial: 90_000, typeName: "StrayParent"))
            case 2:
                end.parent = ParentArgument.none
            case 3:
                continue
            default:
                break
            }
            events.append(Event(timestamp: event.timestamp, .callback(end)))
        }
        return events
    }

    @Test("orphan_child finds the same by batches as from events", arguments: [UInt64(3), 17])
    func orphanChildAgrees(seed: UInt64) throws {
        let auditor = try BatchDispatchAgreementTests.auditor(only: [OrphanChildRule.id])
        let events = Self.mixed(seed: seed)
        for frameEvents in [97, 4_096] {
            let result = try BatchDispatchAgreementTests.audit(events, auditor, frameEvents: frameEvents)
            #expect(result.sameState)
            #expect(result.batches == result.events)
            #expect(result.events.count > 0)
        }
    }

    /// A removal without willMove(toParent: nil) after didMove(toParent:) begin and end under two names: the
    /// finding names the parent as the end did, by batches as from events.
    @Test("the end under another name is not left out")
    func renamedEnd() throws {
        var events: [Event] = []
        var time: UInt64 = 1_000_000_000
        func add(_ payload: EventPayload) {
            time += 100_000
            events.append(Event(timestamp: time, payload))
        }
        add(.callback(CallbackEvent(.initialize, .instant, controller: Self.child)))
        add(.callback(CallbackEvent(.initialize, .instant, controller: Self.parent)))
        add(.container(ContainerEvent(.push, container: Self.parent, controllers: [Self.child])))
        add(.callback(CallbackEvent(.didMoveToParent, .begin, controller: Self.child, parent: .controller(Self.second))))
        add(.callback(CallbackEvent(.didMoveToParent, .end, controller: Self.child, parent: .controller(Self.renamed))))
        add(.container(ContainerEvent(.removeFromParent, container: Self.parent, controllers: [Self.child])))
        let auditor = try BatchDispatchAgreementTests.auditor(only: [OrphanChildRule.id])
        let result = try BatchDispatchAgreementTests.audit(events, auditor, frameEvents: 100)
        #expect(result.batches == result.events)
        #expect(result.events.count == 1)
        #expect(result.events.first?.message.hasPrefix("ChildViewController#1 was removed from \(Self.renamed.displayName)") == true)
    }
}
