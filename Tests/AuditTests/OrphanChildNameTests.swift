import LifetraceTestSupport
import Testing
import TraceModel

@testable import Audit

/// `orphan_child` names a parent in a finding by the name it had in the event that made it the parent, also when
/// one serial is recorded under two names.
@Suite("orphan_child: parent names")
struct OrphanChildNameTests {
    /// push under `first`, willMove(toParent:) naming the same serial as `second`, then removeFromParent without
    /// willMove(toParent: nil): the removal finding names the parent as `second` does.
    static func removal(first: ControllerRef, second: ControllerRef) -> [Event] {
        let child = ControllerRef(serial: 1, typeName: "ChildViewController")
        var events: [Event] = []
        var time: UInt64 = 1_000_000_000
        func add(_ payload: EventPayload) {
            time += 100_000
            events.append(Event(timestamp: time, payload))
        }
        add(.callback(CallbackEvent(.initialize, .instant, controller: child)))
        add(.callback(CallbackEvent(.initialize, .instant, controller: first)))
        add(.container(ContainerEvent(.push, container: first, controllers: [child])))
        add(.callback(CallbackEvent(.willMoveToParent, .instant, controller: child, parent: .controller(second))))
        add(.container(ContainerEvent(.removeFromParent, container: first, controllers: [child])))
        return events
    }

    @Test("a parent recorded under a second name is shown by that name, from events and from frame records", arguments: [
        ControllerRef(serial: 2, typeName: "NavigationController", label: "b"),
        ControllerRef(serial: 2, typeName: "OtherNavigationController"),
        ControllerRef(serial: 2, typeName: "NavigationController"),
    ])
    func secondName(second: ControllerRef) throws {
        let events = Self.removal(first: ControllerRef(serial: 2, typeName: "NavigationController"), second: second)
        for frameEvents in [2, 100] {
            let (records, byEvents, memory) = try RecordObservePropertyTests.auditBothWays(events, frameEvents: frameEvents)
            #expect(records == byEvents)
            #expect(memory == byEvents)
            let removal = byEvents.filter { $0.ruleID == OrphanChildRule.id }
            #expect(removal.count == 1)
            #expect(removal.first?.message.hasPrefix("ChildViewController#1 was removed from \(second.displayName) with removeFromParent()") == true)
        }
    }
}
