import TraceLog
import TraceModel

/// Work done inside a controller's viewWillDisappear, held until that disappearance either completes or is
/// cancelled: the detection of cancelled disappearances that `critical_save_placement` and
/// `teardown_cancelled_pop` share.
///
/// UIKit contract (DESIGN.md §2, "interactive pop, cancelled"; Apple, "notifyWhenInteractionChanges(_:)": when
/// the user cancels an interactive transition, UIKit calls viewWillDisappear(_:) on the controller that was
/// appearing and then viewWillAppear(_:) on the one that was disappearing): a disappearance is
/// - **completed** by the controller's viewDidDisappear (or its deinit), which drops what is held for it;
/// - **cancelled** by the controller's viewWillAppear before any viewDidDisappear, or by a recorded
///   `interactiveTransitionCancel` whose `from` (first controller) is the controller, whichever comes first.
///
/// Feed it the callbacks in `callbacks` (begin or instant; ends are ignored) and the container events; it
/// costs nothing while nothing is held. `Item` is whatever the rule keeps per piece of work (a save, a teardown).
struct CancelledDisappearances<Item> {
    /// A cancelled disappearance: the controller, what was held for it (in the order held), and the event that
    /// showed the cancellation as a related event.
    struct Cancellation {
        var controller: ControllerRef
        var items: [Item]
        var cancellation: RelatedEvent
    }

    /// The callbacks `observe` needs to see.
    static var callbacks: [Callback] { [.viewWillAppear, .viewDidDisappear, .deinitialize] }

    /// The container operations `observe` needs to see.
    static var containerOperations: ContainerOperationSet { ContainerOperationSet([.interactiveTransitionCancel]) }

    /// Items with their controller's serial, in the order held, for controllers whose viewWillDisappear is not
    /// yet resolved: few at a time (held from a viewWillDisappear to the viewDidDisappear right after it), so a
    /// list scanned by serial costs less than a map of arrays (a hash and an array per hold).
    private var awaiting: [(serial: UInt32, item: Item)] = []

    /// Nothing is held: callers can skip events cheaply.
    var isEmpty: Bool { awaiting.isEmpty }

    /// Holds `item` until the current disappearance of `controller` completes or is cancelled.
    /// (Taken as owned: appended without a copy.)
    mutating func hold(_ item: consuming Item, for controller: ControllerRef) {
        awaiting.append((controller.serial, item))
    }

    /// Whether something is held for the controller `serial` (by index: `contains(where:)` copied each element out).
    private func holds(_ serial: UInt32) -> Bool {
        for index in awaiting.indices where awaiting[index].serial == serial { return true }
        return false
    }

    /// Whether everything held is for the controller `serial` (and something is).
    private func holdsOnly(_ serial: UInt32) -> Bool {
        guard !awaiting.isEmpty else { return false }
        // By index: iterating the elements copied each one out.
        for index in awaiting.indices where awaiting[index].serial != serial { return false }
        return true
    }

    /// Removes and returns what is held for the controller `serial`, in the order held (`nil` when nothing is).
    private mutating func take(_ serial: UInt32) -> [Item]? {
        guard holds(serial) else { return nil }
        let items = awaiting.filter { $0.serial == serial }.map(\.item)
        remove(serial)
        return items
    }

    /// Drops what is held for the controller `serial`: usually everything held (one controller's disappearance at a
    /// time), emptied from the end keeping the storage (`removeAll(where:)` and `removeAll(keepingCapacity:)` went
    /// through the generic array replacement and destroy).
    private mutating func remove(_ serial: UInt32) {
        if holdsOnly(serial) {
            while !awaiting.isEmpty { awaiting.removeLast() }
        } else {
            awaiting.removeAll { $0.serial == serial }
        }
    }

    /// Applies a callback record (`RuleMonitor.observe(callback:_:_:)`); returns the cancellation it shows, if any.
    mutating func observe(callback record: EventRecord, _ context: EventContext) -> Cancellation? {
        guard !awaiting.isEmpty, record.phase != .end else { return nil }
        switch record.callback {
        case .viewWillAppear:
            guard let items = take(record.controller) else { return nil }
            let controller = context.controller(of: record)
            let related = context.related(record, "disappearance cancelled: \(controller.displayName) viewWillAppear at \(context.time(record.timestamp)) without viewDidDisappear")
            return Cancellation(controller: controller, items: items, cancellation: related)
        case .viewDidDisappear, .deinitialize:
            if holds(record.controller) { remove(record.controller) }
            return nil
        default:
            return nil
        }
    }

    /// Applies a container event; returns the cancellation it shows, if any.
    mutating func observe(_ event: Event, _ context: EventContext) -> Cancellation? {
        guard !awaiting.isEmpty, case .container(let container) = event.payload,
              container.operation == .interactiveTransitionCancel, container.phase != .end,
              let from = container.controllers.first,
              let items = take(from.serial) else { return nil }
        let related = context.related(event, "interactive transition cancelled at \(context.time(event.timestamp)): \(from.displayName) stays on screen without viewDidDisappear")
        return Cancellation(controller: from, items: items, cancellation: related)
    }

    /// Forgets everything held (the process ended: a new recording run started).
    mutating func removeAll() {
        awaiting.removeAll()
    }
}
