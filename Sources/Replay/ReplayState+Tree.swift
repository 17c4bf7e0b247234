import TraceModel

extension ReplayState {
    /// The state as a readable tree: window → containers → children, presented chains under their presenter,
    /// then controllers whose place in the tree is unknown, then dead ones (deinitialized), then those that ended
    /// with their process (per process end; `ControllerState.processEndTime`), in-flight transitions and
    /// diagnostics. Each controller line has its display name, appearance, and what is executing, live or
    /// unsaved. Times are shown relative to `start` (the trace's first event, ns on the trace clock).
    ///
    /// ```
    /// window
    /// └─ UINavigationController#1  appeared  [navigation]
    ///    ├─ ListViewController#2  disappeared
    ///    └─ DetailViewController#3  appeared  live: timer:refresh  unsaved: draft
    ///       ⤷ presents (pageSheet) ComposeViewController#4  appeared
    /// ```
    public func tree(start: UInt64? = nil) -> String {
        let origin = start ?? startTime ?? 0
        func rel(_ time: UInt64) -> String { TimeText.seconds(time >= origin ? time - origin : 0) }
        var lines: [String] = []
        var shown: Set<UInt32> = []

        func describe(_ c: ControllerState, withProcessEnd: Bool = true) -> String {
            var parts = [c.ref.displayName, c.appearance.name]
            if c.containerKind != .unknown { parts.append("[\(c.containerKind.name)]") }
            if !c.isViewLoaded { parts.append("view not loaded") }
            if !c.callbacks.isEmpty { parts.append("in: " + c.callbacks.map(\.name).joined(separator: " > ")) }
            if !c.resources.isEmpty { parts.append("live: " + c.resources.map { $0.label.controlCharactersEscaped }.joined(separator: ", ")) }
            if !c.unsaved.isEmpty { parts.append("unsaved: " + c.unsaved.map { $0.key.controlCharactersEscaped }.joined(separator: ", ")) }
            let views = c.swiftUIViews.filter(\.isInRenderTree).map(\.view)
            if !views.isEmpty { parts.append("SwiftUI: " + views.map(\.controlCharactersEscaped).joined(separator: ", ")) }
            if let removal = c.removal { parts.append("\(removal.kind.name) at \(rel(removal.time))") }
            if let deinitTime = c.deinitTime { parts.append("deinit at \(rel(deinitTime))") }
            if withProcessEnd, let end = c.processEndTime { parts.append("process ended at \(rel(end)), never deinitialized") }
            return parts.joined(separator: "  ")
        }

        /// Prints `serial` and, below it, its presented chain and its children.
        func walk(_ serial: UInt32, prefix: String, connector: String, label: String = "") {
            guard let c = controllers[serial] else { return }
            if shown.contains(serial) {
                lines.append(prefix + connector + label + c.ref.displayName + "  (shown above)")
                return
            }
            shown.insert(serial)
            lines.append(prefix + connector + label + describe(c))
            let childPrefix = prefix + (connector == "├─ " ? "│  " : "   ")
            if let presented = c.presentedController, let p = controllers[presented] {
                let style = p.presentationStyle.map { "(\($0.name)) " } ?? ""
                walk(presented, prefix: childPrefix, connector: "⤷ ", label: "presents " + style)
            }
            // Order children as the container lists them when it does, then the rest.
            var children = c.viewControllers?.filter { c.children.contains($0) } ?? []
            children += c.children.filter { !children.contains($0) }
            for (index, child) in children.enumerated() {
                walk(child, prefix: childPrefix, connector: index == children.count - 1 ? "└─ " : "├─ ")
            }
        }

        let sorted = sortedControllers
        if let root = windowRoot {
            lines.append("window")
            walk(root, prefix: "", connector: "└─ ")
        }
        // Other alive roots: known to have no parent and not presented by anyone.
        let roots = sorted.filter { c in
            c.isAlive && !shown.contains(c.ref.serial) && c.parent == .none && c.presentingController == nil
        }
        if !roots.isEmpty {
            lines.append("outside the window")
            for root in roots { walk(root.ref.serial, prefix: "", connector: "└─ ") }
        }
        let unknown = sorted.filter { $0.isAlive && !shown.contains($0.ref.serial) }
        if !unknown.isEmpty {
            lines.append("place in the tree unknown")
            for c in unknown where !shown.contains(c.ref.serial) {
                walk(c.ref.serial, prefix: "  ", connector: "")
            }
        }
        let dead = sorted.filter { $0.deinitTime != nil && !shown.contains($0.ref.serial) }
        if !dead.isEmpty {
            lines.append("dead")
            for c in dead { lines.append("  " + describe(c)) }
        }
        // Controllers whose process ended (a later run started) while they were alive: not deallocated, gone
        // with their process; grouped by the process end.
        let ended = sorted.filter { $0.deinitTime == nil && $0.processEndTime != nil && !shown.contains($0.ref.serial) }
        for end in Set(ended.compactMap(\.processEndTime)).sorted() {
            lines.append("ended with their process at \(rel(end)) (a new run started; never deinitialized)")
            for c in ended where c.processEndTime == end { lines.append("  " + describe(c, withProcessEnd: false)) }
        }
        if !appCallbacks.isEmpty {
            lines.append("app callbacks executing: " + appCallbacks.map { self.describe($0) }.joined(separator: " > "))
        }
        if !appResources.isEmpty || !appUnsaved.isEmpty {
            var parts: [String] = []
            if !appResources.isEmpty { parts.append("live: " + appResources.map(\.label.controlCharactersEscaped).joined(separator: ", ")) }
            if !appUnsaved.isEmpty { parts.append("unsaved: " + appUnsaved.map { $0.key.controlCharactersEscaped }.joined(separator: ", ")) }
            lines.append("app  " + parts.joined(separator: "  "))
        }
        if !transitions.isEmpty {
            lines.append("in flight")
            for transition in transitions {
                let name: (UInt32?) -> String = { serial in serial.flatMap { self.controllers[$0]?.ref.displayName } ?? "?" }
                var text = "  \(transition.kind.name)"
                if let container = transition.container { text += " in \(name(container))" }
                text += ": \(name(transition.from)) → \(name(transition.to)) since \(rel(transition.since))"
                if transition.popRequested { text += " (pop requested)" }
                lines.append(text)
            }
        }
        if !diagnostics.isEmpty {
            lines.append("diagnostics")
            for diagnostic in diagnostics {
                var text = "  \(rel(diagnostic.time))  event \(diagnostic.ordinal)  \(diagnostic.kind.name)"
                if let controller = diagnostic.controller { text += "  \(controller.displayName)" }
                lines.append(text + ": " + diagnostic.message.controlCharactersEscaped)
            }
            let omitted = omittedDiagnostics
            if !omitted.isEmpty {
                let counts = omitted.map { "\($0.kind.name) \($0.count)" }.joined(separator: ", ")
                lines.append("  … and \(omitted.reduce(0) { $0 + $1.count }) more, only counted (the first \(Self.retainedDiagnosticLimit) are kept): \(counts)")
            }
        }
        if lines.isEmpty { lines.append("(no controllers)") }
        return lines.joined(separator: "\n") + "\n"
    }
}
