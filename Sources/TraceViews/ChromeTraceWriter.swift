import Audit
import Replay
import TraceLog
import TraceModel

/// Writes a trace, one event at a time, as Chrome's Trace Event Format (the JSON object form,
/// `{"traceEvents":[…]}`), which Perfetto UI, chrome://tracing and most trace viewers open.
///
/// The mapping (docs/VIEWS.md, "Perfetto and chrome://tracing"):
/// - one process per recording run (`pid` 1, 2, …; named after the run's process, or the trace's producer);
/// - per controller two threads: `Type#serial` (tid `1000 + 2 × serial`) with every callback as a complete slice
///   (`ph: "X"`, category `callback`, its real duration, nested as it nested; an instant from an imported log is a
///   zero-length slice), the marks as instant events (`ph: "i"`, category `mark`) and the container operations
///   as zero-length slices (category `container`); and `Type#serial appearance` (tid `1001 + 2 × serial`) with the
///   appearance states as slices (category `appearance`: `appearing`, `appeared`, `disappearing`, and
///   `appearing (cancelled)` / `disappearing (cancelled)` where the next state reverses the transition);
/// - threads ordered by the container tree (`thread_sort_index`: the window's root first, then each container
///   followed by its children and presented controllers);
/// - `app state` (tid 1) and `scene ID` (tid 4, 5, …) with the app's and each scene's state as slices (category
///   `app_state`); `app events` (tid 3) with the app and scene delegate callbacks (category `app`), SwiftUI and
///   recorder events and marks without an owner;
/// - interactive transitions as flows (`bind_id`, `flow_out` on the begin, `flow_in` on the cancel or finish);
/// - findings (`finish(findings:)`) as instant events on `findings` (tid 2), category `finding`, named by rule id.
///
/// Timestamps are exact decimal microseconds of the trace clock's nanoseconds (`TraceEventTime`).
///
/// Memory is bounded by the live controllers (their open callbacks and current appearance span) plus one small
/// ordering key per controller seen, kept for the thread order written at the end. Not `Sendable`: one writer
/// per thread.
public struct ChromeTraceWriter {
    /// What was written, by kind (the counts a viewer's SQL gives back: `slice` rows per category, `flow` rows).
    public struct Summary: Sendable, Equatable {
        /// Callback slices (one per begin or instant callback event, plus one per end without a begin).
        public var callbacks = 0
        /// Appearance-state slices.
        public var appearanceSpans = 0
        /// Of `appearanceSpans`, the cancelled ones.
        public var cancelledSpans = 0
        /// Mark instants.
        public var marks = 0
        /// Container-operation slices.
        public var containerOperations = 0
        /// App and scene delegate callback slices.
        public var appCallbacks = 0
        /// App and scene state slices.
        public var appStates = 0
        /// Other instants on `app events` (SwiftUI, recorder notes and drops).
        public var otherInstants = 0
        /// Flows from an interactive transition's begin to its cancel or finish.
        public var flows = 0
        /// Finding instants.
        public var findings = 0
        /// Processes (recording runs).
        public var processes = 0
        /// Controllers (each has two threads).
        public var controllers = 0
        /// Events read.
        public var events: UInt64 = 0
        /// Bytes written.
        public var bytes = 0
    }

    private struct OpenCallback {
        var name: String
        var begin: UInt64
        var ordinal: UInt64
        var args: JSONObjectText
    }

    private struct ControllerTrack {
        var pid: Int
        var callbacks: [OpenCallback] = []
        var appearance: Appearance = .unknown
        var appearanceSince: UInt64 = 0
    }

    private struct StateSpan {
        var name: String
        var since: UInt64
    }

    private var out: JSONBuffer
    private let header: TraceHeader?
    private var state = ReplayState()
    private var isFirstEntry = true
    private var pid = 1
    /// (first timestamp, pid) of every run, in order.
    private var runs: [(start: UInt64, pid: Int)] = []
    private var tracks: [UInt32: ControllerTrack] = [:]
    /// Every controller seen: its process and its place in the tree (`treeKey`), for the thread order.
    private var order: [UInt32: (pid: Int, key: [UInt32], name: String)] = [:]
    private var appCallbacks: [OpenCallback] = []
    private var appState: StateSpan?
    private var sceneStates: [String: StateSpan] = [:]
    private var sceneTids: [String: Int] = [:]
    private var namedSceneThreads: Set<String> = []
    private var openTransitions: [UInt32: Int] = [:]
    private var lastTimestamp: UInt64 = 0
    private var isFinished = false
    public private(set) var summary = Summary()

