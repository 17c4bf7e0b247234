// Apple-only adapters. Compiled only where UIKit and the Objective-C runtime exist; in the Linux build this
// module is empty, but CI type-checks it (Objective-C interop on) against declaration-only stand-ins for the
// Apple APIs it uses (tools/check-uikit, tools/uikit-stubs); it is never run there. Every decision about what to
// record is AdapterCore's `Adapter` (plain Swift, tested on Linux with fakes); this module only replaces UIKit's
// methods with wrappers that call it, and reads UIKit for it (`UIKitLive`).
#if canImport(UIKit) && canImport(ObjectiveC)
import AdapterCore
import ObjectiveC
import Recorder
import Synchronization
import TraceModel
import UIKit

/// One-line install of Lifetrace in an app: `LifetraceInstrumentation.install(recorder)` early in
/// `application(_:didFinishLaunchingWithOptions:)`.
///
/// What it does (docs/RECORDING.md, "Apple adapters", lists what is and is not captured, with sources):
/// - Replaces UIViewController's lifecycle methods, and each instrumented subclass's own overrides of them
///   the first time an instance reaches an instrumented method, with wrappers that call `Adapter`, which records
///   begin, **always calls the original implementation**, and records end (outermost level only).
/// - Replaces each instrumented subclass's own `dealloc`, so `deinit` is an interval enclosing the app's deinit
///   body; an associated-object sentinel records the `deinit` instant for controllers whose class is not.
/// - Records container operations (navigation, tab bar, page and split view controllers, the window's root,
///   presentation, containment), interactive transitions and their outcome, sheet swipe-downs (with the app's
///   `UIAdaptivePresentationControllerDelegate` methods), and app/scene notifications (one fsync per
///   backgrounding).
/// - Off the main thread, every wrapper only calls the original (see `Adapter`).
public enum LifetraceInstrumentation {
    static let shared = AtomicLazyReference<Adapter<UIKitLive>>()

    /// Installs the instrumentation, once; later calls with another recorder are ignored.
    ///
    /// - Parameters:
    ///   - recorder: Where events go.
    ///   - classFilter: Which subclasses' own overrides and `dealloc` are instrumented (by default the app's:
    ///     UIKit's, SwiftUI's and Foundation's classes are left alone).
    /// - Returns: `true` if this call installed it.
    @MainActor
    @discardableResult
    public static func install(_ recorder: Recorder, classFilter: ClassFilter = ClassFilter()) -> Bool {
        let adapter = Adapter(recorder: recorder, ui: UIKitLive(), classFilter: classFilter)
        guard shared.storeIfNil(adapter) === adapter else { return false }
        Swizzler.instrumentBaseClasses()
        AppObserver.start()
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

/// Records `deinit` when the controller it is attached to is deallocated, unless the controller's class's
/// instrumented `dealloc` records it as an interval (`Adapter.controllerReleased(key:ref:)`).
final class DeinitSentinel: NSObject {
    /// The association key: the address of a byte allocated once and never freed, stable for the process's
    /// lifetime (the pointer an `&variable` argument converts to is only guaranteed valid during that call).
    private nonisolated(unsafe) static let associationKey = UnsafeRawPointer(
        UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))
    let ref: ControllerRef
    let key: ObjectIdentifier

    init(ref: ControllerRef, key: ObjectIdentifier) {
        self.ref = ref
        self.key = key
    }

    /// Associated objects are released when their owner is deallocated (Apple, "objc_setAssociatedObject").
    @MainActor
    static func attach(to controller: UIViewController, ref: ControllerRef) {
        let sentinel = DeinitSentinel(ref: ref, key: ObjectIdentifier(controller))
        objc_setAssociatedObject(controller, associationKey, sentinel, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
    }

    deinit {
        LifetraceInstrumentation.shared.load()?.controllerReleased(key: key, ref: ref)
    }
}
#endif
