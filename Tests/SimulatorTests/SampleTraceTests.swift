import Foundation
import Replay
import Simulator
import Testing
import TraceModel

/// The sample scenarios under traces/scenarios: each runs, replays without protocol anomalies, matches its
/// committed callback order (traces/NAME.txt), and shows the situation it is named after.
@Suite("Sample traces")
struct SampleTraceTests {
    static var scenarios: URL { Run.repositoryRoot.appendingPathComponent("traces/scenarios") }

    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: scenarios.path)) ?? []
        return files.filter { $0.hasSuffix(".scenario") }.map { String($0.dropLast(".scenario".count)) }.sorted()
    }()

    static func run(_ name: String) throws -> (events: [Event], markers: [StepMarker]) {
        let text = try String(contentsOf: scenarios.appendingPathComponent("\(name).scenario"), encoding: .utf8)
        let collector = EventCollector()
        let markers = try Simulator.run(text: text, file: "\(name).scenario", into: collector)
        return (collector.events, markers)
    }

    /// Each mark with the callback it ran in (`Type.callback`, or nil outside callbacks).
    static func marks(_ events: [Event]) -> [(mark: MarkEvent, in: String?)] {
        var stack: [String] = []
        var result: [(MarkEvent, String?)] = []
        for event in events {
            switch event.payload {
            case .callback(let callback):
                if callback.phase == .begin { stack.append("\(callback.controller.typeName).\(callback.callback.name)") }
                if callback.phase == .end { stack.removeLast() }
            case .mark(let mark) where mark.phase != .end:
                result.append((mark, stack.last))
            default: break
            }
        }
        return result
    }

    static func callbacks(_ events: [Event], _ type: String) -> [String] {
        Run.order(events, excluding: [], only: [type]).map { String($0.dropFirst(type.count + 1)) }
    }

    @Test("there is a scenario for every §2 row and every seed mistake")
    func coverage() {
        let expected = [
            "push", "pop-back-button", "swipe-back-finished", "swipe-back-cancelled", "present-full-screen",
            "present-sheet-styles", "sheet-swipe-down", "tab-switch", "page-scroll", "child-containment",
            "view-is-appearing", "app-background", "swiftui-hosting", "cancelled-swipe-back-save",
            "observer-never-removed", "orphan-child", "view-touched-in-init", "expensive-layout",
            "geometry-in-will-appear", "retain-cycle", "timer-under-sheet", "onappear-analytics",
        ]
        #expect(Set(expected).isSubset(of: Set(Self.names)), "missing: \(Set(expected).subtracting(Self.names))")
    }

    @Test("each sample replays without protocol anomalies and matches its committed callback order", arguments: names)
    func replaysCleanly(name: String) throws {
        let (events, markers) = try Self.run(name)
        var state = ReplayState()
        for (ordinal, event) in events.enumerated() { state.apply(event, ordinal: UInt64(ordinal)) }
        #expect(state.diagnostics.isEmpty, "\(state.diagnostics)")
        let committed = Run.repositoryRoot.appendingPathComponent("traces/\(name).txt")
        let text = try String(contentsOf: committed, encoding: .utf8)
        let printed = CallbackOrderPrinter.lines(events, steps: markers).joined(separator: "\n") + "\n"
        #expect(text == printed, "traces/\(name).txt is stale: run tools/generate-traces")
    }

    @Test("cancelled swipe-back: the critical save ran in viewWillDisappear, the editor never disappeared")
    func cancelledSave() throws {
        let (events, _) = try Self.run("cancelled-swipe-back-save")
        let saves = Self.marks(events).filter { $0.mark.name == "save" }
        #expect(saves.map(\.in) == ["NoteEditorViewController.viewWillDisappear"])
        #expect(saves.first?.mark.isCritical == true)
        #expect(!Self.callbacks(events, "NoteEditorViewController").contains("viewDidDisappear"))
    }

    @Test("observer never removed: added in viewDidLoad, the controller deinits with it still registered")
    func observer() throws {
        let (events, _) = try Self.run("observer-never-removed")
        let names = Self.marks(events).map(\.mark.name)
        #expect(names == ["observer.add"])
        #expect(Self.callbacks(events, "CommentViewController").last == "deinit")
    }

    @Test("orphan child: its view is attached without addChild and it gets no appearance or containment callbacks")
    func orphan() throws {
        let (events, _) = try Self.run("orphan-child")
        let chart = Self.callbacks(events, "ChartViewController")
        #expect(!chart.contains { ["viewWillAppear", "viewDidAppear", "viewWillDisappear"].contains($0) || $0.hasPrefix("willMove") || $0.hasPrefix("didMove") })
        #expect(Self.callbacks(events, "StatsViewController").contains("viewWillDisappear"))
        #expect(chart.contains("viewDidLayoutSubviews"))
        let operations = events.compactMap { if case .container(let c) = $0.payload, c.controllers.first?.typeName == "ChartViewController" { c.operation } else { nil } }
        #expect(operations == [.attachView])
    }

    @Test("view touched in init: loadView and viewDidLoad run inside init")
    func viewInInit() throws {
        let (events, _) = try Self.run("view-touched-in-init")
        var insideInit = false
        var loadedInsideInit: [Callback] = []
        for event in events {
            guard case .callback(let callback) = event.payload, callback.controller.typeName == "SettingsViewController" else { continue }
            if callback.callback == .initialize { insideInit = callback.phase == .begin }
            if insideInit, callback.phase == .begin, callback.callback != .initialize { loadedInsideInit.append(callback.callback) }
        }
        #expect(loadedInsideInit == [.loadView, .viewDidLoad])
    }

    @Test("expensive layout: a 45 ms work interval inside every viewDidLayoutSubviews")
    func expensiveLayout() throws {
        let (events, _) = try Self.run("expensive-layout")
        let work = Self.marks(events).filter { $0.mark.name == "work" }
        #expect(work.count >= 4)
        #expect(work.allSatisfy { $0.in == "ReportViewController.viewDidLayoutSubviews" })
        var begins: [UInt64] = []
        var durations: [UInt64] = []
        for event in events {
            guard case .mark(let mark) = event.payload, mark.name == "work" else { continue }
            if mark.phase == .begin { begins.append(event.timestamp) } else { durations.append(event.timestamp - begins.removeLast()) }
        }
        #expect(durations.allSatisfy { $0 >= 45_000_000 })
    }

    @Test("geometry read in viewWillAppear sees the design size, not the window's")
    func geometry() throws {
        let (events, _) = try Self.run("geometry-in-will-appear")
        let reads = Self.marks(events).filter { $0.mark.name == "geometry.read" }
        #expect(reads.map(\.in) == ["MapViewController.viewWillAppear"])
        #expect(reads.first?.mark[field: "width"]?.doubleValue == 375)
    }

    @Test("retain cycle: popped, never deinitialized")
    func retainCycle() throws {
        let (events, _) = try Self.run("retain-cycle")
        let story = Self.callbacks(events, "StoryViewController")
        #expect(story.filter { $0 == "didMove(nil)" }.count == 2)
        #expect(story.filter { $0 == "didMove(UINavigationController)" }.count == 2)
        #expect(!story.contains("deinit"))
    }

    @Test("timer under a sheet: started, the sheet covers the dashboard for 30 s, never stopped")
    func timerUnderSheet() throws {
        let (events, _) = try Self.run("timer-under-sheet")
        #expect(Self.marks(events).map(\.mark.name) == ["timer.start"])
        #expect(!Self.callbacks(events, "DashboardViewController").contains("viewDidDisappear"))
    }

    @Test("onAppear analytics: counted more often than the screen appeared")
    func analytics() throws {
        let (events, _) = try Self.run("onappear-analytics")
        let screens = Self.marks(events).filter { $0.mark.name == "analytics.screen" }.count
        let appearances = Self.callbacks(events, "FeedHostingController").filter { $0 == "viewDidAppear" }.count
        #expect(screens == 4)
        #expect(appearances == 2)
    }
}
