// Type-checked in CI against declaration-only UIKit/SwiftUI/ObjectiveC stubs (tools/check-uikit); never run there.
#if canImport(UIKit)
import AdapterCore
import Recorder
import TraceModel
import UIKit

/// Records app and scene life-cycle notifications through `Adapter.appTransition(_:scene:)`, which also decides
/// how durable each makes the trace (write on willResignActive, write + fsync once per backgrounding and on
/// willTerminate).
///
/// Source: Apple, "Managing your app's life cycle" and the UIApplication / UIScene notification docs. Apps with
/// scenes get the scene notifications (with the scene's `session.persistentIdentifier` as the scene id) for
/// foreground/background changes, and the application's as well.
@MainActor
enum AppObserver {
    private static var tokens: [NSObjectProtocol] = []

    static func start() {
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
                LifetraceInstrumentation.shared.load()?.appTransition(transition, scene: nil)
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
                guard let adapter = LifetraceInstrumentation.shared.load() else { return }
                // Off the main thread the adapter only counts the call (and says so once in the trace).
                guard Thread.isMainThread else { return adapter.appTransition(transition, scene: nil) }
                // Cast outside the main-actor closure: a UIScene (a @MainActor class) is Sendable, the `Any?`
                // object is not, and handing it to the closure is a Swift 6 data-race error (region isolation).
                let posted = notification.object as? UIScene
                let id = MainActor.assumeIsolated {
                    posted?.session.persistentIdentifier ?? "scene"
                }
                adapter.appTransition(transition, scene: id)
            })
        }
    }
}
#endif
