import AdapterCore
import Foundation
import LifetraceTestSupport
import Recorder
import Replay
import Synchronization
import Testing
import TraceModel

/// The adapter's decisions one by one: the main-thread guard, popTo slicing, the class filter, one fsync per
/// backgrounding, the deinit interval.
@Suite("Adapter decisions")
struct AdapterDecisionTests {
    static func payloads(_ app: FakeApp) throws -> [EventPayload] {
        try app.events().map(\.payload).filter {
            if case .recorder(.runStarted) = $0 { return false }
            return true
        }
    }

    @Test("off the main thread: the original runs, nothing is recorded but one note, no state is touched")
    func offMainThread() throws {
        let app = FakeApp()
        let list = FakeController("ListViewController")
        let nav = app.navigationController(root: list)
        let before = try Self.payloads(app).count
        app.ui.isMainThread = false
        var originals = 0
        let editor = FakeController("EditorViewController")
        app.adapter.push(nav, editor, animated: true) { originals += 1 }
        app.adapter.callback(editor, .viewDidLoad) { originals += 1 }
        app.adapter.selectTab(nav, index: 0) { originals += 1 }
        let popped: Int = app.adapter.pop(nav, animated: true) {
            originals += 1
            return 7
        }
        app.adapter.appTransition(.didEnterBackground, scene: nil)
        #expect(originals == 4)
        #expect(popped == 7)
        #expect(app.adapter.offMainCalls == 5)
        let added = try Self.payloads(app).dropFirst(before)
        #expect(added.count == 1)
        guard case .recorder(.note(let text)) = added.first else {
            Issue.record("expected a note, got \(String(describing: added.first))")
            return
        }
        #expect(text.contains("off the main thread"))
        #expect(app.recorder.registry.ref(for: ObjectIdentifier(editor)) == nil)
        // Back on the main thread, recording resumes.
        app.ui.isMainThread = true
        app.adapter.callback(editor, .viewDidLoad) {}
        #expect(app.recorder.registry.ref(for: ObjectIdentifier(editor)) != nil)
    }

    @Test("off-main calls from many threads at once never touch the adapter's state")
    func offMainConcurrently() throws {
        let app = FakeApp()
        app.ui.isMainThread = false
        let adapter = app.adapter
        let counted = Counter()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let controller = FakeController("C\(index)")
            for _ in 0..<500 {
                adapter.callback(controller, .viewWillAppear, animated: true) { counted.add() }
            }
        }
        #expect(counted.value == 4000)
        #expect(adapter.offMainCalls == 4000)
        let notes = try Self.payloads(app).filter {
            if case .recorder(.note) = $0 { return true }
            return false
        }
        #expect(notes.count == 1)
    }

    @Test("popToViewController slices the stack above the target, top first", arguments: [0, 1, 2, 3])
    func popToSlicing(target: Int) {
        let stack = (0..<4).map { FakeController("C\($0)") }
        let popped = Adapter<FakeUIKit>.popped(by: stack[target], from: stack).map(\.typeName)
        #expect(popped == Array(stack[(target + 1)...].reversed()).map(\.typeName))
        #expect(Adapter<FakeUIKit>.popped(by: FakeController("elsewhere"), from: stack).isEmpty)
    }

    @Test("the class filter leaves out UIKit's, SwiftUI's and excluded classes")
    func classFilter() {
        let filter = ClassFilter(excludedNameFragments: ["Legacy"])
        #expect(filter.instruments(className: "EditorViewController"))
        #expect(filter.instruments(className: "LifetraceHostingController<NoteView>"))
        for name in ["UINavigationController", "_UIAlertControllerShimPresenter", "UIHostingController<Text>",
            "NSObject", "_TtC7SwiftUI19UIHostingController", "LegacyEditorViewController"]
        {
            #expect(!filter.instruments(className: name), "\(name)")
        }
    }

    @Test("a scene-based app's backgrounding fsyncs once, not once per notification")
    func oneFsyncPerBackgrounding() throws {
        let app = FakeApp()
        let synced = app.sink.snapshot.syncCount
        app.adapter.appTransition(.willResignActive, scene: "main")
        app.adapter.appTransition(.willResignActive, scene: nil)
        app.adapter.appTransition(.didEnterBackground, scene: "main")
        app.adapter.appTransition(.didEnterBackground, scene: nil)
        #expect(app.sink.snapshot.syncCount == synced + 1)
        // Both were recorded, and written before the second returned.
        let backgrounds = app.sink.written.filter {
            if case .app(let event) = $0.payload { return event.transition == .didEnterBackground }
            return false
        }
        #expect(backgrounds.count == 2)
        // Anything recorded through the adapter in between makes the next backgrounding fsync again.
        app.adapter.appTransition(.willEnterForeground, scene: "main")
        app.adapter.callback(FakeController("A"), .viewDidLoad) {}
        app.adapter.appTransition(.didEnterBackground, scene: "main")
        #expect(app.sink.snapshot.syncCount == synced + 2)
    }

    @Test("deinit: an interval around the class's dealloc encloses a mark of the app's deinit body")
    func deinitEnclosesBody() throws {
        let app = FakeApp()
        let editor = FakeController("EditorViewController")
        app.adapter.callback(editor, .viewDidLoad) {}
        let key = ObjectIdentifier(editor)
        let ref = try #require(app.recorder.registry.ref(for: key))
        app.adapter.deallocate(key) {
            app.recorder.teardown(what: "observers", controller: ref)   // the app's deinit body
            app.adapter.controllerReleased(key: key, ref: ref)           // the sentinel, released last
        }
        var state = ReplayState()
        var attributed: ActiveCallback.Kind?
        for (ordinal, event) in try app.events().enumerated() {
            state.apply(event, ordinal: UInt64(ordinal))
            if case .mark = event.payload { attributed = state.enclosingCallback(of: ref)?.kind }
        }
        #expect(attributed == .controller(.deinitialize))
        #expect(state[ref]?.isAlive == false)
        #expect(app.recorder.registry.ref(for: key) == nil)
        let deinits = try app.events().filter {
            if case .callback(let callback) = $0.payload { return callback.callback == .deinitialize }
            return false
        }
        #expect(deinits.map(\.phase) == [Phase.begin, Phase.end])
    }

    @Test("deinit without an instrumented dealloc: the sentinel records the instant")
    func sentinelInstant() throws {
        let app = FakeApp()
        let editor = FakeController("EditorViewController")
        app.adapter.callback(editor, .viewDidLoad) {}
        let key = ObjectIdentifier(editor)
        let ref = try #require(app.recorder.registry.ref(for: key))
        app.adapter.controllerReleased(key: key, ref: ref)
        let deinits = try app.events().filter {
            if case .callback(let callback) = $0.payload { return callback.callback == .deinitialize }
            return false
        }
        #expect(deinits.map(\.phase) == [Phase.instant])
    }

    @Test("an override calling super is recorded once, around the override")
    func outermostOnly() throws {
        let app = FakeApp()
        let editor = FakeController("EditorViewController")
        app.adapter.callback(editor, .viewWillAppear, animated: true) {
            app.adapter.callback(editor, .viewWillAppear, animated: true) {}
        }
        let begins = try app.events().filter {
            if case .callback(let callback) = $0.payload { return callback.callback == .viewWillAppear && callback.phase == .begin }
            return false
        }
        #expect(begins.count == 1)
    }
}

/// A thread-safe counter for the concurrency test.
final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}
