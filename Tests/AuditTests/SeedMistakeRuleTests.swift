import Foundation
import Testing
import TraceLog
import TraceModel
@testable import Audit

/// The rules for four seed mistakes (`expensive_layout`, `timer_under_sheet`, `analytics_overcount`,
/// `observer_not_removed`) on the committed sample traces of their scenarios (traces/NAME.lifetrace, generated
/// from traces/scenarios/NAME.scenario) and of the corrected variants (NAME-fixed).
@Suite("Rules for the seed mistakes on the sample traces")
struct SeedMistakeRuleTests {
    static func events(_ name: String) throws -> [Event] {
        try SampleTraces.events(name)
    }

    static func audit(_ name: String, _ json: String? = nil) throws -> [Finding] {
        let configuration = try json.map { try AuditConfiguration(json: Data($0.utf8), origin: "test.json", rules: BuiltinRules.all) } ?? .default
        return try Auditor(configuration: configuration).audit(events(name))
    }

    @Test("expensive-layout: one finding at the first pass, 45 ms of work named, four passes counted")
    func expensiveLayout() throws {
        let findings = try Self.audit("expensive-layout")
        #expect(findings.map(\.ruleID) == ["expensive_layout"])
        let finding = try #require(findings.first)
        #expect(finding.severity == .warning)
        #expect(finding.controller == "ReportViewController#3")
        #expect(finding.callback == "viewDidLayoutSubviews")
        #expect(finding.message.contains("45.1 ms of it in work 'rebuild-charts'"), "\(finding.message)")
        #expect(finding.message.contains("at 2.002 s"), "\(finding.message)")
        #expect(finding.message.contains("over budget 4 times"), "\(finding.message)")
        #expect(finding.related.count == 3)
    }

