// Apple-only adapters. Compiled only where UIKit and the Objective-C runtime exist; in the Linux build this
// module is empty, but CI type-checks it (Objective-C interop on) against declaration-only stand-ins for the
// Apple APIs it uses (tools/check-uikit, tools/uikit-stubs); it is never run there. A thin layer over the Recorder's
// instrumentation entry points (`Recorder+UIKit.swift`), which the simulator and the Linux tests exercise.
#if canImport(UIKit) && canImport(ObjectiveC)
import ObjectiveC
import Recorder
import Synchronization
import TraceModel
import UIKit

/// One-line install of Lifetrace in an app: `LifetraceInstrumentation.install(recorder)` early in
/// `application(_:didFinishLaunchingWithOptions:)`.
///
/// What it does:
/// - Replaces the implementations of UIViewController's lifecycle methods (`loadView`, `viewDidLoad`,
///   `viewWillAppear(_:)`, `viewIsAppearing(_:)`, `viewWillLayoutSubviews`, `viewDidLayoutSubviews`,
///   `viewDidAppear(_:)`, `viewWillDisappear(_:)`, `viewDidDisappear(_:)`, `didReceiveMemoryWarning`,
///   `viewWillTransition(to:with:)`, `willMove(toParent:)`, `didMove(toParent:)`) with wrappers that record
///   `begin`, **always call the original implementation**, and record `end`. The base class is swizzled at
///   install; each subclass's own overrides (and its superclasses' up to UIViewController) are swizzled the
///   first time an instance of it reaches an instrumented implementation (usually the base `loadView`), so
///   later calls record an interval that encloses the app's override (and the marks it records) rather than
///   only the `super` call; the one call that triggers it, if it is an override, is recorded around its
///   `super` call only. A per-controller guard records only the outermost level when an override calls `super`.
/// - Registers each controller (serial) the first time one of its instrumented methods runs, recording an
///   `init` instant then, and attaches an associated-object sentinel whose deinit records the controller's
///   `deinit` and releases its serial (associated objects are released when their owner is deallocated: Apple,
///   "objc_setAssociatedObject"). Initializers are deliberately not swizzled: `init` methods consume `self`
///   and return a +1 reference (ARC's init family), which a block-based replacement cannot honour safely.
///   Consequence: a view loaded inside `init` shows `init` at the first `loadView`, not around it.
/// - Records interactive transition outcomes: when an appearance callback runs under an interactive
///   `transitionCoordinator`, it records `interactiveTransitionBegin` and registers
///   `notifyWhenInteractionChanges(_:)`, which reports `isCancelled` when the finger lifts (Apple:
///   "UIViewControllerTransitionCoordinator"), so a cancelled swipe-back is recorded, not inferred.
/// - Records container operations from UINavigationController push/pop/setViewControllers, present/dismiss,
///   addChild/removeFromParent and UITabBarController selection.
/// - Observes UIApplication and UIScene life-cycle notifications (posted around the delegate callbacks; Apple:
///   "Managing your app's life cycle"), which also drive the recorder's flush policy (fsync on background).
public enum LifetraceInstrumentation {
    static let shared = AtomicLazyReference<InstrumentationState>()

    /// Installs the instrumentation, once; later calls with another recorder are ignored.
    ///
    /// - Returns: `true` if this call installed it.
    @MainActor
    @discardableResult
    public static func install(_ recorder: Recorder) -> Bool {
        let state = InstrumentationState(recorder: recorder)
        guard shared.storeIfNil(state) === state else { return false }
        Swizzler.instrumentBaseClasses()
        AppObserver.start(recorder: recorder)
        return true
    }

    /// The installed recorder, if any.
    public static var recorder: Recorder? { shared.load()?.recorder }

    /// The reference of `controller` (registering it if the adapters have not seen it yet).
    @MainActor
    public static func ref(for controller: UIViewController) -> ControllerRef? {
        shared.load()?.ref(for: controller)
    }
}

