import AdapterCore
import Replay
import Testing
import TraceModel

/// Presentation flows against `lifetrace simulate`. Orders: docs/SCENARIOS.md's `present`, `dismiss` and
/// `swipe-down` rows; Apple's `UIAdaptivePresentationControllerDelegate` pages (WillDismiss/DidDismiss "not
/// called if the presentation is dismissed programmatically"; DidAttemptToDismiss when `isModalInPresentation`
/// refuses); `dismiss(animated:completion:)` forwarded by a presented controller to its presenter (Apple).
@Suite("Contract: presentation flows replay to the simulator's state")
struct PresentationContractTests {
    static let base = """
        class FormNavigationController: UINavigationController

        at 0s launch
        at 0.1s root nav: UINavigationController(list: ListViewController)

        """

    static func listOnScreen() -> (FakeApp, nav: FakeController, list: FakeController) {
        let app = FakeApp()
        let list = FakeController("ListViewController")
        let nav = app.navigationController(root: list)
        app.setRoot(nav, visibleChild: list)
        return (app, nav, list)
    }

    /// `list.present(presented, animated: true)` as a page sheet: only the presented controllers get callbacks.
    /// UIKit presents from the presentation context, the root (`presentingViewController` is the navigation
    /// controller), whatever child received the call.
    static func presentSheet(_ app: FakeApp, _ presented: FakeController, child: FakeController?, from list: FakeController, root nav: FakeController) {
        presented.style = .pageSheet
        let coordinator = FakeCoordinator(from: nav, to: presented, isInteractive: false)
        app.adapter.present(list, presented, animated: true) {
            nav.presented = presented
            presented.presenting = nav
            presented.coordinator = coordinator
            app.willAppear(presented, true)
            if let child { app.willAppear(child, true) }
        }
        app.call(presented, .viewDidAppear, animated: true)
        if let child { app.call(child, .viewDidAppear, animated: true) }
        app.complete(coordinator, on: presented)
    }

    @Test("present from a child, dismiss from the form inside the presented navigation controller")
    func dismissFromChild() throws {
        let (app, nav, list) = Self.listOnScreen()
        let form = FakeController("FormViewController")
        let modal = app.navigationController(root: form, type: "FormNavigationController")
        Self.presentSheet(app, modal, child: form, from: list, root: nav)
        // The form's Done button: form.dismiss(animated: true). UIKit dismisses the presented navigation controller.
        let coordinator = FakeCoordinator(from: modal, to: nav, isInteractive: false)
        app.adapter.dismiss(form, animated: true) {
            modal.isBeingDismissed = true
            modal.coordinator = coordinator
            app.call(modal, .viewWillDisappear, animated: true)
            app.call(form, .viewWillDisappear, animated: true)
        }
        app.call(modal, .viewDidDisappear, animated: true)
        app.call(form, .viewDidDisappear, animated: true)
        nav.presented = nil
        modal.presenting = nil
        app.complete(coordinator, on: modal)
        app.deallocate(modal)
        app.deallocate(form)
        let scenario = Self.base + """
            at 1s present modal: FormNavigationController(form: FormViewController) from list as pageSheet
            at 2s dismiss modal

            """
        let replayed = StateProjection(try app.replayed())
        #expect(replayed == (try StateProjection.simulated(scenario)))
        #expect(!replayed.lines.contains { $0.contains("presents=") })
    }

    @Test("dismissTarget: the presented container, whoever inside it asks")
    func dismissTarget() {
        let (app, nav, list) = Self.listOnScreen()
        let form = FakeController("FormViewController")
        let modal = app.navigationController(root: form, type: "FormNavigationController")
        Self.presentSheet(app, modal, child: form, from: list, root: nav)
        for asker in [form, modal, nav, list] {
            let target = app.adapter.dismissTarget(of: asker)
            #expect(target?.presented === modal, "dismiss on \(asker.typeName)")
            #expect(target?.presenter === nav, "dismiss on \(asker.typeName)")
        }
        let alone = FakeController("AloneViewController")
        #expect(app.adapter.dismissTarget(of: alone) == nil)
    }

