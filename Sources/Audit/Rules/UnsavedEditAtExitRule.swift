import TraceLog
import TraceModel

/// `unsaved_edit_at_exit`: an edit not saved before the screen or the app goes away.
enum UnsavedEditAtExitRule {
    static let id = "unsaved_edit_at_exit"

    static let rule = Rule(descriptor) { UnsavedEditAtExitMonitor(settings: $0) }

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "An edit of a key is not followed by a critical save of that key before the controller disappears, is deinitialized, the app/scene enters the background or terminates, or the process ends (a new recording run starts).",
            defaultSeverity: .error,
            explanation: """
                An `edit` mark says the user changed `key` and the change exists only in memory. It must be \
                persisted by a critical `save` of the same key before the controller's viewDidDisappear completes, \
                before its deinit, and before the app or scene enters the background or terminates: a suspended \
                app can be killed without further notice, and going to the background gives no \
                viewWillDisappear/viewDidDisappear (Apple, "Managing your app's life cycle"; DESIGN.md §2). A save \
                made inside the exit callback itself counts (between its begin and end, or in an instant-only log \
                after the exit line and before the next callback or app line). When the trace holds several \
                recording runs, the start of a run (`runStarted` after earlier events) is the end of the previous \
                process (killed or crashed, so nothing else was recorded): an edit still unsaved then was lost, \
                and is reported at the `runStarted` event. The finding points at the exit and lists the unsaved edits; a save by the same controller, or \
                by no controller, clears the key.
                """,
            fix: """
                Save critical data where it cannot be skipped: in viewDidDisappear for the screen leaving, and on \
                didEnterBackground/sceneDidEnterBackground for the app leaving (apps get no disappearance \
                callbacks then). Mark the save `critical=true` with the same key as the edit.
                """,
            examples: examples
        )
    }

    static var examples: [RuleExample] {
        let chat = ExampleTrace.controller(1, "ConversationViewController")

        var lost = ExampleTrace()
        lost.appear(chat)
        lost.mark(.edit(key: "draft", controller: chat))
        lost.wait(4)
        lost.mark(.edit(key: "draft", controller: chat))
        lost.app(.willResignActive)
        lost.app(.didEnterBackground)

        var savedOnBackground = ExampleTrace()
        savedOnBackground.appear(chat)
        savedOnBackground.mark(.edit(key: "draft", controller: chat))
        savedOnBackground.app(.willResignActive)
        savedOnBackground.app(.didEnterBackground)
        savedOnBackground.mark(.save(key: "draft", critical: true, controller: chat))

        var disappearing = ExampleTrace()
        disappearing.appear(chat)
        disappearing.mark(.edit(key: "draft", controller: chat))
        disappearing.callback(.viewWillDisappear, chat)
        disappearing.callback(.viewDidDisappear, chat)
        disappearing.callback(.deinitialize, chat)

        var savedInDidDisappear = ExampleTrace()
        savedInDidDisappear.appear(chat)
        savedInDidDisappear.mark(.edit(key: "draft", controller: chat))
        savedInDidDisappear.callback(.viewWillDisappear, chat)
        savedInDidDisappear.interval(.viewDidDisappear, chat) { $0.mark(.save(key: "draft", critical: true, controller: chat)) }
        savedInDidDisappear.callback(.deinitialize, chat)

        var killed = ExampleTrace()
        killed.runStarted("Chat[100]")
        killed.appear(chat)
        killed.mark(.edit(key: "draft", controller: chat))
        killed.wait(30)
        killed.runStarted("Chat[200]")

        var savedThenKilled = ExampleTrace()
        savedThenKilled.runStarted("Chat[100]")
        savedThenKilled.appear(chat)
        savedThenKilled.mark(.edit(key: "draft", controller: chat))
        savedThenKilled.mark(.save(key: "draft", critical: true, controller: chat))
        savedThenKilled.wait(30)
        savedThenKilled.runStarted("Chat[200]")

        return [
            RuleExample(title: "draft typed, app sent to the background, saved nowhere", events: lost.events, expectedFindings: 1, expectedSeverity: .error),
            RuleExample(title: "draft typed, controller popped and deallocated without a save", events: disappearing.events, expectedFindings: 1, expectedSeverity: .error),
            RuleExample(title: "draft saved on didEnterBackground (instant-only log style)", events: savedOnBackground.events, expectedFindings: 0),
            RuleExample(title: "draft saved inside viewDidDisappear", events: savedInDidDisappear.events, expectedFindings: 0),
            RuleExample(title: "draft typed, then the app is killed while on screen (a new recording run starts): the draft was lost", events: killed.events, expectedFindings: 1, expectedSeverity: .error),
            RuleExample(title: "draft typed and saved, then the app is killed", events: savedThenKilled.events, expectedFindings: 0),
        ]
    }
}

