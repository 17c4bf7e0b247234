import LifetraceTestSupport
import Testing
import TraceModel
@testable import Replay

/// Anomalies become diagnostics with ordinal and time; the event still applies as the trace says.
@Suite("Anomalies become diagnostics")
struct AnomalyTests {
    static let screen = ControllerRef(serial: 1, typeName: "FirstViewController")

    func fold(_ events: [Event]) -> ReplayState {
        var state = ReplayState()
        for (ordinal, event) in events.enumerated() { state.apply(event, ordinal: UInt64(ordinal)) }
        return state
    }

    func created(_ more: [Event]) -> [Event] { [cb(.initialize, Self.screen, 0)] + more }

    @Test("appearance anomalies", arguments: [
        // (callbacks after creation, expected final appearance, expected kinds)
        ([Callback.viewDidAppear], Appearance.appeared, [Diagnostic.Kind.didWithoutWill]),
        ([.viewWillAppear, .viewDidAppear, .viewDidAppear], .appeared, [.duplicateDidAppear]),
        ([.viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .viewDidDisappear], .disappeared, [.duplicateDidDisappear]),
        ([.viewWillAppear, .viewWillAppear], .appearing, [.repeatedWill]),
        ([.viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewWillDisappear], .disappearing, [.repeatedWill]),
        ([.viewWillDisappear], .disappearing, [.willFromWrongState]),
        ([.viewWillAppear, .viewDidAppear, .viewWillAppear], .appearing, [.willFromWrongState]),
        ([.viewWillAppear, .viewDidAppear, .viewDidDisappear], .disappeared, [.didWithoutWill]),
        ([.viewWillAppear, .viewDidDisappear], .disappeared, [.didWithoutWill]),
        ([.viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidAppear], .appeared, [.didWithoutWill]),
        // Legal cancellations are not anomalies.
        ([.viewWillAppear, .viewWillDisappear, .viewDidDisappear], .disappeared, []),
        ([.viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewWillAppear, .viewDidAppear], .appeared, []),
    ])
    func appearance(callbacks: [Callback], final: Appearance, kinds: [Diagnostic.Kind]) {
        let events = created(callbacks.enumerated().map { cb($1, Self.screen, UInt64($0 + 1)) })
        let state = fold(events)
        #expect(state[Self.screen]?.appearance == final)
        #expect(state.diagnostics.map(\.kind) == kinds)
        if let diagnostic = state.diagnostics.first {
            #expect(diagnostic.ordinal == UInt64(events.count - 1))
            #expect(diagnostic.time == ms(UInt64(events.count - 1)))
            #expect(diagnostic.controller == Self.screen)
        }
    }

    @Test("a controller first seen mid-session starts unknown and its first callback settles it without a diagnostic", arguments: [
        (Callback.viewWillAppear, Appearance.appearing),
        (.viewDidAppear, .appeared),
        (.viewWillDisappear, .disappearing),
        (.viewDidDisappear, .disappeared),
        (.viewDidLoad, .disappeared),
    ])
    func unknownStart(first: Callback, settled: Appearance) {
        var state = ReplayState()
        state.apply(markEvent("custom", Self.screen, 0), ordinal: 0)
        #expect(state[Self.screen]?.appearance == .unknown)
        #expect(state[Self.screen]?.parent == .unknown)
        #expect(state[Self.screen]?.isStructureKnown == false)
        state.apply(cb(first, Self.screen, 1), ordinal: 1)
        #expect(state[Self.screen]?.appearance == settled)
        #expect(state.diagnostics.isEmpty)
    }

    @Test("viewDidLoad twice")
    func viewDidLoadTwice() {
        let state = fold(created([cb(.viewDidLoad, Self.screen, 1), cb(.viewDidLoad, Self.screen, 2)]))
        #expect(state.diagnostics.map(\.kind) == [.duplicateViewDidLoad])
        #expect(state[Self.screen]?.viewDidLoadCount == 2)
    }

