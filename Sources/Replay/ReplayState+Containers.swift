import TraceModel

extension ReplayState {
    /// Applies a container operation at its `begin` or `instant` (an `end` changes nothing).
    ///
    /// Meanings per `ContainerOperation`'s table. Interactive transitions: `interactiveTransitionBegin [from, to]`
    /// opens an in-flight transition; `…Cancel` closes it and changes no stack; `…Finish` pops `from` from a
    /// navigation stack (Apple: UINavigationController's interactivePopGestureRecognizer completes the pop only
    /// when the gesture finishes). A `pop` of `from` that arrives while its interactive transition is in flight
    /// takes effect at `…Finish` and is dropped by `…Cancel`. A container whose list is exactly `[from]` when an
    /// interactive transition begins cannot be a navigation controller popping (it would pop its root), so it is
    /// taken as a page controller and the transition as a page scroll; on finish its list becomes `[to]`.
    ///
    /// A pop is provisional until the popped controller's viewDidDisappear (UIKit calls `popViewController` as
    /// soon as the edge swipe is recognised, before the interactive begin is known; MLeaksFinder waits for
    /// viewDidDisappear for this reason): an `interactiveTransitionBegin` whose `from` was popped from that
    /// container and has not disappeared yet puts it back on top and holds the pop as if it had come after the
    /// begin. A begin whose `to` is already the navigation stack's top, with `from` below it, is a push made
    /// interactive (an iOS 18 zoom transition grabbed midway): `…Finish` keeps the push, `…Cancel` pops `to`.
    mutating func applyContainer(_ event: ContainerEvent, _ time: UInt64, _ ordinal: UInt64) {
        applyContainer(EventContainer(event: event), time, ordinal)
    }

