import Foundation
import LifetraceTestSupport
import Testing
import TraceLog
import TraceModel

@testable import Replay

/// The batch fold's quiet path (`ReplayState.foldQuietCallbacks`: callbacks, and marks without an effect, folded
/// through the controller table's pointers) gives the same state as the reference fold of whole events, on traces
/// built to sit at its edges: mostly well-formed lifecycles (begin/end pairs, nested callbacks, legal appearance
/// steps) with every condition that sends an event to the general fold mixed in (first sights, deinit and reuse
/// after it, callbacks inside deinit, deinit as an instant, viewDidLoad twice, illegal appearance steps, ends
/// without or out of order with their begin, parent arguments naming live, dead and unseen controllers,
/// reparenting, equal timestamps, a sheet transition in flight at viewDidAppear, records between callbacks
/// (marks with and without an effect, saves with and without unsaved edits), runs cut by the batch and frame
/// boundaries and by the `until` instant of a seek).
@Suite("The quiet callback fold agrees with the reference fold")
struct QuietFoldAgreementTests {
    /// `count` events of `controllers` controllers, mostly well-formed, from `seed`.
    static func lifecycles(count: Int, controllers: Int, seed: UInt64) -> [Event] {
        var generator = SeededGenerator(seed: seed)
        func roll(_ sides: UInt64) -> UInt64 { generator.next() % sides }
        var time: UInt64 = 1_000_000
        var events: [Event] = []
        var refs: [ControllerRef] = (1...controllers).map { ControllerRef(serial: UInt32($0), typeName: "Screen\($0)ViewController") }
        var open: [[Callback]] = Array(repeating: [], count: controllers)
        let appearance: [Callback] = [.viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear]
        let others: [Callback] = [.viewIsAppearing, .viewWillLayoutSubviews, .viewDidLayoutSubviews, .didReceiveMemoryWarning, .viewWillTransition]
        var step = Array(repeating: 0, count: controllers)
        while events.count < count {
            // Time mostly moves on, sometimes stands still (a trace file's time never goes back: its writer refuses).
            switch roll(40) {
            case 0, 1, 2, 3: break
            default: time += 1 + roll(2_000_000)
            }
            let index = Int(roll(UInt64(controllers)))
            let ref = refs[index]
            func callback(_ callback: Callback, _ phase: Phase, parent: ParentArgument? = nil) {
                events.append(.callback(CallbackEvent(callback, phase, controller: ref, parent: parent), at: time))
            }
            switch roll(100) {
            case 0..<40:
                // A well-formed step of the appearance cycle, as a begin/end pair.
                let next = appearance[step[index] % 4]
                step[index] += 1
                callback(next, .begin)
                if roll(10) != 0 { time += roll(1_000) }
                callback(next, .end)
            case 40..<50:
                // A random appearance callback (often illegal), as a pair or an instant.
                let next = appearance[Int(roll(4))]
                if roll(3) == 0 {
                    callback(next, .instant)
                } else {
                    callback(next, .begin)
                    callback(next, .end)
                }
            case 50..<60:
                // Open a callback (nested ones pile up) …
                let next = roll(4) == 0 ? appearance[Int(roll(4))] : others[Int(roll(UInt64(others.count)))]
                open[index].append(next)
                callback(next, .begin)
            case 60..<70:
                // … and close the innermost, or one further out, or one never begun.
                if let last = open[index].last, roll(5) != 0 {
                    open[index].removeLast()
                    callback(last, .end)
                } else if !open[index].isEmpty {
                    callback(open[index].removeFirst(), .end)
                } else {
                    callback(others[Int(roll(UInt64(others.count)))], .end)
                }
            case 70..<74:
                callback(.initialize, .begin)
                callback(.initialize, .end)
                callback(.loadView, roll(2) == 0 ? .instant : .begin)
                callback(.viewDidLoad, .begin)
                callback(.viewDidLoad, .end)
            case 74..<76:
                // Deinit (sometimes with work inside it, or as an instant), then sometimes a new controller under
                // the same serial or a late event of the dead one.
                if roll(6) == 0 {
                    callback(.deinitialize, .instant)
                } else {
                    callback(.deinitialize, .begin)
                    if roll(3) == 0 { callback(others[Int(roll(UInt64(others.count)))], .instant) }
                    if roll(4) == 0 {
                        callback(.didMoveToParent, .begin, parent: ParentArgument.none)
                        callback(.didMoveToParent, .end, parent: ParentArgument.none)
                    }
                    callback(.deinitialize, .end)
                }
                open[index] = []
                if roll(2) == 0 { refs[index] = ControllerRef(serial: UInt32(controllers + events.count), typeName: "Fresh") }
            case 76..<80:
                let parent = refs[Int(roll(UInt64(controllers)))]
                let argument: ParentArgument? = roll(3) == 0 ? ParentArgument.none : .controller(parent)
                let which: Callback = roll(2) == 0 ? .willMoveToParent : .didMoveToParent
                callback(which, .begin, parent: argument)
                callback(which, .end, parent: roll(4) == 0 ? nil : argument)
            case 80..<84:
                // A sheet: its transitions stay in flight until the dismissal finishes or the sheet appears again.
                let presenter = refs[Int(roll(UInt64(controllers)))]
                let operations: [ContainerOperation] = [.present, .presentationControllerWillDismiss, .presentationControllerDidDismiss, .dismiss]
                let operation = operations[Int(roll(4))]
                events.append(.container(ContainerEvent(
                    operation, roll(2) == 0 ? .instant : .begin, container: presenter, controllers: [ref],
                    style: operation == .present ? .pageSheet : nil
                ), at: time))
            case 84..<90:
                // Marks with an effect, and marks the quiet path takes (custom, work, analytics, a save with nothing
                // to save), on a controller or on none.
                let names = [MarkName.edit, MarkName.timerStart, MarkName.save, "scroll", MarkName.work, MarkName.analyticsScreen]
                let name = names[Int(roll(UInt64(names.count)))]
                let phase: Phase = name == MarkName.work ? (roll(2) == 0 ? .begin : .end) : .instant
                events.append(.mark(MarkEvent(name, phase, controller: roll(3) == 0 ? nil : ref, fields: [MarkField("key", .string("k\(roll(3))"))]), at: time))
            case 90..<93:
                events.append(.app(AppEvent([.willEnterForeground, .didBecomeActive, .willResignActive, .didEnterBackground][Int(roll(4))], roll(2) == 0 ? .begin : .end, scene: roll(2) == 0 ? nil : "scene-\(roll(2))"), at: time))
            case 93..<95:
                callback(.viewDidLoad, .instant)
            default:
                // A controller seen for the first time in the middle of things.
                let fresh = ControllerRef(serial: UInt32(100_000 + events.count), typeName: "Late")
                events.append(.callback(CallbackEvent(appearance[Int(roll(4))], .begin, controller: fresh), at: time))
                events.append(.callback(CallbackEvent(.viewWillLayoutSubviews, .instant, controller: fresh), at: time))
            }
        }
        return events
    }