    static let findingsTid = 2
    static let appStateTid = 1
    static let appEventsTid = 3

    /// Starts the JSON document.
    ///
    /// - Parameters:
    ///   - header: The trace's header (names the first process after its producer, and goes into `otherData`).
    ///   - sink: Receives the UTF-8 bytes in order, in chunks of about 64 KiB.
    /// - Throws: Whatever `sink` throws.
    public init(header: TraceHeader?, sink: @escaping ([UInt8]) throws -> Void) throws {
        self.header = header
        out = JSONBuffer(sink: sink)
        try out.append("{\"traceEvents\":[\n")
    }

    /// Converts one event (ordinals 0, 1, 2, … in order; timestamps non-decreasing).
    ///
    /// - Throws: Whatever the sink throws.
    public mutating func write(_ event: Event, ordinal: UInt64) throws {
        let time = event.timestamp
        if case .recorder(.runStarted(let process)) = event.payload {
            if summary.events > 0 {
                try endRun(at: time)
                pid += 1
            }
            try startRun(named: process, at: time)
        } else if summary.events == 0 {
            try startRun(named: header?.producer ?? "trace", at: time)
        }
        summary.events += 1
        lastTimestamp = time
        var enclosing: ActiveCallback?
        if case .mark(let mark) = event.payload { enclosing = state.enclosingCallback(of: mark.controller) }
        state.apply(event, ordinal: ordinal)
        let named = event.controllers
        for ref in named { try ensureTrack(ref) }

        switch event.payload {
        case .callback(let callback):
            try handle(callback, at: time, ordinal: ordinal, source: event.source)
        case .container(let container):
            try handle(container, at: time, ordinal: ordinal)
            for ref in named {
                let key = TreeOrder.key(of: ref.serial, in: state)
                order[ref.serial]?.key = key
            }
        case .app(let app):
            try handle(app, at: time, ordinal: ordinal)
        case .mark(let mark):
            try handle(mark, enclosing: enclosing, at: time, ordinal: ordinal, source: event.source)
        case .swiftUI(let swiftUI):
            var args = JSONObjectText()
            args.string("view", swiftUI.view)
            if let host = swiftUI.host { args.string("host", host.displayName) }
            args.int("ordinal", ordinal)
            let tid = swiftUI.host.map { Self.callbackTid($0.serial) } ?? Self.appEventsTid
            try instant("\(swiftUI.action) \(swiftUI.view)", category: "swiftui", tid: tid, at: time, args: args)
            summary.otherInstants += 1
        case .recorder(let recorder):
            var args = JSONObjectText()
            args.int("ordinal", ordinal)
            switch recorder {
            case .runStarted(let process):
                args.string("process", process)
                try instant("run started", category: "recorder", tid: Self.appEventsTid, at: time, args: args)
            case .eventsDropped(let count):
                args.int("count", count)
                try instant("events dropped", category: "recorder", tid: Self.appEventsTid, at: time, args: args)
            case .note(let text):
                args.string("text", text)
                try instant("note", category: "recorder", tid: Self.appEventsTid, at: time, args: args)
            }
            summary.otherInstants += 1
        case .unknown:
            break
        }

        for ref in named { try updateAppearance(ref.serial, at: time) }
        try updateRunStates(at: time)
        for ref in named { try closeIfEnded(ref.serial, at: time) }
    }