    /// The one fold of a container operation, from a `ContainerEvent` or a `.container` record (`ContainerSource`).
    mutating func applyContainer<C: ContainerSource>(_ event: C, _ time: UInt64, _ ordinal: UInt64) {
        let operation = event.operation
        let container = event.containerSerial
        if let container {
            _ = touch(container, slot: event.containerSlot, event.refs, time, ordinal, what: "\(operation.name) on it")
        }
        let count = event.count
        for index in 0..<count {
            _ = touch(event.serial(at: index), slot: event.slot(at: index), event.refs, time, ordinal, what: operation.name)
        }
        guard event.phase != .end else { return }
        let first = count > 0 ? event.serial(at: 0) : nil
        let second = count > 1 ? event.serial(at: 1) : nil

        switch operation {
        case .setRoot:
            guard let root = first else { return }
            if let container {
                setList(of: container, to: [root], time, ordinal)
            } else {
                if let old = windowRoot, old != root, controllers.update(old, { $0.parent == .window }) == true {
                    _ = controllers.update(old) { $0.parent = .none }
                    setRemoval(old, .replaced, time, ordinal)
                }
                windowRoot = root
                unlink(root)
                _ = controllers.update(root) { c in
                    c.parent = .window
                    c.removal = nil
                }
            }
        case .push:
            guard let container else { return }
            _ = controllers.update(container) { $0.containerKind = .navigation }
            for pushedIndex in 0..<count {
                let pushed = event.serial(at: pushedIndex)
                _ = controllers.update(container) { c in
                    if c.viewControllers == nil {
                        c.viewControllers = []
                        c.isViewControllerListComplete = false
                    }
                    // Searched first: `removeAll(where:)` partitions the whole stack even when `pushed` is not on it.
                    if c.viewControllers!.contains(pushed) { c.viewControllers!.removeAll { $0 == pushed } }
                    c.viewControllers!.append(pushed)
                }
                link(pushed, to: container)
                _ = controllers.update(pushed) { $0.removal = nil }
            }
        case .pop:
            if let container { _ = controllers.update(container) { $0.containerKind = .navigation } }
            for poppedIndex in 0..<count {
                let popped = event.serial(at: poppedIndex)
                if let index = transitions.lastIndex(where: { $0.from == popped && $0.kind == .interactivePop && (container == nil || $0.container == container) }) {
                    transitions[index].popRequested = true
                } else {
                    pop(popped, from: container ?? controllers.update(popped, { $0.parent.serial }) ?? nil, time, ordinal)
                }
            }
        case .setViewControllers:
            guard let container else { return }
            setList(of: container, to: event.serials, time, ordinal)
        case .interactiveTransitionBegin:
            guard let from = first else { return }
            let to = second
            var kind = InFlightTransition.Kind.interactivePop
            var popRequested = false
            if let container {
                if restoreProvisionalPop(of: from, to: container) {
                    popRequested = true
                } else if let to, to != from, controllers.update(container, { c in
                    c.containerKind != .page && c.viewControllers?.last == to && c.viewControllers?.contains(from) == true
                }) == true {
                    kind = .interactivePush
                } else {
                    let isPage = controllers.update(container) { c -> Bool in
                        guard c.containerKind == .page || (c.containerKind == .unknown && c.viewControllers == [from]) else { return false }
                        c.containerKind = .page
                        return true
                    }
                    if isPage == true { kind = .pageScroll }
                }
            }
            transitions.append(
                InFlightTransition(kind: kind, container: container, from: from, to: to, since: time, ordinal: ordinal, popRequested: popRequested))
        case .interactiveTransitionCancel:
            guard let from = first else { return }
            if let index = transitions.lastIndex(where: { $0.from == from && $0.kind != .sheetDismiss && (container == nil || $0.container == container) }) {
                let cancelled = transitions.remove(at: index)
                if cancelled.kind == .interactivePush, let pushed = cancelled.to {
                    pop(pushed, from: cancelled.container, time, ordinal)
                }
            }
        case .interactiveTransitionFinish:
            guard let from = first else { return }
            let to = second
            var kind = InFlightTransition.Kind.interactivePop
            if let index = transitions.lastIndex(where: { $0.from == from && $0.kind != .sheetDismiss && (container == nil || $0.container == container) }) {
                kind = transitions[index].kind
                transitions.remove(at: index)
            } else if let container, controllers.update(container, { $0.containerKind == .page }) == true {
                kind = .pageScroll
            }
            switch kind {
            case .pageScroll:
                if let container, let to {
                    setList(of: container, to: [to], time, ordinal)
                }
            case .interactivePop, .sheetDismiss:
                pop(from, from: container ?? controllers.update(from, { $0.parent.serial }) ?? nil, time, ordinal)
            case .interactivePush:
                break
            }
        case .present:
            guard let presented = first else { return }
            let presenter = container
            if let presenter {
                _ = controllers.update(presenter) { $0.presentedController = presented }
            }
            _ = controllers.update(presented) { c in
                c.presentingController = presenter
                c.presentationStyle = event.style
                c.removal = nil
            }
        case .dismiss:
            guard let dismissed = first ?? container.flatMap({ controllers.update($0, { $0.presentedController }) ?? nil }) else { return }
            dismissChain(from: dismissed, time, ordinal)
        case .presentationControllerWillDismiss:
            guard let sheet = first else { return }
            let presenter = container ?? controllers.update(sheet, { $0.presentingController }) ?? nil
            transitions.append(InFlightTransition(kind: .sheetDismiss, container: presenter, from: sheet, to: presenter, since: time, ordinal: ordinal))
        case .presentationControllerDidDismiss:
            guard let sheet = first else { return }
            transitions.removeAll { $0.kind == .sheetDismiss && $0.from == sheet }
            dismissChain(from: sheet, time, ordinal)
        case .presentationControllerShouldDismiss, .presentationControllerDidAttemptToDismiss:
            break
        case .addChild:
            guard let container else { return }
            for childIndex in 0..<count {
                let child = event.serial(at: childIndex)
                link(child, to: container)
                _ = controllers.update(child) { $0.removal = nil }
            }
        case .removeFromParent:
            for childIndex in 0..<count {
                let child = event.serial(at: childIndex)
                unlink(child)
                setRemoval(child, .removedFromParent, time, ordinal)
            }
        case .selectTab:
            guard let container, let selected = first else { return }
            _ = controllers.update(container) { c in
                c.containerKind = .tabBar
                c.selectedController = selected
                c.selectedIndex = event.index ?? c.viewControllers?.firstIndex(of: selected)
            }
            if controllers.update(selected, { $0.parent.serial }) != container {
                link(selected, to: container)
            }
        case .attachView:
            guard let container else { return }
            for attachedIndex in 0..<count {
                let attached = event.serial(at: attachedIndex)
                _ = controllers.update(attached) { $0.viewAttachedTo = container }
            }
        }
    }