/// Recorder plus the per-controller guard against recording nested `super` calls twice. Main thread only,
/// like the UIKit methods it wraps.
@MainActor
final class InstrumentationState {
    nonisolated let recorder: Recorder
    /// Active callbacks per controller: bit `Callback.rawValue` set while its outermost wrapper runs.
    private var active: [ObjectIdentifier: UInt32] = [:]

    nonisolated init(recorder: Recorder) {
        self.recorder = recorder
    }

    /// The controller's reference; on first sight registers it, records its `init` instant, instruments its
    /// class (so later calls wrap its own overrides) and attaches the deinit sentinel.
    func ref(for controller: UIViewController) -> ControllerRef {
        let key = ObjectIdentifier(controller)
        if let ref = recorder.registry.ref(for: key) { return ref }
        let declared: AnyClass = Self.declaredClass(of: controller)
        let ref = recorder.registry.register(key: key, typeName: String(describing: declared))
        recorder.record(.initialize, .instant, ref)
        DeinitSentinel.attach(to: controller, ref: ref, key: key, recorder: recorder)
        Swizzler.instrumentSubclass(declared)
        return ref
    }

    /// The controller's class as the app declares it. Key-value observing an object replaces its class pointer
    /// with a subclass made at run time, `NSKVONotifying_` + the class's name (Apple, "Key-Value Observing
    /// Implementation Details": "the value of the isa pointer does not necessarily reflect the actual class of the
    /// instance. You should never rely on the isa pointer to determine class membership"); `type(of:)` reads that
    /// pointer, so a controller observed before Lifetrace first saw it was recorded as
    /// `NSKVONotifying__TtC5MyApp16EditorController`. Those subclasses are skipped (their superclass is the
    /// observed class), for the type name and for the class to instrument.
    nonisolated static func declaredClass(of controller: UIViewController) -> AnyClass {
        var cls: AnyClass = type(of: controller)
        while String(describing: cls).hasPrefix("NSKVONotifying_"), let superclass = class_getSuperclass(cls) {
            cls = superclass
        }
        return cls
    }

    /// Runs `original` inside a recorded `callback` interval unless one is already open for this controller.
    func wrap(
        _ controller: UIViewController, _ callback: Callback, animated: Bool? = nil, parent: ParentArgument? = nil,
        size: Size? = nil, original: () -> Void
    ) {
        let key = ObjectIdentifier(controller)
        let bit = UInt32(1) << UInt32(callback.rawValue)
        let current = active[key] ?? 0
        guard current & bit == 0 else {
            original()
            return
        }
        active[key] = current | bit
        defer {
            let remaining = (active[key] ?? 0) & ~bit
            active[key] = remaining == 0 ? nil : remaining
        }
        let ref = ref(for: controller)
        recorder.withCallback(callback, ref, animated: animated, parent: parent, size: size, body: original)
    }
}

/// Records `deinit` when the controller it is attached to is deallocated.
final class DeinitSentinel: NSObject {
    /// The association key: the address of a byte allocated once and never freed, stable for the process's
    /// lifetime (the pointer an `&variable` argument converts to is only guaranteed valid during that call).
    private nonisolated(unsafe) static let associationKey = UnsafeRawPointer(
        UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))
    let ref: ControllerRef
    let key: ObjectIdentifier
    let recorder: Recorder

    init(ref: ControllerRef, key: ObjectIdentifier, recorder: Recorder) {
        self.ref = ref
        self.key = key
        self.recorder = recorder
    }

    static func attach(to controller: UIViewController, ref: ControllerRef, key: ObjectIdentifier, recorder: Recorder) {
        let sentinel = DeinitSentinel(ref: ref, key: key, recorder: recorder)
        objc_setAssociatedObject(controller, associationKey, sentinel, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
    }

    deinit {
        recorder.controllerDeinit(ref, key: key)
    }
}
#endif