    @Test("replay and seeks", arguments: [(UInt64(1), 3, 97), (2, 12, 1_000), (3, 40, 4_096), (4, 2, 7)])
    func agreement(seed: UInt64, controllers: Int, eventsPerFrame: Int) throws {
        let scratch = ScratchDirectory()
        let path = scratch.file("quiet.lifetrace")
        let events = Self.lifecycles(count: 6_000, controllers: controllers, seed: seed)
        _ = try TestTraces.write(events, to: path, eventsPerFrame: eventsPerFrame, policy: .init(eventInterval: 1_500))
        let expected = ReplayState.replaying(events)
        // The traces reach the conditions the quiet path hands over.
        let kinds = Set(expected.diagnostics.map(\.kind))
        #expect(kinds.isSuperset(of: [.unbalancedEnd, .duplicateViewDidLoad, .eventAfterDeinit]))
        let replayer = try Replayer(path: path)
        #expect(try replayer.replay() == expected)
        // Seeks: from checkpoints (a start ordinal inside a batch) to instants inside runs of callbacks.
        var generator = SeededGenerator(seed: seed &* 31)
        for _ in 0..<12 {
            let instant = events[Int(generator.next() % UInt64(events.count))].timestamp
            #expect(try replayer.state(at: instant) == TestTraces.reference(events, at: instant), "at \(instant)")
        }
    }