    @Test("events after deinit are reported and still applied")
    func afterDeinit() {
        let state = fold(created([
            cb(.deinitialize, Self.screen, 1),
            markEvent(MarkName.timerStart, Self.screen, 2, [MarkField("id", .string("t"))]),
            cb(.viewWillAppear, Self.screen, 3),
        ]))
        #expect(state.diagnostics.map(\.kind) == [.eventAfterDeinit, .eventAfterDeinit])
        #expect(state.diagnostics.map(\.ordinal) == [2, 3])
        #expect(state[Self.screen]?.resources.count == 1)
        #expect(state[Self.screen]?.appearance == .appearing)
    }

    @Test("time going backwards is reported; the state keeps the event's own time")
    func timeBackwards() {
        let state = fold(created([cb(.viewDidLoad, Self.screen, 5), cb(.viewWillAppear, Self.screen, 3)]))
        #expect(state.diagnostics.map(\.kind) == [.timeWentBackwards])
        #expect(state.diagnostics.first?.ordinal == 2)
        #expect(state.time == ms(3))
        #expect(state[Self.screen]?.appearance == .appearing)
    }

    @Test("unbalanced ends: end without begin applies as an instant; end out of order reports and pops the right one")
    func unbalancedEnds() {
        let state = fold(created([
            cb(.viewWillAppear, Self.screen, 1, .end),
            cb(.viewWillLayoutSubviews, Self.screen, 2, .begin),
            cb(.viewDidLayoutSubviews, Self.screen, 3, .begin),
            cb(.viewWillLayoutSubviews, Self.screen, 4, .end),
        ]))
        #expect(state.diagnostics.map(\.kind) == [.unbalancedEnd, .unbalancedEnd])
        #expect(state[Self.screen]?.appearance == .appearing)
        #expect(state[Self.screen]?.callbacks.map(\.callback) == [.viewDidLayoutSubviews])
        #expect(state.executing.map(\.callback) == [.viewDidLayoutSubviews])
    }

    @Test("dropped events are reported")
    func dropped() {
        let state = fold([Event(timestamp: 1, .recorder(.eventsDropped(count: 12)))])
        #expect(state.droppedEvents == 12)
        #expect(state.diagnostics.map(\.kind) == [.eventsDropped])
    }

    @Test("arbitrary, illegal event soup never traps and the fold is deterministic")
    func soup() {
        var generator = SeededGenerator(seed: 42)
        let refs = (1...6).map { ControllerRef(serial: UInt32($0), typeName: "C\($0)") }
        var events: [Event] = []
        for _ in 0..<20_000 {
            let time = generator.next() % 1_000_000
            let ref = refs[Int(generator.next() % 6)]
            let other = refs[Int(generator.next() % 6)]
            let phase = Phase.allCases[Int(generator.next() % 3)]
            switch generator.next() % 5 {
            case 0:
                let parent: ParentArgument? = [nil, ParentArgument.none, .controller(other)][Int(generator.next() % 3)]
                events.append(.callback(CallbackEvent(Callback.allCases[Int(generator.next() % 15)], phase, controller: ref, parent: parent), at: time))
            case 1:
                let count = Int(generator.next() % 3)
                events.append(.container(ContainerEvent(
                    ContainerOperation.allCases[Int(generator.next() % 17)], phase,
                    container: generator.next() % 4 == 0 ? nil : other, controllers: Array(refs.shuffled(using: &generator).prefix(count)),
                    style: ModalPresentationStyle.allCases.randomElement(using: &generator), index: Int(generator.next() % 3)
                ), at: time))
            case 2:
                events.append(.app(AppEvent(AppTransition.allCases[Int(generator.next() % 9)], phase, scene: generator.next() % 2 == 0 ? nil : "S"), at: time))
            case 3:
                let name = MarkName.standard[Int(generator.next() % UInt64(MarkName.standard.count))]
                events.append(.mark(MarkEvent(name, phase, controller: generator.next() % 3 == 0 ? nil : ref, fields: [MarkField("id", .int(Int64(generator.next() % 3))), MarkField("key", .string("k"))]), at: time))
            default:
                events.append(Event(timestamp: time, .swiftUI(SwiftUIEvent(generator.next() % 2 == 0 ? .onAppear : .onDisappear, view: "V", host: generator.next() % 2 == 0 ? ref : nil))))
            }
        }
        let first = fold(events)
        let second = fold(events)
        #expect(first == second)
        #expect(first.eventCount == 20_000)
        #expect(!first.diagnostics.isEmpty)
    }
}

