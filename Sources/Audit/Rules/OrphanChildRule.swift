import TraceModel

/// `orphan_child`: containment done halfway.
struct OrphanChildRule: AuditRule {
    static let id = "orphan_child"

    static let rule = Rule(Self.self) { OrphanChildRule(settings: $0) }

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "A controller's view attached under another controller's view, or its appearance callbacks run inside another's, without addChild; addChild without didMove(toParent:); removal that does not start with willMove(toParent: nil).",
            defaultSeverity: .error,
            severityNote: "inconclusive when the trace (or the process: a later recording run starts) ends after addChild but before the child finished appearing without didMove(toParent:)",
            explanation: """
                UIKit keeps a controller tree beside the view tree. Embedding a child takes three steps: \
                addChild(_:) (which calls willMove(toParent:)), adding the child's view, then \
                didMove(toParent:); removing takes willMove(toParent: nil), removing the view, then \
                removeFromParent() (which calls didMove(toParent: nil)) (Apple, "Creating a custom container \
                view controller"; docs/LIFECYCLE.md). A child whose view is added without addChild draws, but is \
                orphaned: it gets no trait, size or rotation updates and its appearance callbacks are missing or \
                forwarded by hand (its appearance callbacks then run inside the host's); addChild without \
                didMove leaves the child believing the transition is still under way; a removal without \
                willMove(toParent: nil) skips the child's chance to stop its work. The rule needs container \
                events or begin/end callbacks: a log with only callback lines never triggers it.
                """,
            fix: """
                Embed with addChild(child); view.addSubview(child.view); child.didMove(toParent: self). Remove \
                with child.willMove(toParent: nil); child.view.removeFromSuperview(); child.removeFromParent(). \
                For SwiftUI, embed the UIHostingController the same way.
                """,
            needs: [.container] + FactKind.callbacks(.willMoveToParent, .didMoveToParent),
            examples: examples
        )
    }

    static var examples: [RuleExample] {
        let panel = ExampleTrace.controller(1, "PanelViewController")
        let host = ExampleTrace.controller(2, "UIHostingController<SummaryView>")

        var orphan = ExampleTrace()
        orphan.appear(panel)
        orphan.callback(.initialize, host)
        orphan.container(.attachView, panel, [host])

        var forwarded = ExampleTrace()
        forwarded.callback(.initialize, panel)
        forwarded.callback(.viewDidLoad, panel)
        forwarded.callback(.initialize, host)
        forwarded.interval(.viewWillAppear, panel) { $0.interval(.viewWillAppear, host) { _ in } }

        var proper = ExampleTrace()
        proper.appear(panel)
        proper.callback(.initialize, host)
        proper.container(.addChild, panel, [host])
        proper.callback(.willMoveToParent, host, parent: .controller(panel))
        proper.container(.attachView, panel, [host])
        proper.callback(.didMoveToParent, host, parent: .controller(panel))
        proper.callback(.willMoveToParent, host, parent: ParentArgument.none)
        proper.container(.removeFromParent, panel, [host])
        proper.callback(.didMoveToParent, host, parent: ParentArgument.none)
        proper.callback(.deinitialize, host)

        var abrupt = ExampleTrace()
        abrupt.appear(panel)
        abrupt.callback(.initialize, host)
        abrupt.container(.addChild, panel, [host])
        abrupt.container(.attachView, panel, [host])
        abrupt.callback(.didMoveToParent, host, parent: .controller(panel))
        abrupt.container(.removeFromParent, panel, [host])
        abrupt.callback(.didMoveToParent, host, parent: ParentArgument.none)
        abrupt.callback(.deinitialize, host)

        return [
            RuleExample(title: "a hosting controller's view added without addChild", events: orphan.events, expectedFindings: 1, expectedSeverity: .error),
            RuleExample(title: "appearance forwarded by hand to a controller that was never added", events: forwarded.events, expectedFindings: 1, expectedSeverity: .error),
            RuleExample(title: "removeFromParent without willMove(toParent: nil)", events: abrupt.events, expectedFindings: 1, expectedSeverity: .error),
            RuleExample(title: "addChild, attach, didMove; willMove(nil), removeFromParent", events: proper.events, expectedFindings: 0),
        ]
    }

    let facts: [FactKind] = FactKind.allCallbacks + [.container, .runStarted]

    /// What the rule knows of one controller's place in the tree.
    struct Link {
        /// The parent, as named when the child was linked to it (addChild, push, setViewControllers, selectTab,
        /// willMove/didMove(toParent:)).
        var parent: ControllerRef?
        var presenter: UInt32?
        /// Set as a window's root.
        var isRoot = false
        /// Got willMove(toParent: nil) since it was added.
        var isLeaving = false
        /// Already reported as an orphan (one finding per instance).
        var isReported = false

        /// Appearance callbacks are legitimate (or already reported).
        var isPlaced: Bool { parent != nil || presenter != nil || isRoot || isReported }
    }

    /// A child added with addChild, waiting for its didMove(toParent:).
    struct PendingDidMove {
        var child: String
        var parent: String
        var addChild: RelatedEvent
        var appeared: RelatedEvent?
    }

    let settings: RuleSettings
    var links: [UInt32: Link] = [:]
    var pendingDidMove: [UInt32: PendingDidMove] = [:]

    init(settings: RuleSettings) {
        self.settings = settings
    }

    mutating func reduce(_ fact: Fact, _ replay: ReplayView, _ findings: inout [Finding]) {
        switch fact {
        case .callback(let callback):
            if !pendingDidMove.isEmpty { checkWaiting(callback, replay, &findings) }
            observe(callback, replay, &findings)
        case .container(let container) where container.phase != .end:
            observe(container, replay, &findings)
        case .runStarted(_, let previous):
            // The previous process ended before these children got didMove(toParent:): as inconclusive as a trace
            // that ends there, and said so now rather than at the end of a later run.
            let endedAt = replay.time(previous ?? replay.timestamp)
            reportWaiting(replay, &findings) { "its process ended (last event at \(endedAt); a new run starts at \(replay.time(replay.timestamp))) before didMove(toParent:) is called" }
        default:
            break
        }
    }

    mutating func finish(_ replay: ReplayView, _ findings: inout [Finding]) {
        reportWaiting(replay, &findings) { "the trace ends before didMove(toParent:) is called" }
    }

    /// A callback of a child waiting for didMove(toParent:): didMove(toParent: parent) ends the wait; once the child
    /// appeared (viewDidAppear end or instant), any other callback of it is a finding.
    private mutating func checkWaiting(_ callback: CallbackFact, _ replay: ReplayView, _ findings: inout [Finding]) {
        let serial = callback.controller
        guard let pending = pendingDidMove[serial], callback.phase != .begin || callback.callback != .viewDidAppear else { return }
        if callback.callback == .didMoveToParent, case .some(.some) = callback.parent {
            pendingDidMove[serial] = nil
        } else if let appeared = pending.appeared, callback.callback != .viewDidAppear {
            pendingDidMove[serial] = nil
            let name = callback.callback.name
            findings.append(Finding(
                ruleID: Self.id, severity: settings.severity, controller: pending.child, timestamp: pending.addChild.timestamp,
                ordinal: pending.addChild.ordinal, callback: nil,
                message: "\(pending.parent) added \(pending.child) with addChild at \(replay.time(pending.addChild.timestamp)) but never called didMove(toParent:) — the child appeared at \(replay.time(appeared.timestamp)) and went on to \(name) at \(replay.time(replay.timestamp)) still waiting for it.",
                related: [pending.addChild, appeared, replay.related("\(name) at \(replay.time(replay.timestamp))")]))
        } else if callback.callback == .viewDidAppear {
            pendingDidMove[serial]?.appeared = replay.related("\(replay.name(of: serial)) viewDidAppear at \(replay.time(replay.timestamp))")
        }
    }

    private mutating func observe(_ callback: CallbackFact, _ replay: ReplayView, _ findings: inout [Finding]) {
        let serial = callback.controller
        switch callback.callback {
        case .willMoveToParent, .didMoveToParent:
            switch callback.parent {
            case .some(.some(let parent)):
                // Named as this event names it (one serial may be recorded under two names).
                let ref = callback.parentRef ?? replay.ref(of: parent) ?? ControllerRef(serial: parent, typeName: "")
                setParent(of: serial, to: ref, clearingLeaving: callback.callback == .willMoveToParent)
            case .some(.none) where callback.phase != .end:
                if callback.callback == .willMoveToParent {
                    links[serial, default: Link()].isLeaving = true
                } else {
                    checkRemoval(of: serial, what: "didMove(toParent: nil)", replay, &findings)
                }
            default:
                break
            }
        case .viewWillAppear, .viewDidAppear, .viewWillDisappear, .viewDidDisappear:
            guard callback.phase == .begin, links[serial]?.isPlaced != true, let host = replay.innermostOpenAppearanceCallback(excluding: serial) else { return }
            links[serial, default: Link()].isReported = true
            let child = replay.name(of: serial)
            let hostName = replay.name(of: host.controllerSerial!)
            let name = callback.callback.name
            findings.append(Finding(
                ruleID: Self.id, severity: settings.severity, controller: child, timestamp: replay.timestamp, ordinal: replay.ordinal, callback: name,
                message: "\(child) gets \(name) inside \(hostName)'s \(host.name) at \(replay.time(replay.timestamp)), but it was never added as a child (no addChild, push or presentation): appearance is being forwarded by hand to an orphan.",
                related: [RelatedEvent(ordinal: host.ordinal, timestamp: host.since, message: "\(hostName) \(host.name) began at \(replay.time(host.since))")],
                source: replay.source))
        case .deinitialize:
            // Nothing of the controller is left: its parent, leaving, presenter, root and reported marks.
            pendingDidMove[serial] = nil
            links[serial] = nil
        default:
            break
        }
    }

    private mutating func observe(_ container: ContainerEvent, _ replay: ReplayView, _ findings: inout [Finding]) {
        switch container.operation {
        case .addChild:
            guard let parent = container.container else { return }
            for child in container.controllers {
                setParent(of: child.serial, to: parent, clearingLeaving: true)
                pendingDidMove[child.serial] = PendingDidMove(
                    child: child.displayName, parent: parent.displayName,
                    addChild: replay.related("addChild(\(child.displayName)) on \(parent.displayName) at \(replay.time(replay.timestamp))"))
            }
        case .push, .setViewControllers, .selectTab:
            guard let parent = container.container else { return }
            for child in container.controllers { setParent(of: child.serial, to: parent, clearingLeaving: true) }
        case .setRoot:
            for root in container.controllers { links[root.serial, default: Link()].isRoot = true }
        case .present:
            guard let presenter = container.container else { return }
            for presented in container.controllers { links[presented.serial, default: Link()].presenter = presenter.serial }
        case .pop, .dismiss:
            for controller in container.controllers { forget(controller.serial) }
        case .removeFromParent:
            for child in container.controllers { checkRemoval(of: child.serial, what: "removeFromParent()", replay, &findings) }
        case .attachView:
            guard let host = container.container else { return }
            for child in container.controllers {
                let link = links[child.serial] ?? Link()
                guard link.parent?.serial != host.serial, link.presenter != host.serial, !link.isReported else { continue }
                links[child.serial, default: Link()].isReported = true
                let parentNote = link.parent.map { " (its parent is \($0.displayName))" } ?? ""
                findings.append(Finding(
                    ruleID: Self.id, severity: settings.severity, controller: child.displayName, timestamp: replay.timestamp, ordinal: replay.ordinal,
                    callback: replay.enclosingCallback(of: host.serial).map(ReplayView.methodName(of:)),
                    message: "the view of \(child.displayName) was added under \(host.displayName)'s view at \(replay.time(replay.timestamp)) without addChild\(parentNote): the child is orphaned from the controller tree and gets no appearance, trait or size updates from UIKit.",
                    source: replay.source))
            }
        default:
            break
        }
    }

    private mutating func setParent(of child: UInt32, to parent: ControllerRef, clearingLeaving: Bool) {
        var link = links[child] ?? Link()
        if link.parent?.serial != parent.serial || link.parent?.typeName != parent.typeName || link.parent?.label != parent.label { link.parent = parent }
        if clearingLeaving { link.isLeaving = false }
        links[child] = link
    }

    /// A removal of `child` from its parent: a finding when it was not told first (willMove(toParent: nil)).
    private mutating func checkRemoval(of child: UInt32, what: String, _ replay: ReplayView, _ findings: inout [Finding]) {
        defer { forget(child) }
        guard let link = links[child], let parent = link.parent, !link.isLeaving else { return }
        let name = replay.name(of: child)
        findings.append(Finding(
            ruleID: Self.id, severity: settings.severity, controller: name, timestamp: replay.timestamp, ordinal: replay.ordinal,
            callback: replay.enclosingCallback(of: parent.serial).map(ReplayView.methodName(of:)),
            message: "\(name) was removed from \(parent.displayName) with \(what) at \(replay.time(replay.timestamp)) without willMove(toParent: nil) first: the child is not told it is leaving.",
            source: replay.source))
    }

    /// Forgets `serial`'s parent, leaving mark and waiting addChild.
    private mutating func forget(_ serial: UInt32) {
        links[serial]?.parent = nil
        links[serial]?.isLeaving = false
        pendingDidMove[serial] = nil
    }

    private mutating func reportWaiting(_ replay: ReplayView, _ findings: inout [Finding], _ what: () -> String) {
        for pending in pendingDidMove.values.sorted(by: { $0.addChild.ordinal < $1.addChild.ordinal }) {
            findings.append(Finding(
                ruleID: Self.id, severity: settings.inconclusiveSeverity, verdict: .inconclusive, controller: pending.child,
                timestamp: pending.addChild.timestamp, ordinal: pending.addChild.ordinal, callback: nil,
                message: "\(pending.parent) added \(pending.child) with addChild at \(replay.time(pending.addChild.timestamp)) and \(what()).",
                related: [pending.addChild]))
        }
        pendingDidMove.removeAll()
    }
}
