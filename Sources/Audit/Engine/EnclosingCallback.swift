import TraceModel

/// The callback an event happened in: a controller's callback or an app/scene delegate callback.
///
/// See `CallbackAttribution` for how marks are attributed, including in instant-only (imported) traces.
public struct EnclosingCallback: Sendable, Hashable {
    /// Whose callback it is.
    public enum Subject: Sendable, Hashable {
        case controller(ControllerRef, Callback)
        case app(AppEvent)
    }

    public var subject: Subject
    /// The ordinal of the callback's `begin` (or `instant`) event.
    public var ordinal: UInt64
    /// The timestamp of that event, nanoseconds on the trace clock.
    public var timestamp: UInt64
    /// `true` when the callback was recorded as an instant and the attribution rests on "nothing else of the
    /// same subject happened since" rather than on a begin/end interval.
    public var isInstantWindow: Bool

    public init(subject: Subject, ordinal: UInt64, timestamp: UInt64, isInstantWindow: Bool) {
        self.subject = subject
        self.ordinal = ordinal
        self.timestamp = timestamp
        self.isInstantWindow = isInstantWindow
    }

    /// The controller callback, or `nil` for an app callback.
    public var callback: Callback? {
        if case .controller(_, let callback) = subject { return callback }
        return nil
    }

    /// The controller whose callback it is, or `nil` for an app callback.
    public var controller: ControllerRef? {
        if case .controller(let ref, _) = subject { return ref }
        return nil
    }

    /// The app transition, or `nil` for a controller callback.
    public var appTransition: AppTransition? {
        if case .app(let event) = subject { return event.transition }
        return nil
    }

    /// As shown in findings: `viewWillDisappear`, `sceneDidEnterBackground(_:)`.
    public var name: String {
        switch subject {
        case .controller(_, let callback): callback.name
        case .app(let event): event.delegateMethodName
        }
    }
}
