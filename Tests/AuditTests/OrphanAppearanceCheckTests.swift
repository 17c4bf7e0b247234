import Foundation
import LifetraceTestSupport
import Simulator
import Testing
import TraceModel

@testable import Audit

/// `orphan_child` asks, at an appearance callback of a controller that was never added, whether another
/// controller's appearance callback is executing (`CallbackAttribution.innermostOpenAppearanceCallback`), which folds
/// the events not folded yet first (by batches) or reads the state the `Event` path keeps: both must find the same.
@Suite("orphan_child: appearance inside another's, by batches and by events")
struct OrphanAppearanceCheckTests {
    /// Random appearance begins, ends and instants of a few controllers that are never added (and, now and then, a
    /// deinit, a mark, an app event or a nested interval), so that appearance callbacks run inside others' or not.
    static func events(seed: UInt64, count: Int) -> [Event] {
        var random = SplitMix64(seed: seed)
        let controllers = (1...5).map { ControllerRef(serial: UInt32($0), typeName: "Screen\($0)ViewController") }
        let appearance: [Callback] = [.viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear]
        var events: [Event] = []
        var time: UInt64 = 1_000_000_000
        func add(_ payload: EventPayload) {
            time += 100_000
            events.append(Event(timestamp: time, payload))
        }
        for controller in controllers { add(.callback(CallbackEvent(.initialize, .instant, controller: controller))) }
        while events.count < count {
            let controller = controllers[Int(random.next() % UInt64(controllers.count))]
            let callback = appearance[Int(random.next() % 4)]
            switch random.next() % 20 {
            case 0:
                add(.callback(CallbackEvent(.deinitialize, [.begin, .end, .instant][Int(random.next() % 3)], controller: controller)))
            case 1:
                add(.mark(MarkEvent("work", controller: controller)))
            case 2:
                add(.app(AppEvent(.willResignActive, random.next() % 2 == 0 ? .begin : .end)))
            case 3:
                add(.callback(CallbackEvent(.viewDidLayoutSubviews, random.next() % 2 == 0 ? .begin : .end, controller: controller)))
            case 4...6:
                add(.callback(CallbackEvent(callback, .instant, controller: controller)))
            case 7...13:
                add(.callback(CallbackEvent(callback, .begin, controller: controller)))
            default:
                add(.callback(CallbackEvent(callback, .end, controller: controller)))
            }
        }
        return events
    }

    @Test("the same findings by batches as from events", arguments: [UInt64(1), 2, 3])
    func agrees(seed: UInt64) throws {
        let auditor = try BatchDispatchAgreementTests.auditor(only: [OrphanChildRule.id])
        let events = Self.events(seed: seed, count: 4_000)
        for frameEvents in [3, 40, 4_096] {
            let result = try BatchDispatchAgreementTests.audit(events, auditor, frameEvents: frameEvents)
            #expect(result.sameState)
            #expect(result.batches == result.events, "frames of \(frameEvents)")
            #expect(result.events.contains { $0.message.contains("appearance is being forwarded by hand") })
        }
    }

    /// An interval of the host closed before the orphan's callback (nothing reported), and one still open (one
    /// finding), in one frame and across a frame boundary (folded before the query).
    @Test("an open interval of another controller is found, a closed one is not")
    func openAndClosed() throws {
        let host = ControllerRef(serial: 1, typeName: "HostViewController")
        let orphan = ControllerRef(serial: 2, typeName: "OrphanViewController")
        let auditor = try BatchDispatchAgreementTests.auditor(only: [OrphanChildRule.id])
        for open in [false, true] {
            var events: [Event] = []
            var time: UInt64 = 1_000_000_000
            func add(_ callback: Callback, _ phase: Phase, _ controller: ControllerRef) {
                time += 100_000
                events.append(Event(timestamp: time, .callback(CallbackEvent(callback, phase, controller: controller))))
            }
            add(.initialize, .instant, host)
            add(.initialize, .instant, orphan)
            add(.viewWillAppear, .begin, host)
            add(.viewDidLayoutSubviews, .begin, host)
            add(.viewDidLayoutSubviews, .end, host)
            if !open { add(.viewWillAppear, .end, host) }
            add(.viewDidAppear, .begin, orphan)
            for frameEvents in [2, 3, 100] {
                let result = try BatchDispatchAgreementTests.audit(events, auditor, frameEvents: frameEvents)
                #expect(result.batches == result.events)
                #expect(result.events.count == (open ? 1 : 0))
                #expect(result.events.allSatisfy { $0.callback == "viewDidAppear" })
            }
        }
    }
}
