import TraceModel

/// Everything the trace says about one controller at an instant.
///
/// Related controllers are named by serial (`ControllerRef.serial`); look them up in `ReplayState.controllers`.
/// Fields that a trace may not tell (imported console logs have callbacks only) say so: `appearance` is
/// `unknown` until the first appearance callback settles it, `parent` is `.unknown`, `viewControllers` is `nil`,
/// and `isStructureKnown` is `false`.
public struct ControllerState: Sendable, Hashable {
    public var ref: ControllerRef
    /// The first event that named the controller: timestamp (ns) and ordinal.
    public var firstSeen: UInt64
    public var firstOrdinal: UInt64
    /// `init` was recorded, so everything about the controller since its creation is in the trace.
    public var isCreatedInTrace: Bool
    /// The children, parent and presentation links are complete (created in the trace) rather than partial.
    public var isStructureKnown: Bool

    /// `loadView`, `viewDidLoad` or any appearance or layout callback was seen, and no `viewDidUnload` since.
    public var isViewLoaded: Bool
    /// How many times viewDidLoad began since the view was last unloaded (`viewDidUnload`, iOS 3–5) or since the
    /// controller was first seen; more than once is a `duplicateViewDidLoad` diagnostic. An unload starts the
    /// count again: UIKit loads the view again on its next access, and viewDidLoad with it (Apple,
    /// `viewDidUnload()`).
    public var viewDidLoadCount: UInt32

    public var appearance: Appearance
    /// When the current `appearance` began (ns), `nil` while `unknown`.
    public var appearanceSince: UInt64?

    /// Callbacks executing now, outermost first (callbacks nest: loadView inside init, for example).
    public var callbacks: [ActiveCallback]

    public var parent: ParentLink
    /// Child controllers in the order they were added (serials).
    public var children: [UInt32]
    /// The controller that presented this one (`presentingViewController`), while presented.
    public var presentingController: UInt32?
    /// The controller this one presents (`presentedViewController`), while presenting.
    public var presentedController: UInt32?
    /// The style this controller was presented with, while presented.
    public var presentationStyle: ModalPresentationStyle?

    /// Container kind inferred from the operations on it.
    public var containerKind: ContainerKind
    /// Navigation stack (bottom first), tabs or pages, as `setRoot`/`setViewControllers`/`push`/`pop` left
    /// them; `nil` when never seen.
    public var viewControllers: [UInt32]?
    /// `false` when the list was built from pushes only, without a `setViewControllers` or `setRoot` telling
    /// its bottom: controllers below the first push are unknown.
    public var isViewControllerListComplete: Bool
    /// The selected tab (`selectTab`), if any.
    public var selectedController: UInt32?
    public var selectedIndex: Int?
    /// The controller whose view this controller's view was added to (`attachView`), while attached.
    public var viewAttachedTo: UInt32?

    /// Timers, observers, tasks and requests started and not stopped, in start order.
    public var resources: [LiveResource]
    /// Keys edited and not saved since, in first-edit order.
    public var unsaved: [UnsavedEdit]
    /// SwiftUI views hosted by this controller, in first-seen order.
    public var swiftUIViews: [SwiftUIViewState]

    /// The latest removal from a container or presenter; cleared when the controller is added again.
    public var removal: Removal?
    /// When `deinit` began (ns) and its ordinal; `nil` while alive.
    public var deinitTime: UInt64?
    public var deinitOrdinal: UInt64?
    /// When the controller's process ended while it was alive (ns) and the ordinal of the event that showed it
    /// (a later `RecorderEvent.runStarted`: the app was killed or crashed, so no deinit ever came); `nil`
    /// otherwise. Distinct from `deinitTime`: the controller was never deallocated, its process went away.
    public var processEndTime: UInt64?
    public var processEndOrdinal: UInt64?

    /// No deinit seen yet, and its process has not ended (`processEndTime`).
    public var isAlive: Bool { deinitTime == nil && processEndTime == nil }

    /// The controller's process ended while it was alive (see `processEndTime`).
    public var endedWithProcess: Bool { processEndTime != nil }

    /// The innermost callback executing on this controller, if any.
    public var currentCallback: ActiveCallback? { callbacks.last }
}

extension ControllerState {
    /// A controller first seen at `time` by the event with `ordinal`, about which nothing else is known yet.
    ///
    /// In an extension, so that the struct keeps its memberwise initializer, which this one calls: assigned field
    /// by field, the record was built in a temporary, copied (a retain of each of its buffers) and the temporary
    /// destroyed, ≈ 770 instructions per first sight in the fold.
    @inline(__always)
    public init(ref: ControllerRef, firstSeen time: UInt64, ordinal: UInt64) {
        self.init(
            ref: ref, firstSeen: time, firstOrdinal: ordinal, isCreatedInTrace: false, isStructureKnown: false, isViewLoaded: false,
            viewDidLoadCount: 0, appearance: .unknown, appearanceSince: nil, callbacks: [], parent: .unknown, children: [],
            presentingController: nil, presentedController: nil, presentationStyle: nil, containerKind: .unknown, viewControllers: nil,
            isViewControllerListComplete: false, selectedController: nil, selectedIndex: nil, viewAttachedTo: nil, resources: [],
            unsaved: [], swiftUIViews: [], removal: nil, deinitTime: nil, deinitOrdinal: nil, processEndTime: nil, processEndOrdinal: nil
        )
    }
}

extension ControllerState {
    /// Makes this record equal to `ControllerState(ref:firstSeen:ordinal:)`, keeping the capacity of its arrays
    /// (`ControllerTable.insertNew` reuses a removed record this way instead of freeing its buffers and
    /// allocating new ones). Every stored property is set here: a property added to the struct must be added
    /// here too (`ControllerTableTests` compares a reused record with a new one).
    @inline(__always)
    mutating func reset(ref: consuming ControllerRef, firstSeen time: UInt64, ordinal: UInt64) {
        self.ref = ref
        firstSeen = time
        firstOrdinal = ordinal
        isCreatedInTrace = false
        isStructureKnown = false
        isViewLoaded = false
        viewDidLoadCount = 0
        appearance = .unknown
        appearanceSince = nil
        if !callbacks.isEmpty { callbacks.removeAll(keepingCapacity: true) }
        parent = .unknown
        if !children.isEmpty { children.removeAll(keepingCapacity: true) }
        presentingController = nil
        presentedController = nil
        presentationStyle = nil
        containerKind = .unknown
        viewControllers = nil
        isViewControllerListComplete = false
        selectedController = nil
        selectedIndex = nil
        viewAttachedTo = nil
        if !resources.isEmpty { resources.removeAll(keepingCapacity: true) }
        if !unsaved.isEmpty { unsaved.removeAll(keepingCapacity: true) }
        if !swiftUIViews.isEmpty { swiftUIViews.removeAll(keepingCapacity: true) }
        removal = nil
        deinitTime = nil
        deinitOrdinal = nil
        processEndTime = nil
        processEndOrdinal = nil
    }
}