    /// The swipe-down of `sheet`: the delegate calls when `delegateImplements`, the sheet's disappearance under an
    /// interactive coordinator, the finger lifting past the threshold.
    static func swipeDown(_ app: FakeApp, _ sheet: FakeController, root nav: FakeController, delegateImplements: Bool) {
        if delegateImplements {
            let allowed = app.adapter.presentationDelegateCall(.presentationControllerShouldDismiss, presented: sheet) { true }
            #expect(allowed)
            app.adapter.presentationDelegateCall(.presentationControllerWillDismiss, presented: sheet) {}
        }
        sheet.isBeingDismissed = true
        let coordinator = FakeCoordinator(from: sheet, to: nav, isInteractive: true)
        sheet.coordinator = coordinator
        app.call(sheet, .viewWillDisappear, animated: true)
        coordinator.fingerLifts(cancelled: false)
        app.call(sheet, .viewDidDisappear, animated: true)
        if delegateImplements {
            app.adapter.presentationDelegateCall(.presentationControllerDidDismiss, presented: sheet) {}
        }
        nav.presented = nil
        sheet.presenting = nil
        app.complete(coordinator, on: sheet)
        app.deallocate(sheet)
    }

    @Test("sheet swipe-down allowed: a presentation dismissal, not a navigation transition", arguments: [true, false])
    func swipeDownAllowed(delegateImplements: Bool) throws {
        let (app, nav, list) = Self.listOnScreen()
        let sheet = FakeController("SheetViewController")
        Self.presentSheet(app, sheet, child: nil, from: list, root: nav)
        Self.swipeDown(app, sheet, root: nav, delegateImplements: delegateImplements)
        let scenario = Self.base + "at 1s present sheet: SheetViewController from list as pageSheet\nat 2s swipe-down sheet\n"
        #expect(StateProjection(try app.replayed()) == (try StateProjection.simulated(scenario)))
        let operations = try NavigationContractTests.containerOperations(app)
        #expect(!operations.contains { $0.hasPrefix("interactiveTransition") })
        #expect(operations.filter { $0 == "presentationControllerWillDismiss" }.count == 1)
        #expect(operations.filter { $0 == "presentationControllerDidDismiss" }.count == 1)
    }

    @Test("sheet swipe-down refused by isModalInPresentation: the sheet stays")
    func swipeDownRefused() throws {
        let (app, nav, list) = Self.listOnScreen()
        let sheet = FakeController("SheetViewController")
        Self.presentSheet(app, sheet, child: nil, from: list, root: nav)
        app.adapter.presentationDelegateCall(.presentationControllerDidAttemptToDismiss, presented: sheet) {}
        let scenario = """
            class SheetViewController
                modalInPresentation

            """ + Self.base + "at 1s present sheet: SheetViewController from list as pageSheet\nat 2s swipe-down sheet\n"
        let replayed = StateProjection(try app.replayed())
        #expect(replayed == (try StateProjection.simulated(scenario)))
        #expect(replayed.lines.contains { $0.hasPrefix("SheetViewController: appeared") && $0.contains("presentedBy=ListViewController") })
    }

    @Test("sheet swipe-down abandoned: WillDismiss, then the sheet appears again and stays presented")
    func swipeDownAbandoned() throws {
        let (app, nav, list) = Self.listOnScreen()
        let sheet = FakeController("SheetViewController")
        Self.presentSheet(app, sheet, child: nil, from: list, root: nav)
        sheet.isBeingDismissed = true
        let coordinator = FakeCoordinator(from: sheet, to: nav, isInteractive: true)
        sheet.coordinator = coordinator
        app.call(sheet, .viewWillDisappear, animated: true)
        coordinator.fingerLifts(cancelled: true)
        sheet.isBeingDismissed = false
        app.call(sheet, .viewWillAppear, animated: true)
        app.call(sheet, .viewDidAppear, animated: true)
        app.complete(coordinator, on: sheet)
        let replayed = StateProjection(try app.replayed())
        #expect(replayed == (try StateProjection.simulated(Self.base + "at 1s present sheet: SheetViewController from list as pageSheet\n")))
        #expect(try NavigationContractTests.containerOperations(app).suffix(1) == ["presentationControllerWillDismiss"])
    }
}