    /// If `controller` was popped from `container` and has not disappeared since (no viewDidDisappear: the pop
    /// is still provisional), puts it back on top of the stack, linked to the container, and returns `true`.
    private mutating func restoreProvisionalPop(of controller: UInt32, to container: UInt32) -> Bool {
        guard let c = controllers[controller], c.removal?.kind == .popped, c.appearance != .disappeared,
            c.appearance != .unknown, controllers[container]?.viewControllers?.contains(controller) == false
        else { return false }
        _ = controllers.update(container) { $0.viewControllers!.append(controller) }
        link(controller, to: container)
        _ = controllers.update(controller) { $0.removal = nil }
        return true
    }

    /// Removes `popped` from `container`'s navigation stack and from its parent.
    private mutating func pop(_ popped: UInt32, from container: UInt32?, _ time: UInt64, _ ordinal: UInt64) {
        if let container, let position = controllers.position(of: container) {
            // The common pop: the top of the stack, there once (`removeLast`, not `removeAll(where:)`'s partition).
            switch Self.removal(of: popped, from: controllers[at: position].viewControllers) {
            case .last: controllers[at: position].viewControllers!.removeLast()
            case .all: controllers[at: position].viewControllers!.removeAll { $0 == popped }
            case .none: break
            }
        }
        unlink(popped)
        setRemoval(popped, .popped, time, ordinal)
    }

    /// How `pop` removes a controller from a stack: not there, its last element and there once, or anywhere.
    private enum StackRemoval {
        case none
        case last
        case all
    }

    /// Where `popped` is in `list` (read without keeping a reference to it, so that the removal does not copy it).
    private static func removal(of popped: UInt32, from list: [UInt32]?) -> StackRemoval {
        guard let list, let index = list.firstIndex(of: popped) else { return .none }
        return index == list.count - 1 ? .last : .all
    }

    /// Replaces a container's list (navigation stack, tabs, pages): members that leave are unlinked and marked
    /// `replaced`; members that join are linked.
    private mutating func setList(of container: UInt32, to list: [UInt32], _ time: UInt64, _ ordinal: UInt64) {
        let previous = controllers.update(container) { $0.viewControllers ?? [] } ?? []
        for old in previous where !list.contains(old) {
            if controllers.update(old, { $0.parent == .controller(container) }) == true { unlink(old) }
            setRemoval(old, .replaced, time, ordinal)
        }
        _ = controllers.update(container) { c in
            c.viewControllers = list
            c.isViewControllerListComplete = true
        }
        for member in list {
            link(member, to: container)
            _ = controllers.update(member) { $0.removal = nil }
        }
        _ = controllers.update(container) { c in
            if let selected = c.selectedController, !list.contains(selected) {
                c.selectedController = nil
                c.selectedIndex = nil
            } else if let selected = c.selectedController {
                c.selectedIndex = list.firstIndex(of: selected)
            }
        }
    }

    /// Dismisses `first` and every controller it presents in turn (UIKit dismisses the whole chain above).
    private mutating func dismissChain(from first: UInt32, _ time: UInt64, _ ordinal: UInt64) {
        var current: UInt32? = first
        // No list of the controllers already seen (its allocation cost more than the chain): a controller the
        // loop comes back to (a cycle of presentation links) has had its links cleared, so its second visit
        // changes nothing and ends the chain; `steps` bounds the loop all the same.
        var steps = 0
        while let serial = current, steps <= controllers.count, controllers.contains(serial) {
            steps += 1
            let (next, presenter) = controllers.update(serial) { c in (c.presentedController, c.presentingController) } ?? (nil, nil)
            if let presenter, controllers.update(presenter, { $0.presentedController }) == serial {
                _ = controllers.update(presenter) { $0.presentedController = nil }
            }
            _ = controllers.update(serial) { c in
                c.presentingController = nil
                c.presentedController = nil
                c.presentationStyle = nil
            }
            setRemoval(serial, .dismissed, time, ordinal)
            current = next
        }
    }
}
