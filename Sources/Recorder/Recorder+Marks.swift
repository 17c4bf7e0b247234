import TraceModel

// The standard mark vocabulary (`MarkName`, DESIGN.md §4), one call each. Each records on the fast path: the
// string argument is interned (allocates only the first time a given string is seen).
extension Recorder {
    /// `save`: the app persisted `key`. `critical` marks data the user would lose (a draft), which the
    /// critical-save rules judge.
    public func save(key: String, critical: Bool = false, controller: ControllerRef? = nil) {
        mark(.save, string: key, critical: critical, controller: controller)
    }

    /// `edit`: an unsaved change to `key`.
    public func edit(key: String, controller: ControllerRef? = nil) {
        mark(.edit, string: key, controller: controller)
    }

    /// `timer.start`: a repeating timer `id` was scheduled.
    public func timerStart(id: String, controller: ControllerRef? = nil) {
        mark(.timerStart, string: id, controller: controller)
    }

    /// `timer.stop`: timer `id` was invalidated.
    public func timerStop(id: String, controller: ControllerRef? = nil) {
        mark(.timerStop, string: id, controller: controller)
    }

    /// `observer.add`: a notification or KVO observer `name` was added.
    public func observerAdd(name: String, controller: ControllerRef? = nil) {
        mark(.observerAdd, string: name, controller: controller)
    }

    /// `observer.remove`: observer `name` was removed.
    public func observerRemove(name: String, controller: ControllerRef? = nil) {
        mark(.observerRemove, string: name, controller: controller)
    }

    /// `task.start`: a task or operation `id` started.
    public func taskStart(id: String, controller: ControllerRef? = nil) {
        mark(.taskStart, string: id, controller: controller)
    }

    /// `task.cancel`: task `id` was cancelled.
    public func taskCancel(id: String, controller: ControllerRef? = nil) {
        mark(.taskCancel, string: id, controller: controller)
    }

    /// `request.start`: network request `id` started.
    public func requestStart(id: String, controller: ControllerRef? = nil) {
        mark(.requestStart, string: id, controller: controller)
    }

    /// `request.cancel`: request `id` was cancelled.
    public func requestCancel(id: String, controller: ControllerRef? = nil) {
        mark(.requestCancel, string: id, controller: controller)
    }

    /// `geometry.read`: code read the view's bounds, `width` × `height` points.
    public func geometryRead(width: Double, height: Double, controller: ControllerRef? = nil) {
        push(
            Record(
                kind: .mark, code: StandardMark.geometryRead.rawValue, phase: Phase.instant.rawValue,
                serial: controller?.serial ?? 0, first: width.bitPattern, second: height.bitPattern))
    }

    /// `animation.start`: an animation (optionally named) began.
    public func animationStart(name: String? = nil, controller: ControllerRef? = nil) {
        mark(.animationStart, string: name, controller: controller)
    }

    /// `analytics.screen`: a screen-view analytics event `name` was sent.
    public func analyticsScreen(name: String, controller: ControllerRef? = nil) {
        mark(.analyticsScreen, string: name, controller: controller)
    }

    /// `teardown`: cleanup of `what` ran.
    public func teardown(what: String, controller: ControllerRef? = nil) {
        mark(.teardown, string: what, controller: controller)
    }

    /// Runs `body` as a `work` interval labelled `label`; the end is recorded even if `body` throws.
    public func withWork<Result>(
        label: String, controller: ControllerRef? = nil, body: () throws -> Result
    ) rethrows -> Result {
        mark(.work, .begin, string: label, controller: controller)
        defer { mark(.work, .end, string: label, controller: controller) }
        return try body()
    }

    /// One end of a `work` interval labelled `label`.
    public func work(label: String, _ phase: Phase, controller: ControllerRef? = nil) {
        mark(.work, phase, string: label, controller: controller)
    }
}