    /// Ends the document: closes what is still open at the last event (marked `unfinished`), writes the findings
    /// and the thread order, and flushes.
    ///
    /// - Parameter findings: The audit's findings for this trace (empty for none).
    /// - Returns: What was written.
    /// - Throws: Whatever the sink throws.
    @discardableResult
    public mutating func finish(findings: [Finding]) throws -> Summary {
        guard !isFinished else { return summary }
        isFinished = true
        if summary.events > 0 { try endRun(at: lastTimestamp) }
        var namedFindingThreads: Set<Int> = []
        for finding in findings {
            let pid = runs.last(where: { $0.start <= finding.timestamp })?.pid ?? runs.first?.pid ?? 1
            if namedFindingThreads.insert(pid).inserted {
                try metadata("thread_name", pid: pid, tid: Self.findingsTid, name: "findings")
                try sortIndex(pid: pid, tid: Self.findingsTid, 0)
            }
            var args = JSONObjectText()
            args.string("rule", finding.ruleID)
            args.string("severity", finding.severity.rawValue)
            args.string("verdict", finding.verdict.rawValue)
            args.string("message", finding.message)
            if let controller = finding.controller { args.string("controller", controller) }
            if let callback = finding.callback { args.string("callback", callback) }
            args.int("ordinal", finding.ordinal)
            if !finding.related.isEmpty {
                var related = "["
                for (index, event) in finding.related.enumerated() {
                    if index > 0 { related += "," }
                    JSONString.append("event \(event.ordinal): \(event.message)", to: &related)
                }
                args.raw("related", related + "]")
            }
            var object = JSONObjectText()
            object.string("name", "\(finding.severity.rawValue): \(finding.ruleID)")
            object.string("cat", "finding")
            object.string("ph", "i")
            object.string("s", "t")
            object.raw("ts", TraceEventTime.microseconds(finding.timestamp))
            object.int("pid", pid)
            object.int("tid", Self.findingsTid)
            object.raw("args", args.closed)
            try emit(object)
            summary.findings += 1
        }
        // Thread order: the container tree (window root first), per process, then by serial.
        let sorted = order.sorted { lhs, rhs in
            if lhs.value.pid != rhs.value.pid { return lhs.value.pid < rhs.value.pid }
            if lhs.value.key != rhs.value.key { return lhs.value.key.lexicographicallyPrecedes(rhs.value.key) }
            return lhs.key < rhs.key
        }
        for (rank, entry) in sorted.enumerated() {
            try sortIndex(pid: entry.value.pid, tid: Self.callbackTid(entry.key), 1000 + 2 * rank)
            try sortIndex(pid: entry.value.pid, tid: Self.appearanceTid(entry.key), 1001 + 2 * rank)
        }
        var other = JSONObjectText()
        other.string("generator", "lifetrace export --format chrome-trace")
        if let header {
            other.string("producer", header.producer)
            other.string("trace_id", header.traceIDHex)
            other.string("clock_domain", "\(header.clockDomain)")
            other.string("wall_clock_anchor", "\(header.wallClockAnchor)")
        }
        other.string("time_unit", "ts and dur are exact decimal microseconds of the trace clock's nanoseconds")
        try out.append("\n],\"otherData\":\(other.closed)}\n")
        try out.flush()
        summary.bytes = out.byteCount
        return summary
    }

    // MARK: Threads and processes

    static func callbackTid(_ serial: UInt32) -> Int { 1000 + 2 * Int(serial) }
    static func appearanceTid(_ serial: UInt32) -> Int { 1001 + 2 * Int(serial) }

    private mutating func startRun(named name: String, at time: UInt64) throws {
        runs.append((time, pid))
        summary.processes += 1
        try metadata("process_name", pid: pid, tid: 0, name: name)
        var args = JSONObjectText()
        args.int("sort_index", pid)
        try metadataObject("process_sort_index", pid: pid, tid: 0, args: args)
        try metadata("thread_name", pid: pid, tid: Self.appStateTid, name: "app state")
        try sortIndex(pid: pid, tid: Self.appStateTid, 1)
        try metadata("thread_name", pid: pid, tid: Self.appEventsTid, name: "app events")
        try sortIndex(pid: pid, tid: Self.appEventsTid, 2)
        namedSceneThreads = []
    }

    /// Closes everything the run left open at `time`: its controllers ended with their process (a new run
    /// started) or the trace ends.
    private mutating func endRun(at time: UInt64) throws {
        for serial in tracks.keys.sorted() {
            try closeTrack(serial, at: time)
        }
        while let open = appCallbacks.popLast() {
            try closeCallback(open, at: time, tid: Self.appEventsTid, category: "app", unfinished: true)
            summary.appCallbacks += 1
        }
        if let span = appState {
            try stateSlice(span, until: time, tid: Self.appStateTid)
            appState = nil
        }
        for scene in sceneStates.keys.sorted() {
            try stateSlice(sceneStates[scene]!, until: time, tid: sceneTid(scene))
        }
        sceneStates = [:]
        openTransitions = [:]
    }

