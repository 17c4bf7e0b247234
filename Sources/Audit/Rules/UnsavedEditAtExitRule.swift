import TraceModel

/// `unsaved_edit_at_exit`: an edit not saved before the screen or the app goes away.
struct UnsavedEditAtExitRule: AuditRule {
    static let id = "unsaved_edit_at_exit"

    static let rule = Rule(Self.self) { UnsavedEditAtExitRule(settings: $0) }

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
                viewWillDisappear/viewDidDisappear (Apple, "Managing your app's life cycle"; docs/LIFECYCLE.md). A save \
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
            needs: [.mark(MarkName.edit)],
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

    let facts: [FactKind] = [.mark(MarkName.edit), .mark(MarkName.save), .app, .exitCompleted, .runStarted] + FactKind.callbacks(.viewDidDisappear, .deinitialize)

    /// The unsaved edits of one key by one controller (or by no controller).
    struct Edits {
        var owner: UInt32?
        var controller: String?
        var key: String
        var first: RelatedEvent
        var last: RelatedEvent
        var count: Int
    }

    /// An exit whose window is still open: saves in it still count.
    struct PendingExit {
        var ordinal: UInt64
        var timestamp: UInt64
        var source: EventSource?
        var callbackName: String
        var what: String
        var edits: [Edits]
        /// The exit is the end of the process itself: the change was lost, not merely at risk.
        var isProcessEnd = false
    }

    let settings: RuleSettings
    /// Unsaved edits by the mark's controller, in first-edit order.
    var unsaved: [UInt32?: [Edits]] = [:]
    var pending: [PendingExit] = []

    init(settings: RuleSettings) {
        self.settings = settings
    }

    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        switch fact {
        case .mark(let mark):
            guard let key = mark.key else { return }
            if mark.name == MarkName.edit {
                edit(key, by: mark.owner, replay)
            } else if mark.isCritical {
                save(key, by: mark.owner)
            }
        case .callback(let callback) where callback.isStart:
            guard let edits = unsaved.removeValue(forKey: callback.controller), !edits.isEmpty else { return }
            let name = replay.name(of: callback.controller)
            let what = callback.callback == .deinitialize
                ? "\(name) was deinitialized at \(replay.time(replay.timestamp))" : "\(name) disappeared (viewDidDisappear at \(replay.time(replay.timestamp)))"
            hold(what, callbackName: callback.callback.name, edits, replay)
        case .app(let app) where app.phase != .end && (app.transition == .didEnterBackground || app.transition == .willTerminate):
            let subject = app.scene.map { "scene '\($0)'" } ?? "the app"
            let verb = app.transition == .didEnterBackground ? "entered the background" : "was about to terminate"
            hold("\(subject) \(verb) at \(replay.time(replay.timestamp)) (\(app.delegateMethodName))", callbackName: app.delegateMethodName, takeAll(), replay)
        case .exitCompleted(let exit):
            settle(&findings, replay) { $0.ordinal == exit.ordinal }
        case .runStarted(let process, let previous):
            // The previous process ended (killed or crashed): every edit still unsaved was lost with it.
            settle(&findings, replay) { _ in true }
            let edits = takeAll()
            guard !edits.isEmpty else { return }
            hold("its process ended (last event of the run at \(replay.time(previous ?? replay.timestamp)); a new run of \(process) starts at \(replay.time(replay.timestamp)), so the app was killed or crashed)", callbackName: "runStarted", edits, replay)
            pending[pending.count - 1].isProcessEnd = true
            settle(&findings, replay) { _ in true }
        default:
            break
        }
    }

    mutating func finish(_ replay: ReplayView, _ findings: inout [Finding]) {
        settle(&findings, replay) { _ in true }
    }

    private mutating func edit(_ key: String, by owner: UInt32?, _ replay: ReplayView) {
        let here = RelatedEvent(ordinal: replay.ordinal, timestamp: replay.timestamp, message: "edit of '\(key)' at \(replay.time(replay.timestamp))", source: replay.source)
        if let index = unsaved[owner]?.firstIndex(where: { $0.key == key }) {
            unsaved[owner]![index].last = here
            unsaved[owner]![index].count += 1
        } else {
            unsaved[owner, default: []].append(Edits(owner: owner, controller: owner.map { replay.name(of: $0) }, key: key, first: here, last: here, count: 1))
        }
    }

    /// A critical save of `key` by `owner` (by anyone when `nil`) clears its unsaved edits, also those of exits still open.
    private mutating func save(_ key: String, by owner: UInt32?) {
        for controller in owner == nil ? Array(unsaved.keys) : [owner] {
            unsaved[controller]?.removeAll { $0.key == key }
            if unsaved[controller]?.isEmpty == true { unsaved[controller] = nil }
        }
        for index in pending.indices {
            pending[index].edits.removeAll { $0.key == key && (owner == nil || $0.owner == owner) }
        }
    }

    /// Every unsaved edit, in first-edit order.
    private mutating func takeAll() -> [Edits] {
        let edits = unsaved.values.joined().sorted { $0.first.ordinal < $1.first.ordinal }
        unsaved.removeAll()
        return edits
    }

    private mutating func hold(_ what: String, callbackName: String, _ edits: [Edits], _ replay: ReplayView) {
        guard !edits.isEmpty else { return }
        pending.append(PendingExit(
            ordinal: replay.ordinal, timestamp: replay.timestamp, source: replay.source, callbackName: callbackName, what: what,
            edits: edits.sorted { $0.first.ordinal < $1.first.ordinal }))
    }

    /// Reports the edits still unsaved of the exits `closes` picks, and forgets those exits.
    private mutating func settle(_ findings: inout [Finding], _ replay: ReplayView, where closes: (PendingExit) -> Bool) {
        var remaining: [PendingExit] = []
        for exit in pending {
            guard closes(exit) else {
                remaining.append(exit)
                continue
            }
            for edits in exit.edits {
                var message = "'\(edits.key)' edited "
                var related = [edits.first]
                if edits.count == 1 {
                    message += "at \(replay.time(edits.first.timestamp))"
                } else {
                    message += "\(edits.count) times (first at \(replay.time(edits.first.timestamp)), last at \(replay.time(edits.last.timestamp)))"
                    related.append(edits.last)
                }
                message += exit.isProcessEnd
                    ? " was never followed by a critical save of '\(edits.key)' before \(exit.what): the change was lost."
                    : " was not followed by a critical save of '\(edits.key)' before \(exit.what); the change is lost if the process ends there."
                findings.append(Finding(
                    ruleID: Self.id, severity: settings.severity, controller: edits.controller, timestamp: exit.timestamp, ordinal: exit.ordinal,
                    callback: exit.callbackName, message: message, related: related, source: exit.source))
            }
        }
        pending = remaining
    }
}
