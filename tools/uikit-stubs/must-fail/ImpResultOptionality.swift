// expect: cannot convert value of type 'UIViewController.Type' to expected argument type 'UIViewController?.Type'
// An IMP type that says popViewController(animated:) returns a non-optional controller (it returns nil when
// there is nothing to pop): Witnesses.swift's `same` must reject it.
import UIKit

typealias NonOptionalPop = @convention(c) (UINavigationController, Selector, Bool) -> UIViewController

@MainActor
func mustFail(_ nav: UINavigationController, _ sel: Selector) {
    let (animated, result) = split(UINavigationController.popViewController(animated:))
    same(type(of: (nil as NonOptionalPop?)!(nav, sel, animated)), result)
}