    private mutating func ensureTrack(_ ref: ControllerRef) throws {
        guard tracks[ref.serial] == nil else { return }
        var track = ControllerTrack(pid: pid)
        if let c = state.controllers[ref.serial] {
            track.appearance = c.appearance
            track.appearanceSince = lastTimestamp
        }
        tracks[ref.serial] = track
        if order[ref.serial]?.pid != pid {
            if order[ref.serial] == nil { summary.controllers += 1 }
            order[ref.serial] = (pid, TreeOrder.key(of: ref.serial, in: state), ref.displayName)
            try metadata("thread_name", pid: pid, tid: Self.callbackTid(ref.serial), name: ref.displayName)
            try metadata("thread_name", pid: pid, tid: Self.appearanceTid(ref.serial), name: ref.displayName + " appearance")
        }
    }

    private mutating func sceneTid(_ scene: String) -> Int {
        if let tid = sceneTids[scene] { return tid }
        let tid = 4 + sceneTids.count
        sceneTids[scene] = tid
        return tid
    }

    // MARK: Events

    private mutating func handle(_ callback: CallbackEvent, at time: UInt64, ordinal: UInt64, source: EventSource?) throws {
        let serial = callback.controller.serial
        let tid = Self.callbackTid(serial)
        var args = JSONObjectText()
        args.int("ordinal", ordinal)
        if let animated = callback.animated { args.bool("animated", animated) }
        switch callback.parent {
        case .none?: args.string("parent", "nil")
        case .controller(let parent)?: args.string("parent", parent.displayName)
        case nil: break
        }
        if let size = callback.size { args.string("size", "\(size.width)x\(size.height)") }
        if let file = source?.file {
            args.string("source", source?.line.map { "\(file):\($0)" } ?? file)
        }
        switch callback.phase {
        case .begin:
            tracks[serial]?.callbacks.append(OpenCallback(name: callback.callback.name, begin: time, ordinal: ordinal, args: args))
        case .end:
            let name = callback.callback.name
            if let index = tracks[serial]?.callbacks.lastIndex(where: { $0.name == name }) {
                // Callbacks opened inside this one and never ended close with it.
                while let count = tracks[serial]?.callbacks.count, count > index + 1, let inner = tracks[serial]?.callbacks.popLast() {
                    try closeCallback(inner, at: time, tid: tid, category: "callback", unfinished: true)
                    summary.callbacks += 1
                }
                if let open = tracks[serial]?.callbacks.popLast() {
                    try closeCallback(open, at: time, tid: tid, category: "callback", unfinished: false)
                }
            } else {
                args.bool("end_without_begin", true)
                try closeCallback(OpenCallback(name: name, begin: time, ordinal: ordinal, args: args), at: time, tid: tid, category: "callback", unfinished: false)
            }
            summary.callbacks += 1
        case .instant:
            try closeCallback(OpenCallback(name: callback.callback.name, begin: time, ordinal: ordinal, args: args), at: time, tid: tid, category: "callback", unfinished: false)
            summary.callbacks += 1
        }
    }

    private mutating func handle(_ container: ContainerEvent, at time: UInt64, ordinal: UInt64) throws {
        let owner = container.container ?? container.controllers.first
        let tid = owner.map { Self.callbackTid($0.serial) } ?? Self.appEventsTid
        var object = JSONObjectText()
        object.string("name", container.operation.name)
        object.string("cat", "container")
        object.string("ph", "X")
        object.raw("ts", TraceEventTime.microseconds(time))
        object.raw("dur", "0")
        object.int("pid", pid)
        object.int("tid", tid)
        let key = container.container?.serial ?? 0
        switch container.operation {
        case .interactiveTransitionBegin:
            summary.flows += 1
            let id = summary.flows
            openTransitions[key] = id
            object.string("bind_id", "0x\(String(id, radix: 16))")
            object.bool("flow_out", true)
        case .interactiveTransitionCancel, .interactiveTransitionFinish:
            if let id = openTransitions.removeValue(forKey: key) {
                object.string("bind_id", "0x\(String(id, radix: 16))")
                object.bool("flow_in", true)
            }
        default:
            break
        }
        var args = JSONObjectText()
        args.int("ordinal", ordinal)
        if let ref = container.container { args.string("container", ref.displayName) }
        if !container.controllers.isEmpty {
            args.string("controllers", container.controllers.map(\.displayName).joined(separator: ", "))
        }
        if container.phase != .instant { args.string("phase", container.phase.description) }
        if let animated = container.animated { args.bool("animated", animated) }
        if let style = container.style { args.string("style", style.name) }
        if let index = container.index { args.int("index", index) }
        object.raw("args", args.closed)
        try emit(object)
        summary.containerOperations += 1
    }