    @Test("expensive-layout: a budget above the 45 ms passes gives no finding")
    func expensiveLayoutBudget() throws {
        let findings = try Self.audit("expensive-layout", #"{"rules": {"expensive_layout": {"budget": "50ms"}}}"#)
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    @Test("timer-under-sheet: one finding at the presentation, 30 s under the pageSheet")
    func timerUnderSheet() throws {
        let events = try Self.events("timer-under-sheet")
        let findings = try Auditor().audit(events)
        #expect(findings.map(\.ruleID) == ["timer_under_sheet"])
        let finding = try #require(findings.first)
        #expect(finding.severity == .warning)
        #expect(finding.controller == "DashboardViewController#1")
        guard case .container(let present) = events[Int(finding.ordinal)].payload else {
            Issue.record("the finding does not point at a container event")
            return
        }
        #expect(present.operation == .present && present.style == .pageSheet)
        #expect(finding.message.contains("'refresh' (started in viewDidAppear at 0.102 s)"), "\(finding.message)")
        #expect(finding.message.contains("30.350 s under FiltersViewController#2"), "\(finding.message)")
        #expect(finding.message.contains("dismissed at 32.351 s"), "\(finding.message)")
        #expect(finding.related.map(\.message).first?.contains("timer 'refresh' started") == true)
    }

    @Test("timer-under-sheet: other mark names are followed only when configured")
    func timerMarkNames() throws {
        let none = try Self.audit("timer-under-sheet", #"{"rules": {"timer_under_sheet": {"start_marks": ["poll.start"]}}}"#)
        #expect(none.isEmpty)
        let both = try Self.audit("timer-under-sheet", #"{"rules": {"timer_under_sheet": {"start_marks": ["poll.start", "timer.start"], "grace": "31s"}}}"#)
        #expect(both.isEmpty, "30.35 s under the sheet is within a 31 s grace")
    }

    @Test("onappear-analytics: one finding, 4 screen views for 2 appearances, the cancelled swipe-backs named")
    func onAppearAnalytics() throws {
        let findings = try Self.audit("onappear-analytics")
        #expect(findings.map(\.ruleID) == ["analytics_overcount"])
        let finding = try #require(findings.first)
        #expect(finding.severity == .warning)
        #expect(finding.controller == "FeedHostingController#1")
        #expect(finding.callback == "FeedView.onAppear")
        #expect(finding.message.contains("'feed' 4 times but completed 2 appearances"), "\(finding.message)")
        #expect(finding.message.contains("at 4.001 s") && finding.message.contains("at 6.001 s"), "\(finding.message)")
        #expect(finding.related.map(\.timestamp).count == 3)
    }

    @Test("observer-never-removed: one finding at the deinit, naming where the observer was added")
    func observerNeverRemoved() throws {
        let findings = try Self.audit("observer-never-removed")
        #expect(findings.map(\.ruleID) == ["observer_not_removed"])
        let finding = try #require(findings.first)
        #expect(finding.severity == .warning)
        #expect(finding.controller == "CommentViewController#3")
        #expect(finding.callback == "deinit")
        #expect(finding.message.contains("'keyboardWillShow'") && finding.message.contains("added in viewDidLoad at 2.001 s"), "\(finding.message)")
        #expect(finding.message.contains("deinitialized at 6.352 s"), "\(finding.message)")
    }

    @Test("the corrected variants give no finding at all", arguments: [
        "expensive-layout-fixed", "timer-under-sheet-fixed", "onappear-analytics-fixed", "observer-never-removed-fixed",
    ])
    func fixed(_ name: String) throws {
        let findings = try Self.audit(name)
        #expect(findings.isEmpty, "\(findings.map { "\($0.ruleID): \($0.message)" })")
    }

    @Test("the four rules find nothing in the other committed scenario traces", arguments: [
        "push", "pop-back-button", "swipe-back-finished", "swipe-back-cancelled", "present-full-screen",
        "present-sheet-styles", "sheet-swipe-down", "tab-switch", "page-scroll", "child-containment",
        "view-is-appearing", "app-background", "swiftui-hosting", "rotation-memory-warning", "created-never-shown",
        "app-interruptions",
    ])
    func quiet(_ name: String) throws {
        let mine: Set = ["expensive_layout", "timer_under_sheet", "analytics_overcount", "observer_not_removed"]
        let findings = try Self.audit(name).filter { mine.contains($0.ruleID) }
        #expect(findings.isEmpty, "\(findings.map { "\($0.ruleID): \($0.message)" })")
    }
}

@Suite("Rules for the seed mistakes on instant-only logs")
struct SeedMistakeInstantLogTests {
    @Test("observer removed on the line after an instant deinit counts as removed in deinit")
    func removalAfterInstantDeinit() throws {
        let removed = try Auditor().audit(InstantLog("""
            0.000 CommentViewController viewDidLoad
            0.001 CommentViewController observer.add name=keyboardWillShow
            0.002 CommentViewController viewWillAppear
            0.003 CommentViewController viewDidAppear
            0.004 CommentViewController viewWillDisappear
            0.005 CommentViewController viewDidDisappear
            0.006 CommentViewController deinit
            0.007 CommentViewController observer.remove name=keyboardWillShow
            0.008 PostViewController viewDidAppear
            """).events)
        #expect(removed.filter { $0.ruleID == "observer_not_removed" }.isEmpty, "\(removed.map(\.message))")

        let late = try Auditor().audit(InstantLog("""
            0.000 CommentViewController viewDidLoad
            0.001 CommentViewController observer.add name=keyboardWillShow
            0.006 CommentViewController deinit
            0.007 PostViewController viewDidAppear
            0.008 CommentViewController observer.remove name=keyboardWillShow
            """).events)
        let finding = try #require(late.first { $0.ruleID == "observer_not_removed" })
        #expect(finding.ordinal == 2)
        #expect(finding.callback == "deinit")
    }

    @Test("a removal without a name removes every registration of the controller")
    func removeAll() throws {
        let findings = try Auditor().audit(InstantLog("""
            0.000 CommentViewController viewDidLoad
            0.001 CommentViewController observer.add name=keyboardWillShow
            0.002 CommentViewController observer.add name=keyboardWillHide
            0.003 CommentViewController deinit
            0.004 CommentViewController observer.remove
            """).events)
        #expect(findings.filter { $0.ruleID == "observer_not_removed" }.isEmpty, "\(findings.map(\.message))")
    }

    @Test("custom registration marks are followed when configured")
    func customNames() throws {
        let log = InstantLog("""
            0.000 FeedViewController viewDidLoad
            0.001 FeedViewController bus.subscribe id=cart
            0.002 FeedViewController deinit
            0.003 HomeViewController viewDidAppear
            """).events
        #expect(try Auditor().audit(log).isEmpty)
        let json = #"{"rules": {"observer_not_removed": {"add_marks": ["observer.add", "bus.subscribe"], "remove_marks": ["observer.remove", "bus.unsubscribe"]}}}"#
        let configuration = try AuditConfiguration(json: Data(json.utf8), origin: "test.json", rules: BuiltinRules.all)
        let findings = try Auditor(configuration: configuration).audit(log)
        #expect(findings.map(\.ruleID) == ["observer_not_removed"])
        #expect(findings.first?.message.contains("'cart'") == true)
    }

    @Test("instant-only layout callbacks have no duration and are not judged")
    func instantLayout() throws {
        let findings = try Auditor().audit(InstantLog("""
            0.000 ReportViewController viewDidLoad
            0.010 ReportViewController viewWillLayoutSubviews
            0.900 ReportViewController viewDidLayoutSubviews
            1.000 ReportViewController viewDidAppear
            """).events)
        #expect(findings.filter { $0.ruleID == "expensive_layout" }.isEmpty)
    }

    @Test("a screen view re-sent when the app returns to the foreground is not an over-count")
    func foregroundScreenView() throws {
        let findings = try Auditor().audit(InstantLog("""
            0.000 FeedViewController viewDidLoad
            0.001 FeedViewController viewWillAppear
            0.002 FeedViewController viewDidAppear
            0.003 FeedViewController analytics.screen name=feed
            5.000 app didEnterBackground
            9.000 app willEnterForeground
            9.001 app didBecomeActive
            9.002 FeedViewController analytics.screen name=feed
            9.500 FeedViewController analytics.screen name=feed
            """).events)
        let overcount = findings.filter { $0.ruleID == "analytics_overcount" }
        #expect(overcount.count == 1, "the third screen view, in the same foreground period, is a duplicate: \(overcount.map(\.message))")
        #expect(overcount.first?.ordinal == 8)
        #expect(overcount.first?.message.contains("a second time in the same appearance") == true)
    }
}

@Suite("timer_under_sheet presentation styles")
struct TimerUnderSheetStyleTests {
    /// A dashboard's timer, started in viewDidAppear, under a presentation of `style` for 30 s.
    static func covered(_ style: ModalPresentationStyle) -> [Event] {
        let dashboard = ControllerRef(serial: 1, typeName: "DashboardViewController")
        let popup = ControllerRef(serial: 2, typeName: "PopupViewController")
        let s: UInt64 = 1_000_000_000
        return [
            Event(timestamp: 0, .callback(CallbackEvent(.viewWillAppear, .instant, controller: dashboard, animated: true))),
            Event(timestamp: 1, .callback(CallbackEvent(.viewDidAppear, .instant, controller: dashboard, animated: true))),
            Event(timestamp: 2, .mark(MarkEvent(MarkName.timerStart, controller: dashboard, fields: [MarkField("id", .string("refresh"))]))),
            Event(timestamp: 2 * s, .container(ContainerEvent(.present, container: dashboard, controllers: [popup], style: style))),
            Event(timestamp: 2 * s + 1, .callback(CallbackEvent(.viewWillAppear, .instant, controller: popup, animated: true))),
            Event(timestamp: 2 * s + 2, .callback(CallbackEvent(.viewDidAppear, .instant, controller: popup, animated: true))),
            Event(timestamp: 32 * s, .container(ContainerEvent(.dismiss, container: dashboard, controllers: [popup]))),
            Event(timestamp: 32 * s + 1, .callback(CallbackEvent(.viewWillDisappear, .instant, controller: popup, animated: true))),
            Event(timestamp: 32 * s + 2, .callback(CallbackEvent(.viewDidDisappear, .instant, controller: popup, animated: true))),
            Event(timestamp: 32 * s + 3, .callback(CallbackEvent(.deinitialize, .instant, controller: popup))),
        ]
    }

    @Test("sheets and over-full-screen presentations are judged; a popover or a custom one only when configured")
    func styles() throws {
        func rules(_ findings: [Finding]) -> [String] { findings.map(\.ruleID) }
        #expect(rules(try Auditor().audit(Self.covered(.formSheet))) == ["timer_under_sheet"])
        #expect(rules(try Auditor().audit(Self.covered(.overFullScreen))) == ["timer_under_sheet"])
        #expect(rules(try Auditor().audit(Self.covered(.popover))) == [])
        #expect(rules(try Auditor().audit(Self.covered(.custom))) == [])
        let json = #"{"rules": {"timer_under_sheet": {"styles": ["pageSheet", "popover"]}}}"#
        let configured = try Auditor(configuration: AuditConfiguration(json: Data(json.utf8), origin: "a.json", rules: BuiltinRules.all))
        #expect(rules(configured.audit(Self.covered(.popover))) == ["timer_under_sheet"])
        #expect(rules(configured.audit(Self.covered(.formSheet))) == [])
    }
}

@Suite("names parameters in the configuration file")
struct NamesParameterTests {
    @Test("an array of non-empty strings; anything else is an error naming the key; an empty list follows nothing")
    func parsing() throws {
        let single = try AuditConfiguration(json: Data(#"{"rules": {"analytics_overcount": {"screen_marks": ["screen_view"]}}}"#.utf8), origin: "a.json", rules: BuiltinRules.all)
        #expect(single.settings(for: AnalyticsOvercountRule.descriptor).names("screen_marks", default: []) == ["screen_view"])
        for bad in [#"[1]"#, #"[""]"#, #"true"#, #""screen_view""#] {
            let json = #"{"rules": {"analytics_overcount": {"screen_marks": "# + bad + "}}}"
            #expect(throws: ConfigurationError.self, "\(bad)") {
                try AuditConfiguration(json: Data(json.utf8), origin: "a.json", rules: BuiltinRules.all)
            }
            do {
                _ = try AuditConfiguration(json: Data(json.utf8), origin: "a.json", rules: BuiltinRules.all)
            } catch {
                #expect(error.keyPath == "rules.analytics_overcount.screen_marks", "\(error)")
            }
        }
        let empty = try AuditConfiguration(json: Data(#"{"rules": {"timer_under_sheet": {"start_marks": []}}}"#.utf8), origin: "a.json", rules: BuiltinRules.all)
        #expect(try Auditor(configuration: empty).audit(SeedMistakeRuleTests.events("timer-under-sheet")).isEmpty)
        let defaults = RuleSettings(defaultsOf: TimerUnderSheetRule.descriptor)
        #expect(defaults.names("start_marks", default: []) == ["timer.start"])
        #expect(defaults.names("stop_marks", default: []) == ["timer.stop"])
    }
}
