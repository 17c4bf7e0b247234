import TraceModel

/// A resource a controller (or the app) started and has not stopped: a timer, an observer, a task, a request.
///
/// Built from the standard marks (`MarkName`): `timer.start`/`timer.stop` (`id`), `observer.add`/`observer.remove`
/// (`name`), `task.start`/`task.cancel` (`id`), `request.start`/`request.cancel` (`id`).
public struct LiveResource: Sendable, Hashable {
    public enum Kind: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case timer = 0
        case observer = 1
        case task = 2
        case request = 3

        public var name: String {
            switch self {
            case .timer: "timer"
            case .observer: "observer"
            case .task: "task"
            case .request: "request"
            }
        }

        public var description: String { name }
    }

    public var kind: Kind
    /// The mark's `id` (timers, tasks, requests) or `name` (observers); empty when the mark had none.
    public var id: String
    /// When it started, nanoseconds on the trace clock.
    public var since: UInt64
    /// Ordinal of the starting mark.
    public var ordinal: UInt64
    /// The callback the start happened in (`ReplayState.enclosingCallback(of:)` at that moment), if any.
    public var startedIn: ActiveCallback?

    public init(kind: Kind, id: String, since: UInt64, ordinal: UInt64, startedIn: ActiveCallback?) {
        self.kind = kind
        self.id = id
        self.since = since
        self.ordinal = ordinal
        self.startedIn = startedIn
    }

    /// `timer:refresh`.
    public var label: String { "\(kind.name):\(id)" }
}

/// An edit not yet saved: an `edit` mark of `key` with no `save` of `key` after it.
public struct UnsavedEdit: Sendable, Hashable {
    public var key: String
    /// The first unsaved edit of `key`, nanoseconds on the trace clock, and its ordinal.
    public var firstEdit: UInt64
    public var firstOrdinal: UInt64
    /// The latest edit of `key`.
    public var lastEdit: UInt64
    public var lastOrdinal: UInt64
    /// How many edits of `key` since the last save.
    public var count: UInt64

    public init(key: String, firstEdit: UInt64, firstOrdinal: UInt64, lastEdit: UInt64, lastOrdinal: UInt64, count: UInt64) {
        self.key = key
        self.firstEdit = firstEdit
        self.firstOrdinal = firstOrdinal
        self.lastEdit = lastEdit
        self.lastOrdinal = lastOrdinal
        self.count = count
    }
}

/// A SwiftUI view hosted by a controller (or unhosted), as its `onAppear`/`onDisappear` actions leave it.
///
/// Source: docs/LIFECYCLE.md: these follow the view's membership in the render tree, not its visibility.
public struct SwiftUIViewState: Sendable, Hashable {
    public var view: String
    /// Between an `onAppear` and the next `onDisappear`.
    public var isInRenderTree: Bool
    /// How many `onAppear` actions ran in the whole trace.
    public var appearCount: UInt64

    public init(view: String, isInRenderTree: Bool, appearCount: UInt64) {
        self.view = view
        self.isInRenderTree = isInRenderTree
        self.appearCount = appearCount
    }
}
