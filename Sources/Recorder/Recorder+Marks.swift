import TraceModel

// The standard mark vocabulary (`MarkName`, docs/JSONL.md), one call each. Each records on the fast path: the string argument is
// interned (allocates only the first time a given string is seen). Each captures its call site (`#fileID`,
// `#line` default arguments: `NoteApp/NoteEditorViewController.swift`, 42), recorded as the event's source, so a
// finding points at the app's own line; the file name is a string literal whose interned id a hit in the ring's
// intern cache gives (a multiply and two compares), so the hot path stays a store. `geometryRead` has none (its
// record holds both dimensions).
extension Recorder {
    /// `save`: the app persisted `key`. `critical` marks data the user would lose (a draft), which the
    /// critical-save rules judge.
    @inlinable
    public func save(key: String, critical: Bool = false, controller: ControllerRef? = nil, file: String = #fileID, line: UInt = #line) {
        standardMark(StandardMark.save.rawValue, string: key, critical: critical, serial: controller?.serial ?? 0, file: file, line: line)
    }

    /// `edit`: an unsaved change to `key`.
    @inlinable
    public func edit(key: String, controller: ControllerRef? = nil, file: String = #fileID, line: UInt = #line) {
        standardMark(StandardMark.edit.rawValue, string: key, serial: controller?.serial ?? 0, file: file, line: line)
    }

    /// `timer.start`: a repeating timer `id` was scheduled.
    @inlinable
    public func timerStart(id: String, controller: ControllerRef? = nil, file: String = #fileID, line: UInt = #line) {
        standardMark(StandardMark.timerStart.rawValue, string: id, serial: controller?.serial ?? 0, file: file, line: line)
    }

    /// `timer.stop`: timer `id` was invalidated.
    @inlinable
    public func timerStop(id: String, controller: ControllerRef? = nil, file: String = #fileID, line: UInt = #line) {
        standardMark(StandardMark.timerStop.rawValue, string: id, serial: controller?.serial ?? 0, file: file, line: line)
    }

    /// `observer.add`: a notification or KVO observer `name` was added.
    @inlinable
    public func observerAdd(name: String, controller: ControllerRef? = nil, file: String = #fileID, line: UInt = #line) {
        standardMark(StandardMark.observerAdd.rawValue, string: name, serial: controller?.serial ?? 0, file: file, line: line)
    }

    /// `observer.remove`: observer `name` was removed.
    @inlinable
    public func observerRemove(name: String, controller: ControllerRef? = nil, file: String = #fileID, line: UInt = #line) {
        standardMark(StandardMark.observerRemove.rawValue, string: name, serial: controller?.serial ?? 0, file: file, line: line)
    }

    /// `task.start`: a task or operation `id` started.
    @inlinable
    public func taskStart(id: String, controller: ControllerRef? = nil, file: String = #fileID, line: UInt = #line) {
        standardMark(StandardMark.taskStart.rawValue, string: id, serial: controller?.serial ?? 0, file: file, line: line)
    }

    /// `task.cancel`: task `id` was cancelled.
    @inlinable
    public func taskCancel(id: String, controller: ControllerRef? = nil, file: String = #fileID, line: UInt = #line) {
        standardMark(StandardMark.taskCancel.rawValue, string: id, serial: controller?.serial ?? 0, file: file, line: line)
    }

    /// `request.start`: network request `id` started.
    @inlinable
    public func requestStart(id: String, controller: ControllerRef? = nil, file: String = #fileID, line: UInt = #line) {
        standardMark(StandardMark.requestStart.rawValue, string: id, serial: controller?.serial ?? 0, file: file, line: line)
    }

    /// `request.cancel`: request `id` was cancelled.
    @inlinable
    public func requestCancel(id: String, controller: ControllerRef? = nil, file: String = #fileID, line: UInt = #line) {
        standardMark(StandardMark.requestCancel.rawValue, string: id, serial: controller?.serial ?? 0, file: file, line: line)
    }

    /// `geometry.read`: code read the view's bounds, `width` × `height` points.
    @inlinable
    public func geometryRead(width: Double, height: Double, controller: ControllerRef? = nil) {
        recordGeometry(width: width, height: height, serial: controller?.serial ?? 0)
    }

    /// `animation.start`: an animation (optionally named) began.
    @inlinable
    public func animationStart(name: String? = nil, controller: ControllerRef? = nil, file: String = #fileID, line: UInt = #line) {
        standardMark(StandardMark.animationStart.rawValue, string: name, serial: controller?.serial ?? 0, file: file, line: line)
    }

    /// `analytics.screen`: a screen-view analytics event `name` was sent.
    @inlinable
    public func analyticsScreen(name: String, controller: ControllerRef? = nil, file: String = #fileID, line: UInt = #line) {
        standardMark(StandardMark.analyticsScreen.rawValue, string: name, serial: controller?.serial ?? 0, file: file, line: line)
    }

    /// `teardown`: cleanup of `what` ran.
    @inlinable
    public func teardown(what: String, controller: ControllerRef? = nil, file: String = #fileID, line: UInt = #line) {
        standardMark(StandardMark.teardown.rawValue, string: what, serial: controller?.serial ?? 0, file: file, line: line)
    }

    /// Runs `body` as a `work` interval labelled `label`; the end is recorded even if `body` throws.
    @inlinable
    public func withWork<Result>(
        label: String, controller: ControllerRef? = nil, file: String = #fileID, line: UInt = #line, body: () throws -> Result
    ) rethrows -> Result {
        standardMark(StandardMark.work.rawValue, phase: Phase.begin.rawValue, string: label, serial: controller?.serial ?? 0, file: file, line: line)
        defer { standardMark(StandardMark.work.rawValue, phase: Phase.end.rawValue, string: label, serial: controller?.serial ?? 0, file: file, line: line) }
        return try body()
    }

    /// One end of a `work` interval labelled `label`.
    @inlinable
    public func work(label: String, _ phase: Phase, controller: ControllerRef? = nil, file: String = #fileID, line: UInt = #line) {
        standardMark(StandardMark.work.rawValue, phase: phase.rawValue, string: label, serial: controller?.serial ?? 0, file: file, line: line)
    }
}
