import TraceModel

/// Modal presentation by style, programmatic dismissal, and the sheet swipe-down with its
/// presentation-controller delegate calls.
extension Simulation {
    /// Present. `fullScreen` / `currentContext` (docs/LIFECYCLE.md "present full screen"): B.loadView,
    /// B.viewDidLoad, A.viewWillDisappear, B.viewWillAppear, B.viewIsAppearing, B layout, (animation),
    /// B.viewDidAppear, A.viewDidDisappear — A being the controller filling the presenter's level (the
    /// window's root or a presented controller) and its visible children. Every other style (pageSheet,
    /// formSheet, automatic, overFullScreen, overCurrentContext, popover, custom): only B gets callbacks
    /// (Apple: UIModalPresentationStyle; docs/LIFECYCLE.md).
    func present(_ spec: ControllerSpec, from presenterName: String, style requested: ModalPresentationStyle, animated: Bool) throws {
        let presenter = try lookup(presenterName)
        if let already = controllers[presenter].presented {
            throw illegal("\(describe(presenter)) is already presenting \(describe(already)); UIKit refuses a second presentation")
        }
        let covered = levelRoot(presenter)
        guard isOnScreen(presenter) else {
            throw illegal("cannot present from \(describe(presenter)): its view is not in the window hierarchy")
        }
        try requireSteady(covered)
        let presented = try instantiate(spec)
        let style = requested == .automatic ? ModalPresentationStyle.pageSheet : requested
        container(.present, presenter, [presented], animated: animated, style: style)
        controllers[presenter].presented = presented
        controllers[presented].presenting = presenter
        controllers[presented].presentationStyle = style
        loadViewIfNeeded(presented)
        if style.removesPresenterView {
            willDisappear(covered, animated)
            willAppear(presented, animated)
            settle(presented, animated)
            animate(animated)
            didAppear(presented, animated)
            didDisappear(covered, animated)
        } else {
            willAppear(presented, animated)
            settle(presented, animated)
            animate(animated)
            didAppear(presented, animated)
        }
    }

    /// `dismiss(animated:)` of a presented controller B. Full screen: B.viewWillDisappear, A.viewWillAppear,
    /// A.viewIsAppearing, A layout, (animation), B.viewDidDisappear, A.viewDidAppear. Other styles: only B's
    /// viewWillDisappear and viewDidDisappear. Then B is released (deinit unless retained).
    func dismiss(_ name: String, animated: Bool) throws {
        let presented = try lookup(name)
        let presenter = try presenterOf(presented, verb: "dismiss")
        try requireSteady(presented)
        container(.dismiss, presenter, [presented], animated: animated)
        hide(presented, presenter: presenter, animated: animated)
    }

    /// The user drags a sheet down. With `isModalInPresentation`: only
    /// `presentationControllerDidAttemptToDismiss`. Otherwise (docs/LIFECYCLE.md "sheet swipe-down"; real log
    /// 03): `presentationControllerShouldDismiss`, `presentationControllerWillDismiss`, B.viewWillDisappear,
    /// (animation), B.viewDidDisappear, `presentationControllerDidDismiss`, B.deinit. The presenter gets no
    /// callbacks. The delegate is taken to be the presenting controller: its class's code for these hooks runs
    /// right after each delegate call.
    func swipeDown(_ name: String) throws {
        let presented = try lookup(name)
        let presenter = try presenterOf(presented, verb: "swipe down")
        let style = controllers[presented].presentationStyle ?? .pageSheet
        guard style == .pageSheet || style == .formSheet else {
            throw illegal("cannot swipe down \(describe(presented)): it is presented as \(style.name); only a pageSheet or formSheet can be swiped down")
        }
        try requireSteady(presented)
        if controllers[presented].spec.isModalInPresentation {
            delegateCall(.presentationControllerDidAttemptToDismiss, presenter: presenter, presented: presented)
            return
        }
        delegateCall(.presentationControllerShouldDismiss, presenter: presenter, presented: presented)
        delegateCall(.presentationControllerWillDismiss, presenter: presenter, presented: presented)
        willDisappear(presented, true)
        animate(true)
        didDisappear(presented, true)
        delegateCall(.presentationControllerDidDismiss, presenter: presenter, presented: presented)
        unlink(presented, from: presenter)
    }

    private func presenterOf(_ presented: Int, verb: String) throws -> Int {
        guard let presenter = controllers[presented].presenting else {
            throw illegal("cannot \(verb) \(describe(presented)): it is not presented")
        }
        if let top = controllers[presented].presented {
            throw illegal("cannot \(verb) \(describe(presented)) while it presents \(describe(top)); dismiss that first")
        }
        return presenter
    }

    private func hide(_ presented: Int, presenter: Int, animated: Bool) {
        let style = controllers[presented].presentationStyle ?? .pageSheet
        if style.removesPresenterView {
            let covered = levelRoot(presenter)
            willDisappear(presented, animated)
            willAppear(covered, animated)
            settle(covered, animated)
            animate(animated)
            didDisappear(presented, animated)
            didAppear(covered, animated)
        } else {
            willDisappear(presented, animated)
            animate(animated)
            didDisappear(presented, animated)
        }
        unlink(presented, from: presenter)
    }

    private func unlink(_ presented: Int, from presenter: Int) {
        controllers[presenter].presented = nil
        controllers[presented].presenting = nil
        controllers[presented].presentationStyle = nil
        releaseIfUnowned(presented)
    }

    private func delegateCall(_ operation: ContainerOperation, presenter: Int, presented: Int) {
        container(operation, presenter, [presented])
        run(controllers[presenter].spec.hooks[.presentation(operation)] ?? [], in: presenter)
    }
}
