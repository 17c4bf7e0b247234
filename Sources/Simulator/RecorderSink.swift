import Recorder
import TraceModel

/// A `LifecycleSink` that drives the Recorder's instrumentation entry points — the calls an app's UIKit
/// adapters make — with the simulated time on a `ManualClock`.
///
/// Each event sets `clock` to the event's timestamp and then makes the matching call: `begin`/`end` for
/// callbacks, the named container calls (`pushViewController(_:onto:animated:)`, `present(_:from:style:animated:)`,
/// …), `app(_:_:scene:)`, `onAppear(view:host:)`/`onDisappear(view:host:)` and `mark(_:)`. Controllers are
/// registered with the recorder's `registry`, so serials come from the recorder.
///
/// The recorder is asynchronous and drops events when its ring is full; to keep every event, this sink calls
/// `recorder.flush()` (which waits for the background writer) every `flushEvery` events.
///
/// Not `Sendable`: used from the simulation's thread only.
public final class RecorderSink: LifecycleSink {
    public let recorder: Recorder
    public let clock: ManualClock
    private let flushEvery: Int
    private var sinceFlush = 0

    /// - Parameters:
    ///   - recorder: A recorder created with `clock`.
    ///   - flushEvery: Events between synchronous flushes; keep it below the recorder's ring capacity.
    public init(recorder: Recorder, clock: ManualClock, flushEvery: Int = 16_384) {
        self.recorder = recorder
        self.clock = clock
        self.flushEvery = max(1, flushEvery)
    }

    public func registerController(typeName: String, at timestamp: UInt64) -> ControllerRef {
        recorder.registry.register(typeName: typeName)
    }

    public func record(_ event: Event) {
        clock.set(event.timestamp)
        switch event.payload {
        case .callback(let callback):
            if callback.phase == .end {
                recorder.end(callback.callback, callback.controller, animated: callback.animated, parent: callback.parent, size: callback.size)
            } else if callback.phase == .begin {
                recorder.begin(callback.callback, callback.controller, animated: callback.animated, parent: callback.parent, size: callback.size)
            } else {
                recorder.record(callback.callback, .instant, callback.controller, animated: callback.animated, parent: callback.parent, size: callback.size)
            }
        case .container(let container):
            recordContainer(container)
        case .app(let app):
            recorder.app(app.transition, app.phase, scene: app.scene)
        case .swiftUI(let swiftUI):
            switch swiftUI.action {
            case .onAppear: recorder.onAppear(view: swiftUI.view, host: swiftUI.host)
            case .onDisappear: recorder.onDisappear(view: swiftUI.view, host: swiftUI.host)
            }
        case .mark(let mark):
            recorder.mark(mark)
        case .recorder, .unknown:
            recorder.record(event.payload)
        }
        sinceFlush += 1
        if sinceFlush >= flushEvery {
            sinceFlush = 0
            try? recorder.flush()
        }
    }

    private func recordContainer(_ event: ContainerEvent) {
        let subjects = event.controllers
        let first = subjects.first
        let animated = event.animated ?? true
        switch (event.operation, event.container, first) {
        case (.setRoot, _, let root?) where subjects.count == 1:
            recorder.setRoot(root)
        case (.push, let nav?, let pushed?) where subjects.count == 1:
            recorder.pushViewController(pushed, onto: nav, animated: animated)
        case (.pop, let nav?, _):
            recorder.popViewControllers(subjects, from: nav, animated: animated)
        case (.setViewControllers, let container?, _):
            recorder.setViewControllers(subjects, in: container, animated: event.animated ?? false)
        case (.interactiveTransitionBegin, let container, let from?) where subjects.count == 2:
            recorder.interactiveTransitionBegan(from: from, to: subjects[1], in: container)
        case (.interactiveTransitionCancel, let container, let from?) where subjects.count == 2:
            recorder.interactiveTransitionCancelled(from: from, to: subjects[1], in: container)
        case (.interactiveTransitionFinish, let container, let from?) where subjects.count == 2:
            recorder.interactiveTransitionFinished(from: from, to: subjects[1], in: container)
        case (.present, let presenter?, let presented?) where subjects.count == 1 && event.style != nil:
            recorder.present(presented, from: presenter, style: event.style!, animated: animated)
        case (.dismiss, let presenter, let presented?) where subjects.count == 1:
            recorder.dismiss(presented, from: presenter, animated: animated)
        case (.presentationControllerShouldDismiss, let presenter, let presented?),
            (.presentationControllerWillDismiss, let presenter, let presented?),
            (.presentationControllerDidDismiss, let presenter, let presented?),
            (.presentationControllerDidAttemptToDismiss, let presenter, let presented?):
            recorder.presentationController(event.operation, presented: presented, presenter: presenter)
        case (.addChild, let parent?, let child?) where subjects.count == 1:
            recorder.addChild(child, to: parent)
        case (.removeFromParent, let parent, let child?) where subjects.count == 1:
            recorder.removeFromParent(child, parent: parent)
        case (.selectTab, let tabs?, let selected?) where subjects.count == 1 && event.index != nil:
            recorder.selectTab(selected, at: event.index!, in: tabs)
        case (.attachView, let parent?, let child?) where subjects.count == 1:
            recorder.attachView(of: child, to: parent)
        default:
            recorder.container(
                event.operation, event.phase, container: event.container, controllers: subjects,
                animated: event.animated, style: event.style, index: event.index)
        }
    }
}

@available(*, unavailable)
extension RecorderSink: Sendable {}