    /// `lifecycles(count:controllers:seed:)` with records the quiet run folds through the general functions mixed
    /// in between its callbacks, at the same instants: marks that start and stop resources and edit and save (on
    /// live, dead, unseen and no controllers), SwiftUI actions (hosted by those, and unhosted), app and scene
    /// callbacks of every phase (new scenes among them), and container operations that end the run.
    static func interleaved(count: Int, controllers: Int, seed: UInt64) -> [Event] {
        var generator = SeededGenerator(seed: seed &+ 1_000)
        func roll(_ sides: UInt64) -> UInt64 { generator.next() % sides }
        let base = lifecycles(count: count, controllers: controllers, seed: seed)
        var events: [Event] = []
        var seen: [ControllerRef] = []
        for event in base {
            if let ref = event.controller, roll(8) == 0 { seen.append(ref) }
            let time = event.timestamp
            let someone: ControllerRef? = seen.isEmpty || roll(5) == 0
                ? (roll(2) == 0 ? nil : ControllerRef(serial: UInt32(500_000 + roll(50)), typeName: "Unseen"))
                : seen[Int(roll(UInt64(seen.count)))]
            switch roll(12) {
            case 0, 1:
                let names = [MarkName.timerStart, MarkName.timerStop, MarkName.observerAdd, MarkName.observerRemove, MarkName.requestStart,
                             MarkName.requestCancel, MarkName.taskStart, MarkName.taskCancel, MarkName.edit, MarkName.save]
                let name = names[Int(roll(UInt64(names.count)))]
                let field = name.hasPrefix("observer") ? "name" : (name == MarkName.edit || name == MarkName.save ? "key" : "id")
                let fields = roll(6) == 0 ? [] : [MarkField(field, .string("r\(roll(3))"))]
                events.append(.mark(MarkEvent(name, roll(8) == 0 ? .end : .instant, controller: someone, fields: fields), at: time))
            case 2:
                let action: SwiftUIEvent.Action = roll(2) == 0 ? .onAppear : .onDisappear
                events.append(Event(timestamp: time, .swiftUI(SwiftUIEvent(action, view: "View\(roll(3))", host: roll(4) == 0 ? nil : someone))))
            case 3:
                let transitions: [AppTransition] = [.willEnterForeground, .didBecomeActive, .willResignActive, .didEnterBackground, .didReceiveMemoryWarning]
                let phases: [Phase] = [.begin, .end, .instant]
                events.append(.app(AppEvent(
                    transitions[Int(roll(5))], phases[Int(roll(3))], scene: roll(3) == 0 ? nil : "scene-\(roll(4))"
                ), at: time))
            case 4:
                if let someone, let other = seen.last {
                    let operation: ContainerOperation = roll(2) == 0 ? .push : .pop
                    events.append(.container(ContainerEvent(operation, .instant, container: other, controllers: [someone]), at: time))
                }
            default:
                break
            }
            events.append(event)
        }
        return events
    }

    @Test("records folded inside a run: replay and seeks", arguments: [(UInt64(5), 4, 97), (6, 12, 1_000), (7, 30, 4_096), (8, 2, 13)])
    func recordsInRuns(seed: UInt64, controllers: Int, eventsPerFrame: Int) throws {
        let scratch = ScratchDirectory()
        let path = scratch.file("interleaved.lifetrace")
        let events = Self.interleaved(count: 6_000, controllers: controllers, seed: seed)
        _ = try TestTraces.write(events, to: path, eventsPerFrame: eventsPerFrame, policy: .init(eventInterval: 1_500))
        let expected = ReplayState.replaying(events)
        // The records reached the state (resources left live, SwiftUI views, scenes), beside what the callbacks did.
        let resources = expected.controllers.values.reduce(expected.appResources.count) { $0 + $1.resources.count }
        #expect(resources > 0)
        #expect(!expected.scenes.isEmpty)
        #expect(expected.controllers.values.contains { !$0.swiftUIViews.isEmpty } && !expected.unhostedSwiftUIViews.isEmpty)
        let replayer = try Replayer(path: path)
        #expect(try replayer.replay() == expected)
        var generator = SeededGenerator(seed: seed &* 37)
        for _ in 0..<12 {
            let instant = events[Int(generator.next() % UInt64(events.count))].timestamp
            #expect(try replayer.state(at: instant) == TestTraces.reference(events, at: instant), "at \(instant)")
        }
    }
}
