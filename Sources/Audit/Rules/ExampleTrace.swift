import TraceModel

/// Builds the small example traces of the rule descriptors: each step is 10 ms after the previous one unless
/// `wait` says otherwise.
struct ExampleTrace {
    private(set) var events: [Event] = []
    private(set) var now: UInt64 = 0
    var step: UInt64 = 10_000_000

    static func controller(_ serial: UInt32, _ typeName: String) -> ControllerRef {
        ControllerRef(serial: serial, typeName: typeName)
    }

    private mutating func append(_ payload: EventPayload) {
        if !events.isEmpty { now += step }
        events.append(Event(timestamp: now, payload))
    }

    /// A new recording run (`RecorderEvent.runStarted`): the previous process ended without a trace (killed).
    mutating func runStarted(_ process: String) {
        append(.recorder(.runStarted(process: process)))
    }

    /// Moves the clock forward by `seconds` (on top of the usual step before the next event).
    mutating func wait(_ seconds: Double) {
        now += UInt64((seconds * 1e9).rounded())
    }

    mutating func callback(_ callback: Callback, _ controller: ControllerRef, _ phase: Phase = .instant, parent: ParentArgument? = nil) {
        let animated: Bool? = callback.takesAnimated ? true : nil
        append(.callback(CallbackEvent(callback, phase, controller: controller, animated: animated, parent: parent)))
    }

    /// `callback` as a begin/end interval around `body`.
    mutating func interval(_ callback: Callback, _ controller: ControllerRef, parent: ParentArgument? = nil, _ body: (inout ExampleTrace) -> Void) {
        self.callback(callback, controller, .begin, parent: parent)
        body(&self)
        self.callback(callback, controller, .end, parent: parent)
    }

    mutating func container(_ operation: ContainerOperation, _ container: ControllerRef?, _ controllers: [ControllerRef], style: ModalPresentationStyle? = nil) {
        append(.container(ContainerEvent(operation, container: container, controllers: controllers, style: style)))
    }

    mutating func app(_ transition: AppTransition, scene: String? = nil) {
        append(.app(AppEvent(transition, scene: scene)))
    }

    mutating func mark(_ mark: MarkEvent) {
        append(.mark(mark))
    }

    mutating func swiftUI(_ action: SwiftUIEvent.Action, view: String, host: ControllerRef?) {
        append(.swiftUI(SwiftUIEvent(action, view: view, host: host)))
    }

    /// The appearance of `controller` from nothing: init, viewDidLoad, viewWillAppear, viewDidAppear.
    mutating func appear(_ controller: ControllerRef, loading: Bool = true) {
        if loading {
            callback(.initialize, controller)
            callback(.viewDidLoad, controller)
        }
        callback(.viewWillAppear, controller)
        callback(.viewDidAppear, controller)
    }

    /// A push of `top` over `bottom` in the order of docs/LIFECYCLE.md.
    mutating func push(_ top: ControllerRef, over bottom: ControllerRef, navigation: ControllerRef) {
        callback(.initialize, top)
        container(.push, navigation, [top])
        callback(.willMoveToParent, top, parent: .controller(navigation))
        callback(.viewDidLoad, top)
        callback(.viewWillDisappear, bottom)
        callback(.viewWillAppear, top)
        callback(.viewDidDisappear, bottom)
        callback(.viewDidAppear, top)
        callback(.didMoveToParent, top, parent: .controller(navigation))
    }

    /// A back-button pop of `top` revealing `bottom` (docs/LIFECYCLE.md), without the deinit.
    mutating func pop(_ top: ControllerRef, revealing bottom: ControllerRef, navigation: ControllerRef) {
        container(.pop, navigation, [top])
        callback(.willMoveToParent, top, parent: ParentArgument.none)
        callback(.viewWillDisappear, top)
        callback(.viewWillAppear, bottom)
        callback(.viewDidDisappear, top)
        callback(.viewDidAppear, bottom)
        callback(.didMoveToParent, top, parent: ParentArgument.none)
    }
}
