// Type-checked in CI against declaration-only UIKit/SwiftUI/ObjectiveC stubs (tools/check-uikit); never run there.
#if canImport(UIKit) && canImport(ObjectiveC)
import AdapterCore
import ObjectiveC
import Recorder
import TraceModel
import UIKit

/// Wraps the app's own `UIAdaptivePresentationControllerDelegate` methods (ShouldDismiss, WillDismiss,
/// DidDismiss, DidAttemptToDismiss), once per delegate class, when a controller is presented with a delegate
/// already set on its `presentationController`: the only way UIKit reports a swipe-down refused by
/// `isModalInPresentation` (Apple, `presentationControllerDidAttemptToDismiss(_:)`). Only methods the delegate's
/// class itself implements are wrapped; a delegate set after `present` is not seen (WillDismiss and DidDismiss are
/// still recorded from the transition coordinator; ShouldDismiss and DidAttemptToDismiss are then not).
@MainActor
enum PresentationDelegateSwizzler {
    private static var instrumentedClasses: Set<ObjectIdentifier> = []

    typealias Notify = @convention(c) (AnyObject, Selector, UIPresentationController) -> Void
    typealias Ask = @convention(c) (AnyObject, Selector, UIPresentationController) -> Bool

    static func instrumentDelegate(of presented: UIViewController) {
        guard let delegate = presented.presentationController?.delegate else { return }
        let cls: AnyClass = type(of: delegate as AnyObject)
        guard instrumentedClasses.insert(ObjectIdentifier(cls)).inserted else { return }
        instrument(cls)
    }

    private nonisolated static func instrument(_ cls: AnyClass) {
        let notifications: [(Selector, ContainerOperation)] = [
            (#selector(UIAdaptivePresentationControllerDelegate.presentationControllerWillDismiss(_:)), .presentationControllerWillDismiss),
            (#selector(UIAdaptivePresentationControllerDelegate.presentationControllerDidDismiss(_:)), .presentationControllerDidDismiss),
            (
                #selector(UIAdaptivePresentationControllerDelegate.presentationControllerDidAttemptToDismiss(_:)),
                .presentationControllerDidAttemptToDismiss
            ),
        ]
        for (selector, operation) in notifications {
            Swizzler.replace(cls, selector) { (original: Notify, selector: Selector) -> Any in
                let block: @convention(block) (AnyObject, UIPresentationController) -> Void = { delegate, controller in
                    guard let adapter = LifetraceInstrumentation.shared.load(), Thread.isMainThread else {
                        return original(delegate, selector, controller)
                    }
                    let presented = MainActor.assumeIsolated { controller.presentedViewController }
                    adapter.presentationDelegateCall(operation, presented: presented) { original(delegate, selector, controller) }
                }
                return block
            }
        }
        Swizzler.replace(cls, #selector(UIAdaptivePresentationControllerDelegate.presentationControllerShouldDismiss(_:))) {
            (original: Ask, selector: Selector) -> Any in
            let block: @convention(block) (AnyObject, UIPresentationController) -> Bool = { delegate, controller in
                guard let adapter = LifetraceInstrumentation.shared.load(), Thread.isMainThread else {
                    return original(delegate, selector, controller)
                }
                let presented = MainActor.assumeIsolated { controller.presentedViewController }
                return adapter.presentationDelegateCall(.presentationControllerShouldDismiss, presented: presented) {
                    original(delegate, selector, controller)
                }
            }
            return block
        }
    }
}
#endif
