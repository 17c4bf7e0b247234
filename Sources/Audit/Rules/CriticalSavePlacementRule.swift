import Replay
import TraceLog
import TraceModel

/// `critical_save_placement`: a critical save made only in viewWillDisappear.
enum CriticalSavePlacementRule {
    static let id = "critical_save_placement"

    static let rule = Rule(descriptor) { CriticalSavePlacementMonitor(settings: $0) }

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
                again without ever getting viewDidDisappear (DESIGN.md §2, "interactive pop, cancelled"). A save \
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
}

/// The monitor of `critical_save_placement`.
final class CriticalSavePlacementMonitor: RuleMonitor {
    struct TypeKey: Hashable {
        var typeName: String
        var key: String

        /// The pair as one string, distinct for distinct pairs (the type name's length in UTF-8 bytes first).
        var joined: String { "\(typeName.utf8.count):\(typeName)\(key)" }
    }

    struct Save {
        var controller: ControllerRef
        var ordinal: UInt64
        var timestamp: UInt64
        var source: EventSource?
        /// The enclosing viewWillDisappear's begin (or instant); its related-event text is built only for a finding.
        var willDisappearOrdinal: UInt64
        var willDisappearTime: UInt64

        func willDisappear(_ clock: (UInt64) -> String) -> RelatedEvent {
            RelatedEvent(ordinal: willDisappearOrdinal, timestamp: willDisappearTime, message: "\(controller.displayName) viewWillDisappear at \(clock(willDisappearTime))")
        }
    }

    struct Candidate {
        var first: Save
        var count = 1
        var cancelled: (save: Save, cancellation: RelatedEvent)?
    }

    let settings: RuleSettings
    let interests: EventInterests = [.callbacks, .containers, .marks]
    let markFilter = MarkFilter([MarkName.save])
    /// No fixed callbacks: they matter only while a save waits on a disappearance (`awaiting`), so the monitor
    /// asks for them through `callbackDemand` exactly then (`updateDemand()`).
    let callbackFilter: CallbackSet = []
    let callbackDemand: CallbackDemand? = CallbackDemand()
    private static let watched = CallbackSet(CancelledDisappearances<(key: TypeKey, save: Save)>.callbacks, ends: false)
    /// Whether `callbackDemand` holds `watched`.
    @exclusivity(unchecked) private var isDemanding = false
    let containerFilter = CancelledDisappearances<(key: TypeKey, save: Save)>.containerOperations
    /// Callbacks and container events read nothing of the replayed state (saves do: the attribution).
    let stateFreeCallbacks = CallbackSet.all
    let stateFreeRecords: EventInterests = .containers
    @exclusivity(unchecked) private var candidates: [TypeKey: Candidate] = [:]
    /// The (type, key) pairs saved safely, as `TypeKey.joined` strings (a `Set<TypeKey>` made its generic storage
    /// type at run time, ≈ 370 000 instructions at the first safe save).
    @exclusivity(unchecked) private var safe: Set<String> = []
    /// The keys last added to `safe`, compared with `==` before `safe` hashes a key (most saves repeat one).
    @exclusivity(unchecked) private var recentSafe: [TypeKey] = []
    @exclusivity(unchecked) private var safeKeysForAnyType: Set<String> = []
    /// Saves made in a controller's current viewWillDisappear, waiting to see whether the disappearance completes.
    @exclusivity(unchecked) private var awaiting = CancelledDisappearances<(key: TypeKey, save: Save)>()

    init(settings: RuleSettings) {
        self.settings = settings
    }

    /// Asks for `watched` exactly while a save waits (written only when that changes).
    private func updateDemand() {
        guard awaiting.isEmpty == isDemanding else { return }
        isDemanding = !awaiting.isEmpty
        callbackDemand!.extra = isDemanding ? Self.watched : []
    }

