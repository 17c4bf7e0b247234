import TraceModel

/// Tracks which callbacks are executing so that a mark can be attributed to the callback it happened in.
///
/// The rule, for a mark of controller `C` (or of no controller):
/// 1. If a callback interval is open (a `begin` without its `end`) for `C` or for the app/scene, the mark belongs
///    to the innermost one (the one that began last). A mark without a controller also considers every
///    controller's open callbacks.
/// 2. Otherwise, instant-only traces (imported console logs, where each callback is one line) are attributed by
///    window: the mark belongs to the most recent instant callback of `C` or of the app, as long as nothing else
///    of that subject happened since (`C`'s next callback closes `C`'s window; the next app event closes the
///    app's). Console logging prints at the start of a callback and the app's own lines follow, so
///    "viewWillDisappear, then saveDraft, then the list's viewWillAppear" reads as a save inside the editor's
///    viewWillDisappear (Tests/Fixtures/cases/01).
///
/// Nesting of callbacks in callbacks (loadView inside init) is only ever judged from intervals: an instant
/// cannot contain another callback.
///
/// Memory: one entry per controller with an open callback or an instant window; an entry is dropped at deinit.
public final class CallbackAttribution {
    struct Frame {
        var callback: Callback
        var ordinal: UInt64
        var timestamp: UInt64
    }

    struct ControllerFrames {
        var ref: ControllerRef
        var open: [Frame] = []
        var window: Frame?
    }

    struct AppFrame {
        var event: AppEvent
        var ordinal: UInt64
        var timestamp: UInt64
    }

    private(set) var controllers: [UInt32: ControllerFrames] = [:]
    private var openAcrossControllers: [(serial: UInt32, frame: Frame)] = []
    private var appOpen: [AppFrame] = []
    private var appWindow: AppFrame?

    public init() {}

    /// Folds `event` (ordinal `ordinal`) into the tracker.
    public func apply(_ event: Event, ordinal: UInt64) {
        switch event.payload {
        case .callback(let callback):
            let serial = callback.controller.serial
            let frame = Frame(callback: callback.callback, ordinal: ordinal, timestamp: event.timestamp)
            switch callback.phase {
            case .begin:
                controllers[serial, default: ControllerFrames(ref: callback.controller)].open.append(frame)
                controllers[serial]?.window = nil
                openAcrossControllers.append((serial, frame))
            case .end:
                if var frames = controllers[serial] {
                    if let index = frames.open.lastIndex(where: { $0.callback == callback.callback }) {
                        frames.open.remove(at: index)
                    }
                    frames.window = nil
                    controllers[serial] = frames.open.isEmpty && callback.callback == .deinitialize ? nil : frames
                }
                if let index = openAcrossControllers.lastIndex(where: {
                    $0.serial == serial && $0.frame.callback == callback.callback
                }) {
                    openAcrossControllers.remove(at: index)
                }
            case .instant:
                if callback.callback == .deinitialize {
                    if controllers[serial]?.open.isEmpty ?? true { controllers[serial] = nil }
                } else {
                    controllers[serial, default: ControllerFrames(ref: callback.controller)].window = frame
                }
            }
        case .app(let app):
            let frame = AppFrame(event: app, ordinal: ordinal, timestamp: event.timestamp)
            switch app.phase {
            case .begin:
                appOpen.append(frame)
                appWindow = nil
            case .end:
                if let index = appOpen.lastIndex(where: { $0.event.transition == app.transition && $0.event.scene == app.scene }) {
                    appOpen.remove(at: index)
                }
                appWindow = nil
            case .instant:
                appWindow = frame
            }
        case .container, .mark, .swiftUI, .recorder, .unknown:
            break
        }
    }

    /// The callback a mark (or another non-callback event) of `controller` happened in, by the rule above.
    public func enclosing(of controller: ControllerRef?) -> EnclosingCallback? {
        var best: EnclosingCallback?
        func consider(_ candidate: EnclosingCallback) {
            guard let current = best else {
                best = candidate
                return
            }
            // Open intervals beat windows; among equals the later beginning is the inner/more recent one.
            if current.isInstantWindow && !candidate.isInstantWindow {
                best = candidate
            } else if current.isInstantWindow == candidate.isInstantWindow && candidate.ordinal > current.ordinal {
                best = candidate
            }
        }
        if let controller {
            if let frames = controllers[controller.serial] {
                if let top = frames.open.last {
                    consider(EnclosingCallback(subject: .controller(frames.ref, top.callback), ordinal: top.ordinal, timestamp: top.timestamp, isInstantWindow: false))
                } else if let window = frames.window {
                    consider(EnclosingCallback(subject: .controller(frames.ref, window.callback), ordinal: window.ordinal, timestamp: window.timestamp, isInstantWindow: true))
                }
            }
        } else if let top = openAcrossControllers.last, let ref = controllers[top.serial]?.ref {
            consider(EnclosingCallback(subject: .controller(ref, top.frame.callback), ordinal: top.frame.ordinal, timestamp: top.frame.timestamp, isInstantWindow: false))
        }
        if let top = appOpen.last {
            consider(EnclosingCallback(subject: .app(top.event), ordinal: top.ordinal, timestamp: top.timestamp, isInstantWindow: false))
        } else if let window = appWindow {
            consider(EnclosingCallback(subject: .app(window.event), ordinal: window.ordinal, timestamp: window.timestamp, isInstantWindow: true))
        }
        return best
    }

    /// The open interval of `callback` of `controller` (begin seen, end not yet), innermost first, or `nil`.
    public func openFrame(_ callback: Callback, of controller: ControllerRef) -> EnclosingCallback? {
        guard let frames = controllers[controller.serial],
              let frame = frames.open.last(where: { $0.callback == callback }) else { return nil }
        return EnclosingCallback(subject: .controller(frames.ref, frame.callback), ordinal: frame.ordinal, timestamp: frame.timestamp, isInstantWindow: false)
    }

    /// The innermost open appearance-callback interval of a controller other than `controller`, if any.
    public func innermostOpenAppearanceCallback(excluding controller: ControllerRef) -> EnclosingCallback? {
        for entry in openAcrossControllers.reversed() where entry.serial != controller.serial && entry.frame.callback.isAppearanceCallback {
            guard let ref = controllers[entry.serial]?.ref else { continue }
            return EnclosingCallback(subject: .controller(ref, entry.frame.callback), ordinal: entry.frame.ordinal, timestamp: entry.frame.timestamp, isInstantWindow: false)
        }
        return nil
    }
}