/// The monitor of `unsaved_edit_at_exit`.
final class UnsavedEditAtExitMonitor: RuleMonitor {
    struct Edits {
        var controller: ControllerRef?
        var key: String
        var first: EditMark
        var last: EditMark
        var count: Int
    }

    /// Where an edit mark was; its texts are built only for a finding (most edits are saved).
    struct EditMark {
        var ordinal: UInt64
        var timestamp: UInt64
        var source: EventSource?
    }

    /// An exit whose attribution window is still open: saves in it still count.
    struct PendingExit {
        enum Closer: Equatable {
            /// Closed by `callback`'s end for the controller (interval exits).
            case callbackEnd(UInt32, Callback)
            /// Closed by the app's `end` of `transition` (interval exits).
            case appEnd(AppTransition)
            /// Closed by the next callback or app event of anyone (instant exits; see `CallbackAttribution`).
            case nextCallback
        }

        var closer: Closer
        var ordinal: UInt64
        var timestamp: UInt64
        var source: EventSource?
        var callbackName: String
        /// What the exit was, in words (built only for a finding: most edits are saved before their exit closes).
        var what: What
        var edits: [Edits]
        /// The exit is the end of the process itself: the change was lost, not merely at risk.
        var isProcessEnd = false

        /// The parts of an exit's description.
        enum What {
            /// Already in words.
            case text(String)
            /// The controller's viewDidDisappear (or deinit, `isDeinit`) at `timestamp`.
            case controller(ControllerRef, isDeinit: Bool, timestamp: UInt64)
            /// The app's (or the scene's) didEnterBackground or willTerminate at `timestamp`.
            case app(AppEvent, timestamp: UInt64)
        }
    }

    let settings: RuleSettings
    let interests: EventInterests = [.callbacks, .app, .marks, .recorder]
    let markFilter = MarkFilter([MarkName.edit, MarkName.save])
    /// No fixed callbacks (`callbackDemand`): the exits (`exits`) while an edit is unsaved, every callback while an
    /// exit window is open, since any callback may close it.
    let callbackFilter: CallbackSet = []
    let callbackDemand: CallbackDemand? = CallbackDemand()
    private static let exits = CallbackSet([.viewDidDisappear, .deinitialize], ends: false)
    /// Exits (and their ends); every app event while an exit window is open (`CallbackDemand.app`).
    let appFilter = AppTransitionSet([.didEnterBackground, .willTerminate])
    /// Nothing it looks at reads the replayed state.
    let stateFreeCallbacks = CallbackSet.all
    let stateFreeRecords: EventInterests = [.app, .marks]
    /// Unsaved edits by controller serial (0 for marks without a controller), one per key (a short list searched by
    /// key: a dictionary of dictionaries made its generic types at run time, ≈ 380 000 instructions at the first
    /// edit). A controller whose edits are all saved has no entry (an empty entry would read as none anyway).
    @exclusivity(unchecked) private var unsaved = SerialMap<[Edits]>()
    @exclusivity(unchecked) private var pending: [PendingExit] = []
    /// The first event's timestamp: times in messages are measured from it (`EventContext.time(_:)`).
    @exclusivity(unchecked) private var traceStart: UInt64 = 0
    /// What `callbackDemand` asks for now: 0 nothing, 1 the exits (an edit is unsaved), 2 everything (an exit
    /// window is open).
    @exclusivity(unchecked) private var demanding = 0

    init(settings: RuleSettings) {
        self.settings = settings
    }

