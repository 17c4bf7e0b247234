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
    mutating func applyContainer(_ event: ContainerEvent, _ time: UInt64, _ ordinal: UInt64) {
        if let container = event.container {
            touch(container, time, ordinal, what: "\(event.operation.name) on it")
        }
        for ref in event.controllers {
            touch(ref, time, ordinal, what: event.operation.name)
        }
        guard event.phase != .end else { return }
        let container = event.container?.serial
        let first = event.controllers.first?.serial

        switch event.operation {
        case .setRoot:
            guard let root = first else { return }
            if let container {
                setList(of: container, to: [root], time, ordinal)
            } else {
                if let old = windowRoot, old != root, controllers[old]?.parent == .window {
                    controllers[old]!.parent = .none
                    setRemoval(old, .replaced, time, ordinal)
                }
                windowRoot = root
                unlink(root)
                controllers[root]!.parent = .window
                controllers[root]!.removal = nil
            }
        case .push:
            guard let container else { return }
            controllers[container]!.containerKind = .navigation
            for pushed in event.controllers.map(\.serial) {
                if controllers[container]!.viewControllers == nil {
                    controllers[container]!.viewControllers = []
                    controllers[container]!.isViewControllerListComplete = false
                }
                controllers[container]!.viewControllers!.removeAll { $0 == pushed }
                controllers[container]!.viewControllers!.append(pushed)
                link(pushed, to: container)
                controllers[pushed]!.removal = nil
            }
        case .pop:
            if let container { controllers[container]!.containerKind = .navigation }
            for popped in event.controllers.map(\.serial) {
                if let index = transitions.lastIndex(where: { $0.from == popped && $0.kind == .interactivePop && (container == nil || $0.container == container) }) {
                    transitions[index].popRequested = true
                } else {
                    pop(popped, from: container ?? controllers[popped]?.parent.serial, time, ordinal)
                }
            }
        case .setViewControllers:
            guard let container else { return }
            setList(of: container, to: event.controllers.map(\.serial), time, ordinal)
        case .interactiveTransitionBegin:
            guard let from = first else { return }
            let to = event.controllers.count > 1 ? event.controllers[1].serial : nil
            var kind = InFlightTransition.Kind.interactivePop
            if let container {
                let state = controllers[container]!
                if state.containerKind == .page || (state.containerKind == .unknown && state.viewControllers == [from]) {
                    controllers[container]!.containerKind = .page
                    kind = .pageScroll
                }
            }
            transitions.append(InFlightTransition(kind: kind, container: container, from: from, to: to, since: time, ordinal: ordinal))
        case .interactiveTransitionCancel:
            guard let from = first else { return }
            if let index = transitions.lastIndex(where: { $0.from == from && $0.kind != .sheetDismiss && (container == nil || $0.container == container) }) {
                transitions.remove(at: index)
            }
        case .interactiveTransitionFinish:
            guard let from = first else { return }
            let to = event.controllers.count > 1 ? event.controllers[1].serial : nil
            var kind = InFlightTransition.Kind.interactivePop
            if let index = transitions.lastIndex(where: { $0.from == from && $0.kind != .sheetDismiss && (container == nil || $0.container == container) }) {
                kind = transitions[index].kind
                transitions.remove(at: index)
            } else if let container, controllers[container]!.containerKind == .page {
                kind = .pageScroll
            }
            switch kind {
            case .pageScroll:
                if let container, let to {
                    setList(of: container, to: [to], time, ordinal)
                }
            case .interactivePop, .sheetDismiss:
                pop(from, from: container ?? controllers[from]?.parent.serial, time, ordinal)
            }
        case .present:
            guard let presented = first else { return }
            let presenter = container
            if let presenter {
                controllers[presenter]!.presentedController = presented
            }
            controllers[presented]!.presentingController = presenter
            controllers[presented]!.presentationStyle = event.style
            controllers[presented]!.removal = nil
        case .dismiss:
            guard let dismissed = first ?? container.flatMap({ controllers[$0]?.presentedController }) else { return }
            dismissChain(from: dismissed, time, ordinal)
        case .presentationControllerWillDismiss:
            guard let sheet = first else { return }
            let presenter = container ?? controllers[sheet]?.presentingController
            transitions.append(InFlightTransition(kind: .sheetDismiss, container: presenter, from: sheet, to: presenter, since: time, ordinal: ordinal))
        case .presentationControllerDidDismiss:
            guard let sheet = first else { return }
            transitions.removeAll { $0.kind == .sheetDismiss && $0.from == sheet }
            dismissChain(from: sheet, time, ordinal)
        case .presentationControllerShouldDismiss, .presentationControllerDidAttemptToDismiss:
            break
        case .addChild:
            guard let container else { return }
            for child in event.controllers.map(\.serial) {
                link(child, to: container)
                controllers[child]!.removal = nil
            }
        case .removeFromParent:
            for child in event.controllers.map(\.serial) {
                unlink(child)
                setRemoval(child, .removedFromParent, time, ordinal)
            }
        case .selectTab:
            guard let container, let selected = first else { return }
            controllers[container]!.containerKind = .tabBar
            controllers[container]!.selectedController = selected
            controllers[container]!.selectedIndex = event.index ?? controllers[container]!.viewControllers?.firstIndex(of: selected)
            if controllers[selected]!.parent.serial != container {
                link(selected, to: container)
            }
        case .attachView:
            guard let container else { return }
            for attached in event.controllers.map(\.serial) {
                controllers[attached]!.viewAttachedTo = container
            }
        }
    }

    /// Removes `popped` from `container`'s navigation stack and from its parent.
    private mutating func pop(_ popped: UInt32, from container: UInt32?, _ time: UInt64, _ ordinal: UInt64) {
        if let container {
            controllers[container]?.viewControllers?.removeAll { $0 == popped }
        }
        unlink(popped)
        setRemoval(popped, .popped, time, ordinal)
    }

    /// Replaces a container's list (navigation stack, tabs, pages): members that leave are unlinked and marked
    /// `replaced`; members that join are linked.
    private mutating func setList(of container: UInt32, to list: [UInt32], _ time: UInt64, _ ordinal: UInt64) {
        let previous = controllers[container]!.viewControllers ?? []
        for old in previous where !list.contains(old) {
            if controllers[old]?.parent == .controller(container) { unlink(old) }
            setRemoval(old, .replaced, time, ordinal)
        }
        controllers[container]!.viewControllers = list
        controllers[container]!.isViewControllerListComplete = true
        for member in list {
            link(member, to: container)
            controllers[member]?.removal = nil
        }
        if let selected = controllers[container]!.selectedController, !list.contains(selected) {
            controllers[container]!.selectedController = nil
            controllers[container]!.selectedIndex = nil
        } else if let selected = controllers[container]!.selectedController {
            controllers[container]!.selectedIndex = list.firstIndex(of: selected)
        }
    }

    /// Dismisses `first` and every controller it presents in turn (UIKit dismisses the whole chain above).
    private mutating func dismissChain(from first: UInt32, _ time: UInt64, _ ordinal: UInt64) {
        var current: UInt32? = first
        var seen: Set<UInt32> = []
        while let serial = current, !seen.contains(serial), controllers[serial] != nil {
            seen.insert(serial)
            let next = controllers[serial]!.presentedController
            if let presenter = controllers[serial]!.presentingController, controllers[presenter]?.presentedController == serial {
                controllers[presenter]!.presentedController = nil
            }
            controllers[serial]!.presentingController = nil
            controllers[serial]!.presentedController = nil
            controllers[serial]!.presentationStyle = nil
            setRemoval(serial, .dismissed, time, ordinal)
            current = next
        }
    }
}
