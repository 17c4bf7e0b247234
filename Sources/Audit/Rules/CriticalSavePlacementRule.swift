import Replay
import TraceModel

/// `critical_save_placement`: a critical save made only in viewWillDisappear.
struct CriticalSavePlacementRule: AuditRule {
    static let id = "critical_save_placement"

    static let rule = Rule(Self.self) { CriticalSavePlacementRule(settings: $0) }

    let facts: [FactKind] = [.mark(MarkName.save), .disappearanceCancelled] + FactKind.callbacks(.viewDidDisappear, .deinitialize)

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "A critical save of a key is made inside viewWillDisappear, and the controller type never saves that key in viewDidDisappear or on didEnterBackground.",
            defaultSeverity: .warning,
            severityNote: "error when the trace shows the disappearance cancelled after the save (viewWillAppear before any viewDidDisappear), with `escalate_on_cancel`",
            parameters: [
                RuleParameter(
                    name: "escalate_on_cancel", kind: .flag, defaultValue: .flag(true), unit: "",
                    summary: "Report as error when the disappearance the save was made for is cancelled in the trace."
                ),
            ],
            explanation: """
                viewWillDisappear only announces that a disappearance may happen: an interactive pop (swipe back) \
                or a page scroll can be cancelled, and then the controller gets viewWillAppear and viewDidAppear \
                again without ever getting viewDidDisappear (docs/LIFECYCLE.md, "interactive pop, cancelled"). A save \
                placed only there runs for a disappearance that does not happen, and the user keeps editing a \
                screen whose later changes nothing saves. Going to the background gives no \
                viewWillDisappear/viewDidDisappear at all; apps get about 5 seconds in didEnterBackground to save \
                user data (Apple, "Managing your app's life cycle"). A critical save (`save` mark with \
                `critical=true`) therefore belongs in viewDidDisappear, which runs only once the disappearance is \
                final, and in the didEnterBackground (or sceneDidEnterBackground) path. The rule judges per \
                controller type and key over the whole trace: one finding per type and key, at the first such save \
                (the first one followed by a cancellation, when there is one).
                """,
            fix: """
                Move the critical save to viewDidDisappear (or also save there), and save on \
                didEnterBackground/sceneDidEnterBackground (for example from a \
                UIApplication.didEnterBackgroundNotification observer). Keep viewWillDisappear for reversible work \
                such as ending editing or hiding the keyboard.
                """,
            needs: [.mark(MarkName.save)],
            examples: examples
        )
    }

    static var examples: [RuleExample] {
        let list = ExampleTrace.controller(1, "NotesListViewController")
        let editor = ExampleTrace.controller(2, "NoteEditorViewController")
        let navigation = ExampleTrace.controller(3, "UINavigationController")

        var cancelled = ExampleTrace()
        cancelled.appear(list)
        cancelled.push(editor, over: list, navigation: navigation)
        cancelled.mark(.edit(key: "draft", controller: editor))
        cancelled.container(.interactiveTransitionBegin, navigation, [editor, list])
        cancelled.interval(.viewWillDisappear, editor) { $0.mark(.save(key: "draft", critical: true, controller: editor)) }
        cancelled.callback(.viewWillAppear, list)
        cancelled.container(.interactiveTransitionCancel, navigation, [editor, list])
        cancelled.callback(.viewWillDisappear, list)
        cancelled.callback(.viewDidDisappear, list)
        cancelled.callback(.viewWillAppear, editor)
        cancelled.callback(.viewDidAppear, editor)

        var plain = ExampleTrace()
        plain.appear(list)
        plain.push(editor, over: list, navigation: navigation)
        plain.interval(.viewWillDisappear, editor) { $0.mark(.save(key: "draft", critical: true, controller: editor)) }
        plain.callback(.viewDidDisappear, editor)

        var correct = ExampleTrace()
        correct.appear(list)
        correct.push(editor, over: list, navigation: navigation)
        correct.mark(.edit(key: "draft", controller: editor))
        correct.callback(.viewWillDisappear, editor)
        correct.callback(.viewWillAppear, list)
        correct.interval(.viewDidDisappear, editor) { $0.mark(.save(key: "draft", critical: true, controller: editor)) }
        correct.callback(.viewDidAppear, list)

        var both = ExampleTrace()
        both.appear(editor)
        both.interval(.viewWillDisappear, editor) { $0.mark(.save(key: "draft", critical: true, controller: editor)) }
        both.callback(.viewDidDisappear, editor)
        both.callback(.viewWillAppear, editor)
        both.callback(.viewDidAppear, editor)
        both.app(.willResignActive, scene: "main")
        both.app(.didEnterBackground, scene: "main")
        both.mark(.save(key: "draft", critical: true, controller: editor))

        return [
            RuleExample(title: "draft saved only in viewWillDisappear; the swipe-back is cancelled", events: cancelled.events, expectedFindings: 1, expectedSeverity: .error),
            RuleExample(title: "draft saved only in viewWillDisappear; the pop completes", events: plain.events, expectedFindings: 1, expectedSeverity: .warning),
            RuleExample(title: "draft saved in viewDidDisappear", events: correct.events, expectedFindings: 0),
            RuleExample(title: "saved in viewWillDisappear and also on sceneDidEnterBackground (instant-only log style)", events: both.events, expectedFindings: 0),
        ]
    }

    /// A controller type and a saved key: what the rule judges.
    struct TypeKey: Hashable {
        var typeName: String
        var key: String
    }

    /// A critical save inside viewWillDisappear.
    struct Save {
        var controller: String
        var ordinal: UInt64
        var timestamp: UInt64
        var source: EventSource?
        var willDisappear: RelatedEvent
    }

    struct Candidate {
        var first: Save
        var count = 1
        var cancelled: (save: Save, cancellation: RelatedEvent)?
    }

    let settings: RuleSettings
    var candidates: [TypeKey: Candidate] = [:]
    /// Saved in viewDidDisappear or on didEnterBackground: by type and key, and by key for saves of no controller.
    var safe: Set<TypeKey> = []
    var safeForAnyType: Set<String> = []
    /// Saves in the current viewWillDisappear of a controller, until it completes or is cancelled.
    var awaiting: [UInt32: [(TypeKey, Save)]] = [:]

    init(settings: RuleSettings) {
        self.settings = settings
    }

    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        switch fact {
        case .mark(let mark):
            guard mark.isCritical, let key = mark.key else { return }
            if let callback = mark.enclosingCallback, let controller = mark.enclosingController, mark.owner == nil || mark.owner == controller,
               let ref = replay.ref(of: controller) {
                let typeKey = TypeKey(typeName: ref.typeName, key: key)
                if callback == .viewDidDisappear { safe.insert(typeKey) }
                guard callback == .viewWillDisappear, let since = mark.enclosing?.since, let at = mark.enclosing?.ordinal else { return }
                let willDisappear = RelatedEvent(ordinal: at, timestamp: since, message: "\(ref.displayName) viewWillDisappear at \(replay.time(since))")
                let save = Save(controller: ref.displayName, ordinal: replay.ordinal, timestamp: replay.timestamp, source: replay.source, willDisappear: willDisappear)
                candidates[typeKey, default: Candidate(first: save, count: 0)].count += 1
                awaiting[controller, default: []].append((typeKey, save))
            } else if mark.enclosingApp == .didEnterBackground {
                if let owner = mark.owner, let ref = replay.ref(of: owner) {
                    safe.insert(TypeKey(typeName: ref.typeName, key: key))
                } else if mark.owner == nil {
                    safeForAnyType.insert(key)
                }
            }
        case .disappearanceCancelled(let cancellation):
            guard let held = awaiting.removeValue(forKey: cancellation.controller) else { return }
            let related = cancellation.related(replay)
            for (key, save) in held where candidates[key]?.cancelled == nil {
                candidates[key]?.cancelled = (save, related)
            }
        case .callback(let callback) where callback.isStart:
            awaiting.removeValue(forKey: callback.controller)
        default:
            break
        }
    }

    func finish(_ replay: ReplayView, _ findings: inout [Finding]) {
        for (typeKey, candidate) in candidates.sorted(by: { $0.value.first.ordinal < $1.value.first.ordinal }) {
            guard !safe.contains(typeKey), !safeForAnyType.contains(typeKey.key) else { continue }
            let save = candidate.cancelled?.save ?? candidate.first
            var related = [save.willDisappear]
            var message = "critical save of '\(typeKey.key)' at \(replay.time(save.timestamp)) happens inside viewWillDisappear"
            var severity = settings.severity
            if let cancelled = candidate.cancelled {
                related.append(cancelled.cancellation)
                message += ", and that disappearance was cancelled at \(replay.time(cancelled.cancellation.timestamp)) (viewDidDisappear never came): the screen stayed, and later edits are saved by nothing"
                if settings.flag("escalate_on_cancel", default: true) { severity = max(severity, .error) }
            } else {
                message += "; an interactive pop can be cancelled after viewWillDisappear, so this save can run for a disappearance that never happens"
            }
            message += ". \(typeKey.typeName) never saves '\(typeKey.key)' in viewDidDisappear or on didEnterBackground in this trace"
            if candidate.count > 1 { message += " (\(candidate.count) saves of '\(typeKey.key)' inside viewWillDisappear)" }
            findings.append(Finding(
                ruleID: Self.id, severity: severity, controller: save.controller, timestamp: save.timestamp, ordinal: save.ordinal,
                callback: Callback.viewWillDisappear.name, message: message + ".", related: related, source: save.source))
        }
    }
}
