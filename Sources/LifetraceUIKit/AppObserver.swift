// Type-checked in CI against declaration-only UIKit/SwiftUI/ObjectiveC stubs (tools/check-uikit); never run there.
#if canImport(UIKit)
import Recorder
import TraceModel
import UIKit

/// Records app and scene life-cycle notifications; the recorder's flush policy acts on them (write on
/// willResignActive, write + fsync on didEnterBackground and willTerminate).
///
/// Source: Apple, "Managing your app's life cycle" and the UIApplication / UIScene notification docs. Apps with
/// scenes get the scene notifications (with the scene's `session.persistentIdentifier` as the scene id) for
/// foreground/background changes.
@MainActor
enum AppObserver {
    private static var tokens: [NSObjectProtocol] = []

    static func start(recorder: Recorder) {
        let center = NotificationCenter.default
        let app: [(Notification.Name, AppTransition)] = [
            (UIApplication.didFinishLaunchingNotification, .didFinishLaunching),
            (UIApplication.willEnterForegroundNotification, .willEnterForeground),
            (UIApplication.didBecomeActiveNotification, .didBecomeActive),
            (UIApplication.willResignActiveNotification, .willResignActive),
            (UIApplication.didEnterBackgroundNotification, .didEnterBackground),
            (UIApplication.willTerminateNotification, .willTerminate),
            (UIApplication.didReceiveMemoryWarningNotification, .didReceiveMemoryWarning),
        ]
        for (name, transition) in app {
            tokens.append(center.addObserver(forName: name, object: nil, queue: nil) { _ in
                recorder.app(transition)
            })
        }
        let scene: [(Notification.Name, AppTransition)] = [
            (UIScene.willConnectNotification, .willConnect),
            (UIScene.willEnterForegroundNotification, .willEnterForeground),
            (UIScene.didActivateNotification, .didBecomeActive),
            (UIScene.willDeactivateNotification, .willResignActive),
            (UIScene.didEnterBackgroundNotification, .didEnterBackground),
            (UIScene.didDisconnectNotification, .didDisconnect),
        ]
        for (name, transition) in scene {
            // queue nil: delivered on the posting thread, the main thread for these notifications.
            tokens.append(center.addObserver(forName: name, object: nil, queue: nil) { notification in
                // Cast outside the main-actor closure: a UIScene (a @MainActor class) is Sendable, the `Any?`
                // object is not, and handing it to the closure is a Swift 6 data-race error (region isolation).
                let posted = notification.object as? UIScene
                let id = MainActor.assumeIsolated {
                    posted?.session.persistentIdentifier ?? "scene"
                }
                recorder.app(transition, scene: id)
            })
        }
    }
}
#endif
