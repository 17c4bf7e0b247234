// Checked by tools/check-uikit in the LifetraceUIKit module, next to its sources; never compiled into the
// package, never run. `lifetraceUIKitWitnesses` fails the check if the sources' `#if canImport(...)` ever hid
// them (the names would not exist); the rest ties each IMP type to the UIKit method it stands for.
import Recorder
import SwiftUI
import TraceModel
import UIKit

@MainActor
func lifetraceUIKitWitnesses(recorder: Recorder, controller: UIViewController) {
    let _: Bool = LifetraceInstrumentation.install(recorder)
    let _: ControllerRef? = LifetraceInstrumentation.ref(for: controller)
    let _: LifetraceHostingController<_StubView> = LifetraceHostingController(rootView: _StubView())
    let _ = _StubView().lifetraceAppearance("Witness")
    Swizzler.instrumentBaseClasses()
}

// The function types LifetraceUIKit casts each original implementation (IMP) to must match the Objective-C
// method it replaces, or the call through the cast is undefined behaviour at run time, which no compiler sees.
// Here each IMP type is called with arguments of exactly the types the UIKit method declares (as the stubs
// transcribe Apple's page; `split` takes them from the method's own type), bridged to Objective-C where Swift
// bridges them, and its result must have exactly the method's result type: a wrong arity, a Bool where UIKit
// has an Int, a non-optional where UIKit passes or returns nil, fails the check.

/// Compiles only if both are the same type (metatypes of different types do not convert, except a subclass's
/// to its superclass's).
func same<T>(_: T.Type, _: T.Type) {}

/// The arguments and result type of an unapplied instance method, one overload per arity.
@MainActor func split<S, R>(_ method: (S) -> @MainActor () -> R) -> R.Type { R.self }
@MainActor func split<S, A, R>(_ method: (S) -> @MainActor (A) -> R) -> (A, R.Type) { fatalError() }
@MainActor func split<S, A, B, R>(_ method: (S) -> @MainActor (A, B) -> R) -> (A, B, R.Type) { fatalError() }
@MainActor func split<S, A, B, C, R>(_ method: (S) -> @MainActor (A, B, C) -> R) -> (A, B, C, R.Type) { fatalError() }

@MainActor
func impShapes(_ nav: UINavigationController, _ tabs: UITabBarController, _ vc: UIViewController, _ sel: Selector) {
    // Swizzler
    let loadView = split(UIViewController.loadView)
    same(type(of: (nil as Swizzler.Plain?)!(vc, sel)), loadView)
    let (appearing, appearingResult) = split(UIViewController.viewWillAppear(_:))
    same(type(of: (nil as Swizzler.WithBool?)!(vc, sel, appearing)), appearingResult)
    let (parent, parentResult) = split(UIViewController.willMove(toParent:))
    same(type(of: (nil as Swizzler.WithParent?)!(vc, sel, parent)), parentResult)
    let (size, coordinator, sizeResult) = split(UIViewController.viewWillTransition(to:with:))
    same(type(of: (nil as Swizzler.WithSize?)!(vc, sel, size, coordinator)), sizeResult)
}

