import Foundation
import Simulator
import Testing
import TraceModel

/// The simulated orders against the real logs in Tests/Fixtures/cases (their README has the table): each
/// scenario re-enacts a log's situation with the log's class names, and the sequence of load and appearance
/// callbacks must be the log's.
@Suite("Real logs")
struct RealLogTests {
    /// `Class.callback` for each load/appearance/deinit line of a console log; instance labels (`<0>`) and
    /// serials are renamed by first appearance (`Class~1`, `Class~2`) so both sides compare.
    static func logOrder(_ file: String) throws -> [String] {
        let url = Run.fixtures.appendingPathComponent("cases").appendingPathComponent(file)
        let text = try String(contentsOf: url, encoding: .utf8)
        let callbacks: [String: String] = [
            "loadView": "loadView", "viewDidLoad": "viewDidLoad", "viewWillAppear": "viewWillAppear",
            "viewDidAppear": "viewDidAppear", "viewWillDisappear": "viewWillDisappear",
            "viewDidDisappear": "viewDidDisappear", "dealloc": "deinit", "deinit": "deinit",
        ]
        var result: [(String, String)] = []
        for line in text.split(separator: "\n") {
            let words = line.split { " |()[]:".contains($0) }.map(String.init)
            guard let callbackIndex = words.firstIndex(where: { callbacks[$0] != nil }) else { continue }
            guard let type = words[..<callbackIndex].last(where: { $0.contains("ViewController") }) else { continue }
            result.append((type, callbacks[words[callbackIndex]]!))
        }
        return canonical(result)
    }

    static func simulatedOrder(_ events: [Event]) -> [String] {
        let kept: Set<Callback> = [.loadView, .viewDidLoad, .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .deinitialize]
        var result: [(String, String)] = []
        for event in events {
            guard case .callback(let callback) = event.payload, callback.phase == .begin, kept.contains(callback.callback) else { continue }
            result.append((callback.controller.displayName, callback.callback.name))
        }
        return canonical(result)
    }

    /// Renames instances per type by first appearance: `PhotoPageViewController<1>` → `PhotoPageViewController~2`.
    static func canonical(_ pairs: [(String, String)]) -> [String] {
        var names: [String: String] = [:]
        var counts: [String: Int] = [:]
        return pairs.map { instance, callback in
            if names[instance] == nil {
                let type = String(instance.prefix { $0 != "<" && $0 != "#" })
                counts[type, default: 0] += 1
                names[instance] = "\(type)~\(counts[type]!)"
            }
            return "\(names[instance]!).\(callback)"
        }
    }

    static func simulate(_ text: String) throws -> [Event] {
        let collector = EventCollector()
        try Simulator.run(text: text, into: collector)
        return collector.events
    }

    /// Drops the simulated events before the log starts (the log begins mid-session).
    static func suffix(_ simulated: [String], matching log: [String]) -> [String] {
        Array(simulated.suffix(log.count))
    }

    @Test("01: cancelled swipe-back, the editor's order")
    func cancelledPop() throws {
        let log = try Self.logOrder("01-cancelled-pop-save.log")
        let events = try Self.simulate("""
            at 0s   root nav: UINavigationController(list: NotesListViewController)
            at 2.1s push editor: NoteEditorViewController on nav
            at 5.9s begin-swipe-back nav
            at 6.3s cancel-swipe-back nav
            """)
        let simulated = Self.simulatedOrder(events).filter { !$0.hasPrefix("UINavigationController") && !$0.hasSuffix(".loadView") }
        #expect(simulated == log)
    }

    @Test("02: push then pop with deallocation")
    func pushPop() throws {
        let log = try Self.logOrder("02-push-pop-dealloc.log")
        let events = try Self.simulate("""
            at 0s   root nav: UINavigationController(catalog: CatalogViewController)
            at 1s   push detail: ProductDetailViewController on nav
            at 3s   pop nav
            """)
        #expect(Self.suffix(Self.simulatedOrder(events), matching: log) == log)
    }

    @Test("03: a page sheet swiped down; the presenter gets nothing")
    func sheet() throws {
        let events = try Self.simulate("""
            at 0s   root dashboard: DashboardViewController
            at 1s   present filters: FiltersViewController from dashboard as pageSheet
            at 3s   swipe-down filters
            """)
        var order: [String] = []
        for event in events {
            switch event.payload {
            case .callback(let c) where c.phase == .begin && c.controller.typeName == "FiltersViewController"
                && [.viewDidLoad, .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear, .deinitialize].contains(c.callback):
                order.append(c.callback.name)
            case .container(let c) where c.operation == .presentationControllerWillDismiss || c.operation == .presentationControllerDidDismiss:
                order.append(c.operation.name)
            default: break
            }
        }
        // Real log 03, the [Filters] lines in order.
        #expect(order == [
            "viewDidLoad", "viewWillAppear", "viewDidAppear", "presentationControllerWillDismiss", "viewWillDisappear",
            "viewDidDisappear", "presentationControllerDidDismiss", "deinit",
        ])
        let dashboardAfterPresent = Self.simulatedOrder(Array(events.drop { event in
            if case .container(let c) = event.payload { return c.operation != .present }
            return true
        })).filter { $0.hasPrefix("DashboardViewController") }
        #expect(dashboardAfterPresent.isEmpty)
    }

    @Test("06: tab switch")
    func tabSwitch() throws {
        let log = try Self.logOrder("06-tab-switch.log")
        let events = try Self.simulate("""
            at 0s   root tabs: UITabBarController(inbox: InboxViewController, contacts: ContactsViewController)
            at 6.7s select-tab tabs contacts
            """)
        let simulated = Self.simulatedOrder(events).filter { !$0.hasPrefix("UITabBarController") && !$0.hasSuffix(".loadView") }
        #expect(simulated == log)
    }

    @Test("07: page scroll started and cancelled, two instances of one class")
    func pageCancelled() throws {
        let log = try Self.logOrder("07-page-scroll-cancelled.log")
        let events = try Self.simulate("""
            at 0s   root pages: UIPageViewController(p0: PhotoPageViewController)
            at 3s   begin-scroll pages to p1: PhotoPageViewController
            at 3.4s cancel-scroll pages
            """)
        let simulated = Self.simulatedOrder(events).filter {
            !$0.hasPrefix("UIPageViewController") && !$0.hasSuffix(".loadView") && !$0.hasSuffix(".deinit")
        }
        // The log starts at p0's viewWillAppear (its viewDidLoad happened before the log).
        #expect(Array(simulated.drop { $0 == "PhotoPageViewController~1.viewDidLoad" }) == log)
    }

    @Test("08: popped but never deinitialized (a retain cycle)")
    func retainCycle() throws {
        let log = try Self.logOrder("08-popped-never-deinit.log")
        let events = try Self.simulate("""
            class StoryViewController
                viewDidLoad: capture-self
            at 0s    root nav: UINavigationController(feed: FeedViewController)
            at 3.12s push story: StoryViewController on nav
            at 9s    pop nav
            at 30s   present other: OtherViewController from nav as fullScreen
            """)
        let simulated = Self.simulatedOrder(events).filter { $0.hasPrefix("FeedViewController") || $0.hasPrefix("StoryViewController") }
            .filter { !$0.hasSuffix(".loadView") }
        #expect(Self.suffix(simulated, matching: log) == log)
        #expect(!simulated.contains("StoryViewController~1.deinit"))
    }
}
