import TraceModel

// The standard mark vocabulary (`MarkName`, docs/JSONL.md), one call each. Each records on the fast path: the
// string argument is interned (allocates only the first time a given string is seen).
extension Recorder {
    /// `save`: the app persisted `key`. `critical` marks data the user would lose (a draft), which the
    /// critical-save rules judge.
    @inlinable
    public func save(key: String, critical: Bool = false, controller: ControllerRef? = nil) {
        standardMark(StandardMark.save.rawValue, string: key, critical: critical, serial: controller?.serial ?? 0)
    }

    /// `edit`: an unsaved change to `key`.
    @inlinable
    public func edit(key: String, controller: ControllerRef? = nil) {
        standardMark(StandardMark.edit.rawValue, string: key, serial: controller?.serial ?? 0)
    }

    /// `timer.start`: a repeating timer `id` was scheduled.
    @inlinable
    public func timerStart(id: String, controller: ControllerRef? = nil) {
        standardMark(StandardMark.timerStart.rawValue, string: id, serial: controller?.serial ?? 0)
    }

    /// `timer.stop`: timer `id` was invalidated.
    @inlinable
    public func timerStop(id: String, controller: ControllerRef? = nil) {
        standardMark(StandardMark.timerStop.rawValue, string: id, serial: controller?.serial ?? 0)
    }

    /// `observer.add`: a notification or KVO observer `name` was added.
    @inlinable
    public func observerAdd(name: String, controller: ControllerRef? = nil) {
        standardMark(StandardMark.observerAdd.rawValue, string: name, serial: controller?.serial ?? 0)
    }

    /// `observer.remove`: observer `name` was removed.
    @inlinable
    public func observerRemove(name: String, controller: ControllerRef? = nil) {
        standardMark(StandardMark.observerRemove.rawValue, string: name, serial: controller?.serial ?? 0)
    }

    /// `task.start`: a task or operation `id` started.
    @inlinable
    public func taskStart(id: String, controller: ControllerRef? = nil) {
        standardMark(StandardMark.taskStart.rawValue, string: id, serial: controller?.serial ?? 0)
    }

    /// `task.cancel`: task `id` was cancelled.
    @inlinable
    public func taskCancel(id: String, controller: ControllerRef? = nil) {
        standardMark(StandardMark.taskCancel.rawValue, string: id, serial: controller?.serial ?? 0)
    }

    /// `request.start`: network request `id` started.
    @inlinable
    public func requestStart(id: String, controller: ControllerRef? = nil) {
        standardMark(StandardMark.requestStart.rawValue, string: id, serial: controller?.serial ?? 0)
    }

    /// `request.cancel`: request `id` was cancelled.
    @inlinable
    public func requestCancel(id: String, controller: ControllerRef? = nil) {
        standardMark(StandardMark.requestCancel.rawValue, string: id, serial: controller?.serial ?? 0)
    }

    /// `geometry.read`: code read the view's bounds, `width` × `height` points.
    @inlinable
    public func geometryRead(width: Double, height: Double, controller: ControllerRef? = nil) {
        recordGeometry(width: width, height: height, serial: controller?.serial ?? 0)
    }

    /// `animation.start`: an animation (optionally named) began.
    @inlinable
    public func animationStart(name: String? = nil, controller: ControllerRef? = nil) {
        standardMark(StandardMark.animationStart.rawValue, string: name, serial: controller?.serial ?? 0)
    }

    /// `analytics.screen`: a screen-view analytics event `name` was sent.
    @inlinable
    public func analyticsScreen(name: String, controller: ControllerRef? = nil) {
        standardMark(StandardMark.analyticsScreen.rawValue, string: name, serial: controller?.serial ?? 0)
    }

    /// `teardown`: cleanup of `what` ran.
    @inlinable
    public func teardown(what: String, controller: ControllerRef? = nil) {
        standardMark(StandardMark.teardown.rawValue, string: what, serial: controller?.serial ?? 0)
    }

    /// Runs `body` as a `work` interval labelled `label`; the end is recorded even if `body` throws.
    @inlinable
    public func withWork<Result>(
        label: String, controller: ControllerRef? = nil, body: () throws -> Result
    ) rethrows -> Result {
        standardMark(StandardMark.work.rawValue, phase: Phase.begin.rawValue, string: label, serial: controller?.serial ?? 0)
        defer { standardMark(StandardMark.work.rawValue, phase: Phase.end.rawValue, string: label, serial: controller?.serial ?? 0) }
        return try body()
    }

    /// One end of a `work` interval labelled `label`.
    @inlinable
    public func work(label: String, _ phase: Phase, controller: ControllerRef? = nil) {
        standardMark(StandardMark.work.rawValue, phase: phase.rawValue, string: label, serial: controller?.serial ?? 0)
    }
}
