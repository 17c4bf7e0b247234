import Recorder
import TraceModel

// App and scene life-cycle notifications, and how durable each makes the trace.
extension Adapter {
    /// A UIApplication (`scene == nil`) or UIScene (`scene`: its `session.persistentIdentifier`) notification.
    ///
    /// A scene-based app gets both the scene's and the application's notification for one backgrounding (Apple,
    /// `applicationDidEnterBackground(_:)`: with scenes UIKit calls the scene delegate instead, but "posts a
    /// didEnterBackgroundNotification regardless of whether your app uses scenes"). Both are recorded; the first
    /// didEnterBackground writes and fsyncs before returning, a second one with nothing recorded by the adapter
    /// in between writes before returning without another fsync (what it adds is in the kernel's page cache, which
    /// survives the app being suspended or killed). willTerminate always writes and fsyncs.
    public func appTransition(_ transition: AppTransition, scene: String?) {
        guard admit("\(transition) notification") else { return }
        switch transition {
        case .didEnterBackground:
            recorder.app(transition, scene: scene, syncing: !backgroundSynced)
            backgroundSynced = true
        default:
            backgroundSynced = false
            recorder.app(transition, scene: scene)
        }
    }
}