    func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        traceStart = context.traceStart
        observeCallback(record, context, &findings)
        updateDemand()
    }

    /// Every callback and app event while an exit window is open, since any of them may close it; else the exits
    /// while an edit is unsaved (written only when that changes).
    private func updateDemand() {
        let wanted = !pending.isEmpty ? 2 : !unsaved.isEmpty ? 1 : 0
        guard wanted != demanding else { return }
        demanding = wanted
        callbackDemand!.extra = wanted == 2 ? .all : wanted == 1 ? Self.exits : []
        callbackDemand!.app = wanted == 2 ? .all : []
    }

    private func observeCallback(_ record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        let serial = record.controller
        if !pending.isEmpty {
            settle(findings: &findings) { closer in
                switch closer {
                case .callbackEnd(let owner, let which): owner == serial && which == record.callback && record.phase == .end
                case .nextCallback: true
                case .appEnd: false
                }
            }
        }
        guard record.phase != .end, record.callback == .viewDidDisappear || record.callback == .deinitialize else { return }
        guard !unsaved.isEmpty, let edits = unsaved.removeValue(forKey: serial), !edits.isEmpty else { return }
        let what = PendingExit.What.controller(context.controller(of: record), isDeinit: record.callback == .deinitialize, timestamp: record.timestamp)
        pending.append(PendingExit(
            closer: record.phase == .begin ? .callbackEnd(serial, record.callback) : .nextCallback,
            ordinal: context.ordinal, timestamp: record.timestamp, source: context.source,
            callbackName: record.callback.name, what: what,
            edits: edits.sorted { $0.first.ordinal < $1.first.ordinal }
        ))
    }

    /// Reads `edit` and `save` marks from the record (name code, controller, `key` and `critical` fields): no
    /// `Event` is built for them.
    func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        if record.kind == .app {
            // The `AppEvent` the record stands for, without building the `Event` (as the decoder builds it: an
            // unknown transition code reads as didFinishLaunching).
            traceStart = context.traceStart
            defer { updateDemand() }
            let app = AppEvent(record.appTransition ?? .didFinishLaunching, record.phase, scene: context.string(of: record))
            observe(app, at: record.timestamp, source: context.source, context, &findings)
            return
        }
        guard record.kind == .mark else {
            context.withEvent(of: record) { observe($0, context, &findings) }
            return
        }
        traceStart = context.traceStart
        defer { updateDemand() }
        // As `MarkEvent.key` and `isCritical` read them: the first field of that name.
        guard let key = context.field(.key, of: record)?.stringValue else { return }
        let serial = record.hasController ? record.controller : 0
        switch record.markName {
        case .edit:
            let here = EditMark(ordinal: context.ordinal, timestamp: record.timestamp, source: context.source)
            if let position = unsaved.position(of: serial), let index = unsaved[at: position].firstIndex(where: { $0.key == key }) {
                unsaved.update(at: position) { edits in
                    edits[index].last = here
                    edits[index].count += 1
                }
            } else {
                let edit = Edits(controller: record.hasController ? context.controller(of: record) : nil, key: key, first: here, last: here, count: 1)
                let position = unsaved.position(of: serial, inserting: [])
                unsaved.update(at: position) { $0.append(edit) }
            }
        case .save:
            if context.field(.critical, of: record)?.boolValue ?? false {
                clear(key: key, serial: serial, anyController: !record.hasController)
            }
        default:
            break
        }
    }

    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {
        traceStart = context.traceStart
        defer { updateDemand() }
        switch event.payload {
        case .app(let app):
            observe(app, at: event.timestamp, source: event.source, context, &findings)
        case .recorder(.runStarted(let process)) where context.ordinal > 0:
            // The previous process ended (killed or crashed): exit windows close, and every edit still unsaved
            // was lost with it.
            settle(findings: &findings) { _ in true }
            guard !unsaved.isEmpty else { return }
            let edits = unsaved.values.joined().sorted { $0.first.ordinal < $1.first.ordinal }
            unsaved.removeAll()
            let lastOfRun = context.time(context.previousTimestamp ?? event.timestamp)
            pending.append(PendingExit(
                closer: .nextCallback, ordinal: context.ordinal, timestamp: event.timestamp, source: event.source,
                callbackName: "runStarted",
                what: .text("its process ended (last event of the run at \(lastOfRun); a new run of \(process) starts at \(context.time(event.timestamp)), so the app was killed or crashed)"),
                edits: edits, isProcessEnd: true
            ))
            settle(findings: &findings) { _ in true }
        default:
            break
        }
    }

    /// An app or scene delegate event, at `timestamp`.
    private func observe(_ app: AppEvent, at timestamp: UInt64, source: EventSource?, _ context: EventContext, _ findings: inout [Finding]) {
        if !pending.isEmpty {
            settle(findings: &findings) { closer in
                switch closer {
                case .appEnd(let transition): transition == app.transition && app.phase == .end
                case .nextCallback: true
                case .callbackEnd: false
                }
            }
        }
        guard app.phase != .end, app.transition == .didEnterBackground || app.transition == .willTerminate else { return }
        guard !unsaved.isEmpty else { return }
        let edits = unsaved.values.joined().sorted { $0.first.ordinal < $1.first.ordinal }
        unsaved.removeAll()
        pending.append(PendingExit(
            closer: app.phase == .begin ? .appEnd(app.transition) : .nextCallback,
            ordinal: context.ordinal, timestamp: timestamp, source: source,
            callbackName: app.delegateMethodName, what: .app(app, timestamp: timestamp),
            edits: edits
        ))
    }

    func finish(_ end: TraceEnd, _ findings: inout [Finding]) {
        settle(findings: &findings) { _ in true }
    }

    private func clear(key: String, serial: UInt32, anyController: Bool) {
        if anyController {
            if !unsaved.isEmpty { for owner in Array(unsaved.keys) { clear(key: key, of: owner) } }
        } else {
            clear(key: key, of: serial)
        }
        for index in pending.indices {
            pending[index].edits.removeAll { $0.key == key && (anyController || ($0.controller?.serial ?? 0) == serial) }
        }
    }

    /// Forgets the unsaved edits of `key` by `owner`, and `owner`'s entry once it has none left.
    private func clear(key: String, of owner: UInt32) {
        guard let position = unsaved.position(of: owner) else { return }
        let empty = unsaved.update(at: position) { edits in
            edits.removeAll { $0.key == key }
            return edits.isEmpty
        }
        if empty { unsaved.removeValue(forKey: owner) }
    }

    /// An exit's description, e.g. `FormViewController#3 disappeared (viewDidDisappear at 5.904 s)`.
    private func text(_ what: PendingExit.What) -> String {
        switch what {
        case .text(let text):
            return text
        case .controller(let controller, let isDeinit, let timestamp):
            let name = controller.displayName
            return isDeinit ? "\(name) was deinitialized at \(time(timestamp))" : "\(name) disappeared (viewDidDisappear at \(time(timestamp)))"
        case .app(let app, let timestamp):
            let subject = app.scene.map { "scene '\($0)'" } ?? "the app"
            let verb = app.transition == .didEnterBackground ? "entered the background" : "was about to terminate"
            return "\(subject) \(verb) at \(time(timestamp)) (\(app.delegateMethodName))"
        }
    }

    /// `timestamp` as seconds since the first event, as `EventContext.time(_:)` writes it.
    private func time(_ timestamp: UInt64) -> String {
        TimeText.seconds(timestamp >= traceStart ? timestamp - traceStart : 0)
    }

    private func related(_ mark: EditMark, _ key: String) -> RelatedEvent {
        RelatedEvent(ordinal: mark.ordinal, timestamp: mark.timestamp, message: "edit of '\(key)' at \(time(mark.timestamp))", source: mark.source)
    }

    private func settle(findings: inout [Finding], where closes: (PendingExit.Closer) -> Bool) {
        var remaining: [PendingExit] = []
        for exit in pending {
            guard closes(exit.closer) else {
                remaining.append(exit)
                continue
            }
            for edits in exit.edits {
                var message = "'\(edits.key)' edited "
                var related = [self.related(edits.first, edits.key)]
                if edits.count == 1 {
                    message += "at \(time(edits.first.timestamp))"
                } else {
                    message += "\(edits.count) times (first at \(time(edits.first.timestamp)), last at \(time(edits.last.timestamp)))"
                    related.append(self.related(edits.last, edits.key))
                }
                if exit.isProcessEnd {
                    message += " was never followed by a critical save of '\(edits.key)' before \(text(exit.what)): the change was lost."
                } else {
                    message += " was not followed by a critical save of '\(edits.key)' before \(text(exit.what)); the change is lost if the process ends there."
                }
                findings.append(Finding(
                    ruleID: UnsavedEditAtExitRule.id, severity: settings.severity,
                    controller: edits.controller?.displayName, timestamp: exit.timestamp, ordinal: exit.ordinal,
                    callback: exit.callbackName, message: message, related: related, source: exit.source
                ))
            }
        }
        pending = remaining
    }
}