@MainActor
func containerShapes(_ nav: UINavigationController, _ tabs: UITabBarController, _ vc: UIViewController, _ sel: Selector) {
    let (pushed, pushAnimated, pushResult) = split(UINavigationController.pushViewController(_:animated:))
    same(type(of: (nil as ContainerSwizzler.Push?)!(nav, sel, pushed, pushAnimated)), pushResult)
    let (popAnimated, popResult) = split(UINavigationController.popViewController(animated:))
    same(type(of: (nil as ContainerSwizzler.Pop?)!(nav, sel, popAnimated)), popResult)
    // An NSArray * (Swift: [UIViewController]) crosses the IMP as NSArray, keeping its optionality.
    let (target, popToAnimated, popToResult) = split(UINavigationController.popToViewController(_:animated:))
    same(popToResult, [UIViewController]?.self)
    same(type(of: (nil as ContainerSwizzler.PopTo?)!(nav, sel, target, popToAnimated)), NSArray?.self)
    let (popToRootAnimated, popToRootResult) = split(UINavigationController.popToRootViewController(animated:))
    same(popToRootResult, [UIViewController]?.self)
    same(type(of: (nil as ContainerSwizzler.PopToRoot?)!(nav, sel, popToRootAnimated)), NSArray?.self)
    let (controllers, setAnimated, setResult) = split(UINavigationController.setViewControllers(_:animated:))
    same(type(of: controllers), [UIViewController].self)
    let array: NSArray = (nil as NSArray?)!
    same(type(of: (nil as ContainerSwizzler.SetControllers?)!(nav, sel, array, setAnimated)), setResult)
    let (presented, presentAnimated, completion, presentResult) = split(UIViewController.present(_:animated:completion:))
    same(type(of: (nil as ContainerSwizzler.Present?)!(vc, sel, presented, presentAnimated, completion)), presentResult)
    let (dismissAnimated, dismissCompletion, dismissResult) = split(UIViewController.dismiss(animated:completion:))
    same(type(of: (nil as ContainerSwizzler.Dismiss?)!(vc, sel, dismissAnimated, dismissCompletion)), dismissResult)
    let (child, addResult) = split(UIViewController.addChild(_:))
    same(type(of: (nil as ContainerSwizzler.AddChild?)!(vc, sel, child)), addResult)
    same(type(of: (nil as ContainerSwizzler.Remove?)!(vc, sel)), split(UIViewController.removeFromParent))
    // The setter of `selectedViewController` takes the property's type.
    let selected = tabs.selectedViewController
    same(type(of: (nil as ContainerSwizzler.SelectTab?)!(tabs, sel, selected)), Void.self)
    // The newer wrappers: tab list, window root, page and split view controllers.
    let (tabList, tabAnimated, tabResult) = split(UITabBarController.setViewControllers(_:animated:))
    same(type(of: tabList), [UIViewController]?.self)
    same(type(of: (nil as ContainerSwizzler.SetTabs?)!(tabs, sel, nil as NSArray?, tabAnimated)), tabResult)
    let window: UIWindow = (nil as UIWindow?)!
    let root = window.rootViewController
    same(type(of: (nil as ContainerSwizzler.SetRoot?)!(window, sel, root)), Void.self)
    let pages: UIPageViewController = (nil as UIPageViewController?)!
    let (pageList, direction, pageAnimated, pageCompletion, pageResult) = split4(UIPageViewController.setViewControllers(_:direction:animated:completion:))
    same(type(of: pageList), [UIViewController]?.self)
    same(type(of: (nil as ContainerSwizzler.SetPages?)!(pages, sel, nil as NSArray?, direction, pageAnimated, pageCompletion)), pageResult)
    let splitView: UISplitViewController = (nil as UISplitViewController?)!
    same(type(of: splitView.viewControllers), [UIViewController].self)
    same(type(of: (nil as ContainerSwizzler.SetSplitControllers?)!(splitView, sel, array)), Void.self)
    let (columnController, column, columnResult) = split(UISplitViewController.setViewController(_:for:))
    same(type(of: (nil as ContainerSwizzler.SetSplitColumn?)!(splitView, sel, columnController, column)), columnResult)
}

/// The four-argument overload of `split`.
@MainActor func split4<S, A, B, C, D, R>(_ method: (S) -> @MainActor (A, B, C, D) -> R) -> (A, B, C, D, R.Type) { fatalError() }

@MainActor
func delegateShapes(_ delegate: any UIAdaptivePresentationControllerDelegate, _ controller: UIPresentationController, _ sel: Selector) {
    // Optional protocol requirements, called through the existential: `?` makes each result optional.
    let asked: Bool? = delegate.presentationControllerShouldDismiss?(controller)
    same(type(of: (nil as PresentationDelegateSwizzler.Ask?)!(delegate, sel, controller)), type(of: asked!))
    let told: Void? = delegate.presentationControllerDidAttemptToDismiss?(controller)
    same(type(of: (nil as PresentationDelegateSwizzler.Notify?)!(delegate, sel, controller)), type(of: told!))
}
