import Audit
import Testing
import TraceModel

/// Work held for two controllers' viewWillDisappear at once (`CancelledDisappearances`, shared by
/// `teardown_in_will_disappear` and `critical_save_placement`): one disappearance completes while the other's items
/// are still held, then the other is cancelled. The completed one's items are dropped (and only they), the
/// cancelled one's are reported; by events and by batches (the record path), frames of 3 to 4 096 events.
@Suite("Work held for two disappearances at once")
struct HeldDisappearanceTests {
    static let parent = ControllerRef(serial: 1, typeName: "InboxViewController")
    static let child = ControllerRef(serial: 2, typeName: "ComposerViewController")

    static func teardown(_ name: String, _ id: String, _ controller: ControllerRef) -> MarkEvent {
        MarkEvent(name, controller: controller, fields: [MarkField("id", .string(id))])
    }

    /// Both controllers appear, both tear down (and save `draft`) in viewWillDisappear, `completed` gets
    /// viewDidDisappear, then `cancelled` gets viewWillAppear (its disappearance cancelled) and viewDidAppear.
    static func events(completed: ControllerRef, cancelled: ControllerRef) -> [Event] {
        var trace = ExampleTraceBuilder()
        trace.appear(parent)
        trace.appear(child)
        for controller in [parent, child] {
            trace.interval(.viewWillDisappear, controller) {
                $0.mark(teardown(controller == parent ? MarkName.requestCancel : MarkName.timerStop, controller == parent ? "feed" : "tick", controller))
                $0.mark(.save(key: "draft", critical: true, controller: controller))
            }
        }
        trace.callback(.viewDidDisappear, completed)
        trace.callback(.viewWillAppear, cancelled)
        trace.callback(.viewDidAppear, cancelled)
        return trace.events
    }

    static let auditor: Auditor = {
        let ids: Set<String> = ["teardown_in_will_disappear", "critical_save_placement"]
        let all = Set(BuiltinRules.all.map(\.id))
        return try! Auditor(configuration: AuditConfiguration(disabledRules: all.subtracting(ids), optInRules: ids))
    }()

    @Test("the cancelled controller's teardown is reported, the completed one's is not", arguments: [false, true])
    func onlyTheCancelled(parentCancelled: Bool) throws {
        let cancelled = parentCancelled ? Self.parent : Self.child
        let completed = parentCancelled ? Self.child : Self.parent
        let events = Self.events(completed: completed, cancelled: cancelled)
        for frameEvents in [3, 5, 4_096] {
            let result = try BatchDispatchAgreementTests.audit(events, Self.auditor, frameEvents: frameEvents)
            #expect(result.batches == result.events)
            let teardowns = result.events.filter { $0.ruleID == "teardown_in_will_disappear" }
            let finding = try #require(teardowns.first)
            #expect(teardowns.count == 1)
            #expect(finding.controller == cancelled.displayName)
            let own = parentCancelled ? "request.cancel 'feed'" : "timer.stop 'tick'"
            let other = parentCancelled ? "timer.stop 'tick'" : "request.cancel 'feed'"
            #expect(finding.message.contains(own), "\(finding.message)")
            #expect(!finding.message.contains(other), "\(finding.message)")
            // Each type saved `draft` once inside viewWillDisappear: the cancelled one's is an error, the other's a warning.
            let saves = result.events.filter { $0.ruleID == "critical_save_placement" }
            #expect(saves.count == 2)
            #expect(saves.first { $0.controller == cancelled.displayName }?.severity == .error)
            #expect(saves.first { $0.controller == completed.displayName }?.severity == .warning)
        }
    }

    @Test("repeated saves of one key in viewWillDisappear are counted once per save")
    func repeatedSaves() throws {
        var trace = ExampleTraceBuilder()
        trace.appear(Self.parent)
        for _ in 0..<3 {
            trace.interval(.viewWillDisappear, Self.parent) { $0.mark(.save(key: "draft", critical: true, controller: Self.parent)) }
            trace.callback(.viewDidDisappear, Self.parent)
            trace.callback(.viewWillAppear, Self.parent)
            trace.callback(.viewDidAppear, Self.parent)
        }
        let result = try BatchDispatchAgreementTests.audit(trace.events, Self.auditor, frameEvents: 4)
        #expect(result.batches == result.events)
        let finding = try #require(result.events.first { $0.ruleID == "critical_save_placement" })
        #expect(finding.message.contains("(3 saves of 'draft' inside viewWillDisappear)"), "\(finding.message)")
    }
}

/// A few steps of a trace, 10 ms apart (the tests' own copy of the rule examples' builder).
struct ExampleTraceBuilder {
    private(set) var events: [Event] = []
    private var now: UInt64 = 0

    private mutating func append(_ payload: EventPayload) {
        if !events.isEmpty { now += 10_000_000 }
        events.append(Event(timestamp: now, payload))
    }

    mutating func callback(_ callback: Callback, _ controller: ControllerRef, _ phase: Phase = .instant) {
        append(.callback(CallbackEvent(callback, phase, controller: controller, animated: callback.takesAnimated ? true : nil)))
    }

    mutating func interval(_ callback: Callback, _ controller: ControllerRef, _ body: (inout ExampleTraceBuilder) -> Void) {
        self.callback(callback, controller, .begin)
        body(&self)
        self.callback(callback, controller, .end)
    }

    mutating func mark(_ mark: MarkEvent) {
        append(.mark(mark))
    }

    mutating func app(_ transition: AppTransition, _ phase: Phase = .instant, scene: String? = nil) {
        append(.app(AppEvent(transition, phase, scene: scene)))
    }

    mutating func swiftUI(_ action: SwiftUIEvent.Action, view: String, host: ControllerRef?) {
        append(.swiftUI(SwiftUIEvent(action, view: view, host: host)))
    }

    mutating func appear(_ controller: ControllerRef) {
        callback(.initialize, controller)
        callback(.viewDidLoad, controller)
        callback(.viewWillAppear, controller)
        callback(.viewDidAppear, controller)
    }
}
