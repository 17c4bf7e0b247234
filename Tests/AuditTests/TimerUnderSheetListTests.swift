import Audit
import Testing
import TraceModel

/// `timer_under_sheet` keeps its running timers in one list in start order (rules11; a list per owner before):
/// a stop ends the owner's first timer with its id, a deinit drops every timer of the controller, and a
/// presentation covers each appeared owner once with all its running timers.
@Suite("timer_under_sheet: running timers of several owners, several per owner")
struct TimerUnderSheetListTests {
    static let a = ControllerRef(serial: 1, typeName: "AViewController")
    static let b = ControllerRef(serial: 2, typeName: "BViewController")
    static let sheet = ControllerRef(serial: 3, typeName: "SheetViewController")

    static func mark(_ time: UInt64, _ name: String, _ controller: ControllerRef, _ id: String) -> Event {
        Event(timestamp: time, .mark(MarkEvent(name, controller: controller, fields: [MarkField("id", .string(id))])))
    }

    static func callback(_ time: UInt64, _ callback: Callback, _ controller: ControllerRef) -> Event {
        Event(timestamp: time, .callback(CallbackEvent(callback, .instant, controller: controller)))
    }

    static func container(_ time: UInt64, _ operation: ContainerOperation, _ container: ControllerRef, _ child: ControllerRef) -> Event {
        Event(timestamp: time, .container(ContainerEvent(operation, container: container, controllers: [child], style: operation == .present ? .pageSheet : nil)))
    }

    static let second: UInt64 = 1_000_000_000

    /// A and B appear; A starts t1 (at 1 s), t2 (2 s), B starts t1 (3 s), A starts t1 again (4 s); A stops t1 (5 s:
    /// its first); the sheet is presented over A (6 s), covering A (t2, its second t1) and B (t1); B deinits (8 s);
    /// A stops t1 (10 s: the second, 4 s under the sheet); the sheet is dismissed (20 s: t2 ran 14 s under it).
    static var events: [Event] {
        var events: [Event] = []
        for controller in [a, b] {
            events.append(callback(100, .initialize, controller))
            events.append(callback(200, .viewWillAppear, controller))
            events.append(callback(300, .viewDidAppear, controller))
        }
        events += [
            mark(1 * second, MarkName.timerStart, a, "t1"),
            mark(2 * second, MarkName.timerStart, a, "t2"),
            mark(3 * second, MarkName.timerStart, b, "t1"),
            mark(4 * second, MarkName.timerStart, a, "t1"),
            mark(5 * second, MarkName.timerStop, a, "t1"),
            container(6 * second, .present, a, sheet),
            callback(8 * second, .deinitialize, b),
            mark(10 * second, MarkName.timerStop, a, "t1"),
            container(20 * second, .dismiss, a, sheet),
        ]
        return events
    }

    @Test("A's second t1 and its t2 are reported with their own start times; B's timer dies with B")
    func findings() throws {
        let findings = try Auditor().audit(Self.events).filter { $0.ruleID == "timer_under_sheet" }
        #expect(findings.count == 2)
        let messages = findings.map(\.message).sorted()
        try #require(messages.count == 2)
        // The second t1 (started at 4 s): the stop at 5 s ended the first.
        #expect(messages[0].hasPrefix("AViewController#1's timer 't1' (started at 4.000 s) kept running for 4.000 s under SheetViewController#3"), "\(messages[0])")
        #expect(messages[0].contains("until it was stopped at 10.000 s"), "\(messages[0])")
        #expect(messages[1].hasPrefix("AViewController#1's timer 't2' (started at 2.000 s) kept running for 14.000 s under SheetViewController#3"), "\(messages[1])")
        #expect(messages[1].contains("until SheetViewController#3 was dismissed at 20.000 s"), "\(messages[1])")
    }
}