    private mutating func handle(_ app: AppEvent, at time: UInt64, ordinal: UInt64) throws {
        var args = JSONObjectText()
        args.int("ordinal", ordinal)
        if let scene = app.scene { args.string("scene", scene) }
        let name = app.delegateMethodName
        switch app.phase {
        case .begin:
            appCallbacks.append(OpenCallback(name: name, begin: time, ordinal: ordinal, args: args))
        case .end:
            if let index = appCallbacks.lastIndex(where: { $0.name == name }) {
                while appCallbacks.count > index + 1, let inner = appCallbacks.popLast() {
                    try closeCallback(inner, at: time, tid: Self.appEventsTid, category: "app", unfinished: true)
                    summary.appCallbacks += 1
                }
                if let open = appCallbacks.popLast() {
                    try closeCallback(open, at: time, tid: Self.appEventsTid, category: "app", unfinished: false)
                }
            } else {
                args.bool("end_without_begin", true)
                try closeCallback(OpenCallback(name: name, begin: time, ordinal: ordinal, args: args), at: time, tid: Self.appEventsTid, category: "app", unfinished: false)
            }
            summary.appCallbacks += 1
        case .instant:
            try closeCallback(OpenCallback(name: name, begin: time, ordinal: ordinal, args: args), at: time, tid: Self.appEventsTid, category: "app", unfinished: false)
            summary.appCallbacks += 1
        }
    }

    private mutating func handle(_ mark: MarkEvent, enclosing: ActiveCallback?, at time: UInt64, ordinal: UInt64, source: EventSource?) throws {
        var owner = mark.controller?.serial ?? enclosing?.controllerSerial
        if let serial = owner, tracks[serial] == nil {
            if let ref = state.controllers[serial]?.ref { try ensureTrack(ref) } else { owner = nil }
        }
        let name = mark.viewName
        var args = JSONObjectText()
        args.int("ordinal", ordinal)
        for field in mark.fields { args.field(field.name, field.value) }
        if let enclosing { args.string("in", state.describe(enclosing)) }
        if let file = source?.file {
            args.string("source", source?.line.map { "\(file):\($0)" } ?? file)
        }
        try instant(name, category: "mark", tid: owner.map { Self.callbackTid($0) } ?? Self.appEventsTid, at: time, args: args)
        summary.marks += 1
    }

    private mutating func updateAppearance(_ serial: UInt32, at time: UInt64) throws {
        guard var track = tracks[serial], let c = state.controllers[serial], c.appearance != track.appearance else { return }
        try appearanceSlice(serial, track, next: c.appearance, until: time)
        track.appearance = c.appearance
        track.appearanceSince = time
        tracks[serial] = track
    }

    private mutating func updateRunStates(at time: UInt64) throws {
        let appName = state.app.name
        if appState?.name != appName {
            if let span = appState { try stateSlice(span, until: time, tid: Self.appStateTid) }
            appState = StateSpan(name: appName, since: time)
        }
        for (scene, runState) in state.scenes where sceneStates[scene]?.name != runState.name {
            let tid = sceneTid(scene)
            if namedSceneThreads.insert(scene).inserted {
                try metadata("thread_name", pid: pid, tid: tid, name: "scene \(scene)")
                try sortIndex(pid: pid, tid: tid, 3 + tid)
            }
            if let span = sceneStates[scene] { try stateSlice(span, until: time, tid: tid) }
            sceneStates[scene] = StateSpan(name: runState.name, since: time)
        }
    }

    /// Closes the controller's threads once it is deinitialized (and its deinit has ended) or ended with its
    /// process.
    private mutating func closeIfEnded(_ serial: UInt32, at time: UInt64) throws {
        guard let track = tracks[serial], track.callbacks.isEmpty else { return }
        let c = state.controllers[serial]
        if c == nil || c?.isAlive == false {
            try closeTrack(serial, at: time)
        }
    }

