// expect: risks causing data races
// A non-Sendable value handed from a @Sendable observer block to MainActor.assumeIsolated (the bug
// AppObserver had): only SIL's region-based isolation checking sees it, so the check must run -emit-sil.
import UIKit

func mustFail() {
    _ = NotificationCenter.default.addObserver(forName: UIScene.didActivateNotification, object: nil, queue: nil) {
        notification in
        let object = notification.object
        _ = MainActor.assumeIsolated { (object as? UIScene)?.session.persistentIdentifier ?? "scene" }
    }
}
