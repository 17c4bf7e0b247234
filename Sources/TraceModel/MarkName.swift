/// The standard mark vocabulary that rules rely on (docs/JSONL.md). Any other name is a custom mark.
///
/// | name | fields | meaning |
/// |---|---|---|
/// | `save` | `key` (string), `critical` (bool) | the app persisted `key` |
/// | `edit` | `key` (string) | an unsaved change to `key` |
/// | `timer.start` / `timer.stop` | `id` | a repeating timer was scheduled / invalidated |
/// | `observer.add` / `observer.remove` | `name` | a notification or KVO observer |
/// | `task.start` / `task.cancel` | `id` | a Swift concurrency task or operation |
/// | `request.start` / `request.cancel` | `id` | a network request |
/// | `geometry.read` | `width`, `height` (points) | code read the view's bounds |
/// | `animation.start` | `name` (optional) | an animation began |
/// | `analytics.screen` | `name` | a screen-view analytics event was sent |
/// | `teardown` | `what` | cleanup ran |
/// | `work` | `label` | app work, usually as a begin/end interval |
public enum MarkName {
    public static let save = "save"
    public static let edit = "edit"
    public static let timerStart = "timer.start"
    public static let timerStop = "timer.stop"
    public static let observerAdd = "observer.add"
    public static let observerRemove = "observer.remove"
    public static let taskStart = "task.start"
    public static let taskCancel = "task.cancel"
    public static let requestStart = "request.start"
    public static let requestCancel = "request.cancel"
    public static let geometryRead = "geometry.read"
    public static let animationStart = "animation.start"
    public static let analyticsScreen = "analytics.screen"
    public static let teardown = "teardown"
    public static let work = "work"

    /// Every standard name, in the order above.
    public static let standard: [String] = [
        save, edit, timerStart, timerStop, observerAdd, observerRemove, taskStart, taskCancel,
        requestStart, requestCancel, geometryRead, animationStart, analyticsScreen, teardown, work,
    ]
}
