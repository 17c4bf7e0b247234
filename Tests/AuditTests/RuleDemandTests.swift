import Testing
import TraceModel

@testable import Audit

/// Rules that ask for callbacks only while they keep something (`CallbackDemand`): `timer_under_sheet` (deinits
/// while a timer runs or a presentation is up) and `hosting_children_accumulate` (didMove(toParent:) and deinits
/// while a child or group is kept, deinits while a host's name is): the callbacks they need still reach them.
@Suite("Rules on demanded callbacks")
struct RuleDemandTests {
    static func findings(_ events: [Event], _ id: String) throws -> [Finding] {
        try Auditor(configuration: AuditConfiguration(optInRules: [id])).audit(events).filter { $0.ruleID == id }
    }

    @Test("timer_under_sheet: the presented controller's deinit ends the cover (deinit asked for while the timer runs)")
    func timerCoverEndsAtDeinit() throws {
        let dashboard = ExampleTrace.controller(1, "DashboardViewController")
        let filters = ExampleTrace.controller(2, "FiltersViewController")
        let other = ExampleTrace.controller(3, "OtherViewController")
        var trace = ExampleTrace()
        // A deinit while nothing runs (not asked for), then a timer, a sheet, and the sheet's deinit.
        trace.callback(.initialize, other)
        trace.callback(.deinitialize, other)
        trace.callback(.initialize, dashboard)
        trace.callback(.viewDidLoad, dashboard)
        trace.callback(.viewWillAppear, dashboard)
        trace.interval(.viewDidAppear, dashboard) { $0.mark(MarkEvent(MarkName.timerStart, controller: dashboard, fields: [MarkField("id", .string("poll"))])) }
        trace.callback(.initialize, filters)
        trace.container(.present, dashboard, [filters], style: .pageSheet)
        trace.callback(.viewDidLoad, filters)
        trace.wait(5)
        trace.callback(.deinitialize, filters)
        trace.wait(60)
        let findings = try Self.findings(trace.events, TimerUnderSheetRule.id)
        #expect(findings.count == 1)
        let message = try #require(findings.first?.message)
        #expect(message.contains("until FiltersViewController#2 was deinitialized"), "\(message)")
    }

    @Test("hosting_children_accumulate: children removed by didMove(toParent: nil) alone are not counted")
    func childrenRemovedByDidMove() throws {
        let timeline = ExampleTrace.controller(1, "TimelineViewController")
        var trace = ExampleTrace()
        trace.appear(timeline)
        for index in 0..<8 {
            let cell = ExampleTrace.controller(UInt32(2 + index), "UIHostingController<PostCell>")
            trace.callback(.initialize, cell)
            trace.container(.addChild, timeline, [cell])
            trace.callback(.didMoveToParent, cell, parent: .controller(timeline))
            trace.callback(.didMoveToParent, cell, parent: ParentArgument.none)
        }
        #expect(try Self.findings(trace.events, HostingChildrenAccumulateRule.id).isEmpty)
        // The same children kept: reported at the parent's deinit.
        var kept = ExampleTrace()
        kept.appear(timeline)
        for index in 0..<8 {
            let cell = ExampleTrace.controller(UInt32(2 + index), "UIHostingController<PostCell>")
            kept.callback(.initialize, cell)
            kept.container(.addChild, timeline, [cell])
            kept.callback(.didMoveToParent, cell, parent: .controller(timeline))
        }
        kept.callback(.deinitialize, timeline)
        #expect(try Self.findings(kept.events, HostingChildrenAccumulateRule.id).count == 1)
    }
}

/// `unsaved_edit_at_exit` keeps each controller's unsaved edits as a list by key: repeated edits of a key are
/// counted in one entry, a critical save of one key clears only that key.
@Suite("unsaved_edit_at_exit edits by key")
struct UnsavedEditsByKeyTests {
    @Test("two keys edited, one saved: only the other is reported, with its count")
    func oneKeySaved() throws {
        let editor = ExampleTrace.controller(1, "NoteEditorViewController")
        func edit(_ key: String) -> MarkEvent { MarkEvent(MarkName.edit, controller: editor, fields: [MarkField("key", .string(key))]) }
        var trace = ExampleTrace()
        trace.appear(editor)
        trace.mark(edit("title"))
        trace.mark(edit("body"))
        trace.mark(edit("title"))
        trace.mark(edit("body"))
        trace.mark(edit("body"))
        trace.mark(MarkEvent(MarkName.save, controller: editor, fields: [MarkField("key", .string("title")), MarkField("critical", .bool(true))]))
        trace.callback(.viewWillDisappear, editor)
        trace.callback(.viewDidDisappear, editor)
        let findings = try RuleDemandTests.findings(trace.events, UnsavedEditAtExitRule.id)
        #expect(findings.count == 1)
        let message = try #require(findings.first?.message)
        #expect(message.hasPrefix("'body' edited 3 times"), "\(message)")
    }
}