    /// Passes over container events while no save waits on a disappearance, without building their `Event`
    /// (`observe(_:_:_:)` would ignore them).
    func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        switch record.kind {
        case .container:
            if awaiting.isEmpty { return }
        case .mark:
            // A save counts only inside a viewWillDisappear or viewDidDisappear of its controller, or on
            // didEnterBackground: checked on the record and the raw attribution (no `ControllerRef` built).
            guard let active = context.attribution.enclosingActive(ofSerial: record.hasController ? record.controller : nil) else { return }
            switch active.kind {
            case .controller(.viewWillDisappear), .controller(.viewDidDisappear):
                if record.hasController, active.controllerSerial != record.controller { return }
            case .app(.didEnterBackground):
                break
            default:
                return
            }
            observeSave(record, active, context)
            updateDemand()
            return
        default:
            break
        }
        context.withEvent(of: record) { observe($0, context, &findings) }
        updateDemand()
    }

    /// A `save` mark, read from the record (name code, controller, `key` and `critical` fields), in the callback
    /// `active` (`CallbackAttribution.enclosingActive(ofSerial:)`, not `nil`): no `Event` is built.
    private func observeSave(_ record: EventRecord, _ active: ActiveCallback, _ context: EventContext) {
        // As `MarkEvent.isCritical` and `key` read them: the first field of that name.
        guard record.markName == .save, context.field(.critical, of: record)?.boolValue ?? false,
              let key = context.field(.key, of: record)?.stringValue else { return }
        let markController = record.hasController ? context.controller(of: record) : nil
        switch active.kind {
        case .controller(let callback):
            // The callback's controller, as `EnclosingCallback` names it (its record in the replayed state).
            guard let ref = context.attribution.controllerRef(of: active) else { return }
            // The mark's controller must be the callback's by name too (`ControllerRef` equality).
            if let markController, markController != ref { return }
            if callback == .viewWillDisappear {
                let typeKey = TypeKey(typeName: ref.typeName, key: key)
                let save = Save(
                    controller: ref, ordinal: context.ordinal, timestamp: record.timestamp, source: context.source,
                    willDisappearOrdinal: active.ordinal, willDisappearTime: active.since)
                // One hash of the key when it has a candidate already (most saves repeat one).
                if let index = candidates.index(forKey: typeKey) {
                    candidates.values[index].count += 1
                } else {
                    candidates[typeKey] = Candidate(first: save)
                }
                awaiting.hold((typeKey, save), for: ref)
            } else {
                markSafe(TypeKey(typeName: ref.typeName, key: key))
            }
        case .app:
            if let markController {
                markSafe(TypeKey(typeName: markController.typeName, key: key))
            } else {
                safeKeysForAnyType.insert(key)
            }
        }
    }

    /// Adds `typeKey` to `safe`, unless it is one of the last few added (compared key first: keys are usually
    /// small strings, compared in one step).
    private func markSafe(_ typeKey: TypeKey) {
        var index = recentSafe.count
        while index > 0 {
            index &-= 1
            if recentSafe[index].key == typeKey.key, recentSafe[index].typeName == typeKey.typeName { return }
        }
        safe.insert(typeKey.joined)
        if recentSafe.count == 16 { recentSafe.removeFirst() }
        recentSafe.append(typeKey)
    }

    func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        defer { updateDemand() }
        guard let cancelled = awaiting.observe(callback: record, context) else { return }
        noteCancelled(cancelled)
    }

    private func noteCancelled(_ cancelled: CancelledDisappearances<(key: TypeKey, save: Save)>.Cancellation) {
        for (key, save) in cancelled.items where candidates[key]?.cancelled == nil {
            candidates[key]?.cancelled = (save, cancelled.cancellation)
        }
    }

    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {
        switch event.payload {
        case .container:
            guard let cancelled = awaiting.observe(event, context) else { return }
            noteCancelled(cancelled)
        default:
            break
        }
    }

    func finish(_ end: TraceEnd, _ findings: inout [Finding]) {
        for (typeKey, candidate) in candidates.sorted(by: { $0.value.first.ordinal < $1.value.first.ordinal }) {
            guard !safe.contains(typeKey.joined), !safeKeysForAnyType.contains(typeKey.key) else { continue }
            let save = candidate.cancelled?.save ?? candidate.first
            var related = [save.willDisappear(end.time)]
            var message = "critical save of '\(typeKey.key)' at \(end.time(save.timestamp)) happens inside viewWillDisappear"
            var severity = settings.severity
            if let cancelled = candidate.cancelled {
                related.append(cancelled.cancellation)
                let cancelledAt = end.time(cancelled.cancellation.timestamp)
                message += ", and that disappearance was cancelled at \(cancelledAt) (viewDidDisappear never came): the screen stayed, and later edits are saved by nothing"
                if settings.flag("escalate_on_cancel", default: true) { severity = max(severity, .error) }
            } else {
                message += "; an interactive pop can be cancelled after viewWillDisappear, so this save can run for a disappearance that never happens"
            }
            message += ". \(typeKey.typeName) never saves '\(typeKey.key)' in viewDidDisappear or on didEnterBackground in this trace"
            if candidate.count > 1 { message += " (\(candidate.count) saves of '\(typeKey.key)' inside viewWillDisappear)" }
            findings.append(Finding(
                ruleID: CriticalSavePlacementRule.id, severity: severity, controller: save.controller.displayName,
                timestamp: save.timestamp, ordinal: save.ordinal, callback: Callback.viewWillDisappear.name,
                message: message + ".", related: related, source: save.source
            ))
        }
    }
}
