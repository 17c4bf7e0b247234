import Recorder
import Synchronization
import TraceModel

/// Every decision the iOS adapter makes about what to record, in plain Swift over a `UIKitSurface`.
///
/// `LifetraceUIKit` replaces UIKit's methods with wrappers that call one entry point here each, passing the
/// original implementation as `original`; the Linux tests drive the same entry points with fakes, in the call
/// orders UIKit makes (docs/RECORDING.md). Every entry point **always calls `original` exactly once** and
/// returns its result.
///
/// Threads: UIKit calls these methods on the main thread. Every entry point first checks
/// `UIKitSurface.isMainThread`; off the main thread it calls `original`, records nothing about the call, and
/// the first such call records a `RecorderEvent.note` saying so (Sentry shipped a crash from swizzling off the
/// main thread and ignores off-main initializers since: getsentry/sentry-cocoa#1366, #1371, #8687). All
/// mutable state below is read and written only past that check, on the main thread; that is why the class
/// can be `@unchecked Sendable` (the Apple layer keeps one in a global). The recorder itself is thread-safe.
public final class Adapter<UI: UIKitSurface>: @unchecked Sendable {
    public let recorder: Recorder
    public let ui: UI
    /// Classes whose own overrides are instrumented (read by the Apple layer).
    public let classFilter: ClassFilter

    /// Calls that arrived off the main thread (any thread may increment it).
    private let offMainCount = Atomic<Int>(0)

    // Main thread only, past the `isMainThread` check of every entry point.
    /// Active callbacks per controller: bit `Callback.rawValue` set while its outermost wrapper runs.
    var active: [ObjectIdentifier: UInt64] = [:]
    /// Controllers inside their instrumented `dealloc`.
    var deallocating: Set<ObjectIdentifier> = []
    /// Tab selection setters running (either setter; one selection is recorded once, whichever calls which).
    var selectingTab = 0
    /// `setViewControllers` calls running per page controller (no page scroll is inferred inside them).
    var settingPages: [ObjectIdentifier: Int] = [:]
    /// Transition coordinators followed, by identity.
    var transitions: [ObjectIdentifier: TrackedTransition] = [:]
    /// A swipe-back whose begin was recorded at its `popViewController(animated:)`: navigation controller →
    /// the popped controller, until its coordinator is seen.
    var pendingInteractivePops: [ObjectIdentifier: ObjectIdentifier] = [:]
    /// Page scrolls under way, by page controller.
    var pageScrolls: [ObjectIdentifier: PageScroll] = [:]
    /// Sheet swipe-downs under way, by sheet.
    var sheetDismissals: [ObjectIdentifier: SheetDismissal] = [:]
    /// A didEnterBackground (app or scene) was written and fsynced, and the adapter has recorded nothing since.
    var backgroundSynced = false

    public init(recorder: Recorder, ui: UI, classFilter: ClassFilter = ClassFilter()) {
        self.recorder = recorder
        self.ui = ui
        self.classFilter = classFilter
    }

    /// How many calls arrived off the main thread and were passed through unrecorded.
    public var offMainCalls: Int { offMainCount.load(ordering: .relaxed) }

    /// `true` on the main thread. Off it: counts the call, records the one-time diagnostic, and returns `false`
    /// (the caller then only calls the original).
    @inline(__always)
    func admit(_ what: @autoclosure () -> String) -> Bool {
        if ui.isMainThread { return true }
        let previous = offMainCount.add(1, ordering: .relaxed).oldValue
        if previous == 0 {
            recorder.note(
                "LifetraceUIKit: \(what()) was called off the main thread; it and every later off-main call are "
                    + "passed to UIKit unrecorded")
        }
        return false
    }

    /// The controller's reference; on first sight registers it, records its `init` instant and tells the surface
    /// (`UIKitSurface.didRegister`). Main thread only.
    public func ref(for controller: UI.Controller) -> ControllerRef {
        let key = ObjectIdentifier(controller)
        if let ref = recorder.registry.ref(for: key) { return ref }
        let ref = recorder.registry.register(key: key, typeName: ui.typeName(of: controller))
        recorder.record(.initialize, .instant, ref)
        ui.didRegister(controller, as: ref)
        return ref
    }

    /// Something other than an app transition is being recorded (ends "nothing since the background fsync").
    @inline(__always)
    func noteActivity() {
        if backgroundSynced { backgroundSynced = false }
    }

    // MARK: Callbacks

    /// A lifecycle method of `controller` (`loadView`, `viewDidLoad`, the appearance and layout methods,
    /// `didReceiveMemoryWarning`, `viewWillTransition(to:with:)`): records `callback` around `original` unless
    /// an interval of the same callback is already open on this controller (an override calling `super`).
    ///
    /// Before `viewWillAppear`/`viewWillDisappear` it follows the controller's transition coordinator (see
    /// `observeTransition(of:)`); around the appearance callbacks of a page controller's pages it infers page
    /// scrolls (see `Adapter+Pages.swift`).
    ///
    /// - Parameters:
    ///   - animated: The `animated` argument, for the appearance callbacks.
    ///   - size: The size argument of `viewWillTransition(to:with:)`, in points.
    public func callback<R>(
        _ controller: UI.Controller, _ callback: Callback, animated: Bool? = nil, size: Size? = nil,
        original: () -> R
    ) -> R {
        guard admit(callback.name) else { return original() }
        return interval(controller, callback, animated: animated, parent: nil, size: size, original: original)
    }

    /// `willMove(toParent:)` or `didMove(toParent:)` of `controller`; `parent == nil` is a removal.
    public func move<R>(
        _ controller: UI.Controller, _ callback: Callback, toParent parent: UI.Controller?, original: () -> R
    ) -> R {
        guard admit(callback.name) else { return original() }
        let argument: ParentArgument = parent.map { .controller(ref(for: $0)) } ?? .none
        return interval(controller, callback, animated: nil, parent: argument, size: nil, original: original)
    }

    /// The outermost-only interval of `callback` on `controller`, with the transition and page-scroll
    /// bookkeeping of the appearance callbacks.
    private func interval<R>(
        _ controller: UI.Controller, _ callback: Callback, animated: Bool?, parent: ParentArgument?, size: Size?,
        original: () -> R
    ) -> R {
        let key = ObjectIdentifier(controller)
        let bit = UInt64(1) << UInt64(callback.rawValue & 63)
        let current = active[key] ?? 0
        guard current & bit == 0 else { return original() }
        noteActivity()
        let ref = ref(for: controller)
        switch callback {
        case .viewWillAppear, .viewWillDisappear:
            observeTransition(of: controller)
            inferPageScroll(controller, ref, callback)
        case .viewDidAppear, .viewDidDisappear:
            inferPageScroll(controller, ref, callback)
        default:
            break
        }
        active[key] = current | bit
        defer {
            let remaining = (active[key] ?? 0) & ~bit
            active[key] = remaining == 0 ? nil : remaining
        }
        return recorder.withCallback(callback, ref, animated: animated, parent: parent, size: size, body: original)
    }
}