@Suite("Dead controllers")
struct DeadControllerTests {
    @Test("only the most recent dead keep their record; every dead serial is remembered as ranges")
    func retention() {
        var events: [Event] = []
        let count = ReplayState.retainedDeadLimit + 36
        for serial in 1...UInt32(count) {
            let ref = ControllerRef(serial: serial, typeName: "Screen")
            events.append(cb(.initialize, ref, UInt64(serial) * 2))
            events.append(cb(.deinitialize, ref, UInt64(serial) * 2 + 1))
        }
        var state = ReplayState.replaying(events)
        #expect(state.controllers.count == ReplayState.retainedDeadLimit)
        #expect(state.retainedDead == Array(37...UInt32(count)))
        #expect(state.deadSerials.ranges == [1...UInt32(count)])
        #expect(state.diagnostics.isEmpty)
        #expect(state.controllers[1] == nil)
        // An event about a forgotten dead controller is still reported.
        state.apply(cb(.viewWillAppear, ControllerRef(serial: 1, typeName: "Screen"), 1_000), ordinal: UInt64(events.count))
        #expect(state.diagnostics.map(\.kind) == [.eventAfterDeinit])
        let decoded = try? ReplayState(checkpointPayload: state.checkpointPayload())
        #expect(decoded == state)
    }

    @Test("the serial set merges neighbours and keeps gaps", arguments: [
        ([5, 3, 4, 10, 1, 12, 11], [1...1, 3...5, 10...12]),
        ([2, 2, 1, 3], [1...3]),
        ([UInt32.max, 0, UInt32.max - 1], [0...0, (UInt32.max - 1)...UInt32.max]),
    ] as [([UInt32], [ClosedRange<UInt32>])])
    func serialSet(inserts: [UInt32], ranges: [ClosedRange<UInt32>]) {
        var set = SerialSet()
        for serial in inserts { set.insert(serial) }
        #expect(set.ranges == ranges)
        #expect(inserts.allSatisfy(set.contains))
        #expect(!set.contains(2) || inserts.contains(2))
    }

    @Test("the serial set agrees with a set on random inserts (deaths in creation order, in stack order, at random)", arguments: [1, 2, 3, 4])
    func serialSetAgreesWithASet(seed: UInt64) {
        var generator = seed &* 0x9E37_79B9_7F4A_7C15
        func next(_ bound: UInt32) -> UInt32 {
            generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt32(truncatingIfNeeded: generator >> 33) % bound
        }
        var set = SerialSet()
        var reference = Set<UInt32>()
        var serial: UInt32 = 1
        for _ in 0..<400 {
            // A burst of serials inserted newest first (stack order), or one at random below the newest.
            switch next(3) {
            case 0:
                let length = 1 + next(6)
                for offset in (0..<length).reversed() { set.insert(serial + offset); reference.insert(serial + offset) }
                serial += length + next(3)
            case 1:
                set.insert(serial)
                reference.insert(serial)
                serial += 1 + next(2)
            default:
                let value = next(serial + 2)
                set.insert(value)
                reference.insert(value)
            }
            var expected: [ClosedRange<UInt32>] = []
            for value in reference.sorted() {
                if let last = expected.last, last.upperBound &+ 1 == value {
                    expected[expected.count - 1] = last.lowerBound...value
                } else {
                    expected.append(value...value)
                }
            }
            #expect(set.ranges == expected)
            if set.ranges != expected { return }
        }
    }
}
