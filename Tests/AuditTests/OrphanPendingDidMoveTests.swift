import Audit
import Testing
import TraceModel

/// `orphan_child`'s addChild waiting for didMove(toParent:), read and changed in place (rules11; copied out and
/// back before): the child's viewDidAppear marks it appeared, a later callback of the appeared child is a finding
/// that names the addChild (with its recorded source), the appearance and that callback; didMove(toParent:) ends
/// the wait.
@Suite("orphan_child: an addChild waiting for didMove(toParent:)")
struct OrphanPendingDidMoveTests {
    static let parent = ControllerRef(serial: 1, typeName: "ParentViewController")
    static let child = ControllerRef(serial: 2, typeName: "ChildViewController")
    static let other = ControllerRef(serial: 3, typeName: "OtherViewController")
    static let source = EventSource(text: "addChild(child)", file: "Parent.swift", line: 42)

    static func callback(_ time: UInt64, _ callback: Callback, _ controller: ControllerRef, parent: ParentArgument? = nil) -> Event {
        Event(timestamp: time, .callback(CallbackEvent(callback, .instant, controller: controller, parent: parent)))
    }

    /// The parent appears, adds the child (and, with `other`, a second child that gets didMove at once), the child
    /// appears; then `then` of the child.
    static func events(then last: [Event]) -> [Event] {
        [
            callback(1_000, .initialize, parent),
            callback(2_000, .viewWillAppear, parent),
            callback(3_000, .viewDidAppear, parent),
            callback(4_000, .initialize, child),
            callback(4_500, .initialize, other),
            Event(timestamp: 5_000, .container(ContainerEvent(.addChild, container: parent, controllers: [child, other])), source: source),
            callback(5_500, .didMoveToParent, other, parent: .controller(parent)),
            callback(6_000, .viewWillAppear, child),
            callback(7_000, .viewDidAppear, child),
            callback(7_500, .viewDidAppear, other),
        ] + last
    }

    @Test("a callback of the appeared child still waiting is one finding naming the addChild, its source and the appearance")
    func appearedThenCallback() throws {
        let findings = try Auditor(configuration: .init(optInRules: ["orphan_child"])).audit(Self.events(then: [Self.callback(8_000, .viewWillDisappear, Self.child)]))
            .filter { $0.ruleID == "orphan_child" }
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.controller == Self.child.displayName)
        #expect(finding.ordinal == 5)
        #expect(finding.message.contains("never called didMove(toParent:)"), "\(finding.message)")
        #expect(finding.message.contains("went on to viewWillDisappear"), "\(finding.message)")
        #expect(finding.related.count == 3)
        #expect(finding.related.first?.ordinal == 5)
        #expect(finding.related.first?.source == Self.source)
        #expect(finding.related.dropFirst().first?.ordinal == 8)
        #expect(finding.related.last?.ordinal == 10)
    }

    @Test("didMove(toParent:) after the appearance ends the wait: no finding")
    func didMoveEndsTheWait() throws {
        let events = Self.events(then: [
            Self.callback(7_800, .didMoveToParent, Self.child, parent: .controller(Self.parent)),
            Self.callback(8_000, .viewWillDisappear, Self.child),
        ])
        let findings = try Auditor(configuration: .init(optInRules: ["orphan_child"])).audit(events).filter { $0.ruleID == "orphan_child" }
        #expect(findings.isEmpty)
    }
}