    private mutating func closeTrack(_ serial: UInt32, at time: UInt64) throws {
        guard var track = tracks.removeValue(forKey: serial) else { return }
        while let open = track.callbacks.popLast() {
            try closeCallback(open, at: time, tid: Self.callbackTid(serial), category: "callback", unfinished: true)
            summary.callbacks += 1
        }
        try appearanceSlice(serial, track, next: nil, until: time)
    }

    // MARK: Writing

    private mutating func appearanceSlice(_ serial: UInt32, _ track: ControllerTrack, next: Appearance?, until time: UInt64) throws {
        guard track.appearance == .appearing || track.appearance == .appeared || track.appearance == .disappearing else { return }
        let isCancelled = (track.appearance == .appearing && next == .disappearing) || (track.appearance == .disappearing && next == .appearing)
        var args = JSONObjectText()
        args.string("state", track.appearance.name)
        if let next { args.string("next", next.name) }
        args.bool("cancelled", isCancelled)
        var object = JSONObjectText()
        object.string("name", isCancelled ? "\(track.appearance.name) (cancelled)" : track.appearance.name)
        object.string("cat", "appearance")
        object.string("ph", "X")
        object.raw("ts", TraceEventTime.microseconds(track.appearanceSince))
        object.raw("dur", TraceEventTime.microseconds(time - min(time, track.appearanceSince)))
        object.int("pid", track.pid)
        object.int("tid", Self.appearanceTid(serial))
        object.raw("args", args.closed)
        try emit(object)
        summary.appearanceSpans += 1
        if isCancelled { summary.cancelledSpans += 1 }
    }

    private mutating func stateSlice(_ span: StateSpan, until time: UInt64, tid: Int) throws {
        guard time > span.since else { return }  // a state left at the instant it was entered
        var object = JSONObjectText()
        object.string("name", span.name)
        object.string("cat", "app_state")
        object.string("ph", "X")
        object.raw("ts", TraceEventTime.microseconds(span.since))
        object.raw("dur", TraceEventTime.microseconds(time - min(time, span.since)))
        object.int("pid", pid)
        object.int("tid", tid)
        try emit(object)
        summary.appStates += 1
    }

    private mutating func closeCallback(_ open: OpenCallback, at time: UInt64, tid: Int, category: String, unfinished: Bool) throws {
        var args = open.args
        if unfinished { args.bool("unfinished", true) }
        var object = JSONObjectText()
        object.string("name", open.name)
        object.string("cat", category)
        object.string("ph", "X")
        object.raw("ts", TraceEventTime.microseconds(open.begin))
        object.raw("dur", TraceEventTime.microseconds(time - min(time, open.begin)))
        object.int("pid", pid)
        object.int("tid", tid)
        object.raw("args", args.closed)
        try emit(object)
    }

    private mutating func instant(_ name: String, category: String, tid: Int, at time: UInt64, args: JSONObjectText) throws {
        var object = JSONObjectText()
        object.string("name", name)
        object.string("cat", category)
        object.string("ph", "i")
        object.string("s", "t")
        object.raw("ts", TraceEventTime.microseconds(time))
        object.int("pid", pid)
        object.int("tid", tid)
        object.raw("args", args.closed)
        try emit(object)
    }

    private mutating func metadata(_ kind: String, pid: Int, tid: Int, name: String) throws {
        var args = JSONObjectText()
        args.string("name", name)
        try metadataObject(kind, pid: pid, tid: tid, args: args)
    }

    private mutating func sortIndex(pid: Int, tid: Int, _ index: Int) throws {
        var args = JSONObjectText()
        args.int("sort_index", index)
        try metadataObject("thread_sort_index", pid: pid, tid: tid, args: args)
    }

    private mutating func metadataObject(_ kind: String, pid: Int, tid: Int, args: JSONObjectText) throws {
        var object = JSONObjectText()
        object.string("name", kind)
        object.string("ph", "M")
        object.int("pid", pid)
        object.int("tid", tid)
        object.raw("args", args.closed)
        try emit(object)
    }

    private mutating func emit(_ object: JSONObjectText) throws {
        if isFirstEntry {
            isFirstEntry = false
        } else {
            try out.append(",\n")
        }
        try out.append(object.closed)
    }
}
