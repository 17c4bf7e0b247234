import TraceModel

extension ReplayState {
    /// The state as one JSON object: the machine contract of `lifetrace state --format json`.
    ///
    /// ```
    /// {"t_ns", "t_rel_ns", "events_applied", "app", "scenes": {id: state}, "app_callbacks": [callback],
    ///  "window_root": name|null,
    ///  "controllers": [{"name", "serial", "type", "label", "appearance", "appearance_since_ns", "view_loaded",
    ///     "view_did_load_count", "alive", "status", "created_in_trace", "parent", "parent_known", "children",
    ///     "structure_known", "presenting", "presented", "presentation_style", "container", "view_attached_to",
    ///     "callbacks", "live_resources", "unsaved", "swiftui_views", "removal", "deinit_ns", "process_end_ns"}],
    ///  "transitions": [{"kind", "container", "from", "to", "since_ns", "pop_requested"}],
    ///  "diagnostics": [{"kind", "ordinal", "t_ns", "controller", "message"}], "dropped_events",
    ///  "diagnostics_omitted": {kind: count}}
    /// ```
    /// `diagnostics` holds the first `retainedDiagnosticLimit` anomalies; `diagnostics_omitted`, present only when
    /// there were more, counts the rest by kind.
    /// Controllers (alive and dead) are ordered by serial and named by `ControllerRef.displayName` everywhere
    /// (the JSONL export's `controller` field). `status` is `alive`, `deinitialized` (its deinit was recorded,
    /// `deinit_ns`) or `process_ended` (its process ended while it was alive: a later run started, `process_end_ns`;
    /// `alive` is `false` for both). `appearance` is `disappeared`, `appearing`, `appeared`,
    /// `disappearing`, or `unknown` before the first callback of a controller first seen mid-session. `parent`
    /// is a name, `"window"` for the window's root, or `null` (no parent when `parent_known`, unknown
    /// otherwise). `container` is `null` or `{"kind", "view_controllers" (null when never seen), "complete",
    /// "selected", "selected_index"}`. Times `*_ns` are nanoseconds on the trace clock; `t_rel_ns` is `t_ns`
    /// minus `start_ns`, the trace's first event time passed in.
    ///
    /// - Parameters:
    ///   - instant: The instant asked for (ns on the trace clock); defaults to the last applied event's time.
    ///   - start: The trace's first event time (ns), for `t_rel_ns`; defaults to `startTime`.
    public func json(at instant: UInt64? = nil, start: UInt64? = nil) -> String {
        let t = instant ?? time ?? 0
        let origin = start ?? startTime ?? t
        func name(_ serial: UInt32?) -> String {
            guard let serial else { return "null" }
            return JSONText.string(controllers[serial]?.ref.displayName ?? "#\(serial)")
        }
        func callbackJSON(_ callback: ActiveCallback) -> String {
            JSONText.object([
                ("callback", JSONText.string(callback.name)),
                ("controller", JSONText.optional(controllerRef(of: callback)?.displayName ?? callback.controllerSerial.map { "#\($0)" })),
                ("scene", JSONText.optional(callback.scene)),
                ("since_ns", String(callback.since)),
                ("ordinal", String(callback.ordinal)),
                ("instant", String(callback.isInstant)),
            ])
        }
        let controllerItems = sortedControllers.map { c -> String in
            let parent: String
            switch c.parent {
            case .unknown, .none: parent = "null"
            case .window: parent = JSONText.string("window")
            case .controller(let serial): parent = name(serial)
            }
            var container = "null"
            if c.containerKind != .unknown || c.viewControllers != nil || c.selectedController != nil {
                container = JSONText.object([
                    ("kind", JSONText.string(c.containerKind.name)),
                    ("view_controllers", c.viewControllers.map { JSONText.array($0.map { name($0) }) } ?? "null"),
                    ("complete", String(c.isViewControllerListComplete)),
                    ("selected", name(c.selectedController)),
                    ("selected_index", JSONText.number(c.selectedIndex)),
                ])
            }
            return JSONText.object([
                ("name", JSONText.string(c.ref.displayName)),
                ("serial", String(c.ref.serial)),
                ("type", JSONText.string(c.ref.typeName)),
                ("label", JSONText.optional(c.ref.label)),
                ("appearance", JSONText.string(c.appearance.name)),
                ("appearance_since_ns", JSONText.number(c.appearanceSince)),
                ("view_loaded", String(c.isViewLoaded)),
                ("view_did_load_count", String(c.viewDidLoadCount)),
                ("alive", String(c.isAlive)),
                ("status", JSONText.string(c.deinitTime != nil ? "deinitialized" : c.processEndTime != nil ? "process_ended" : "alive")),
                ("created_in_trace", String(c.isCreatedInTrace)),
                ("parent", parent),
                ("parent_known", String(c.parent != .unknown)),
                ("children", JSONText.array(c.children.map { name($0) })),
                ("structure_known", String(c.isStructureKnown)),
                ("presenting", name(c.presentingController)),
                ("presented", name(c.presentedController)),
                ("presentation_style", JSONText.optional(c.presentationStyle?.name)),
                ("container", container),
                ("view_attached_to", name(c.viewAttachedTo)),
                ("callbacks", JSONText.array(c.callbacks.map(callbackJSON))),
                ("live_resources", JSONText.array(c.resources.map { resource in
                    JSONText.object([
                        ("kind", JSONText.string(resource.kind.name)),
                        ("id", JSONText.string(resource.id)),
                        ("since_ns", String(resource.since)),
                        ("started_in", JSONText.optional(resource.startedIn.map(describe))),
                    ])
                })),
                ("unsaved", JSONText.array(c.unsaved.map { edit in
                    JSONText.object([
                        ("key", JSONText.string(edit.key)),
                        ("first_edit_ns", String(edit.firstEdit)),
                        ("last_edit_ns", String(edit.lastEdit)),
                        ("count", String(edit.count)),
                    ])
                })),
                ("swiftui_views", JSONText.array(c.swiftUIViews.map { view in
                    JSONText.object([
                        ("view", JSONText.string(view.view)),
                        ("in_render_tree", String(view.isInRenderTree)),
                        ("appear_count", String(view.appearCount)),
                    ])
                })),
                ("removal", c.removal.map { JSONText.object([("kind", JSONText.string($0.kind.name)), ("t_ns", String($0.time))]) } ?? "null"),
                ("deinit_ns", JSONText.number(c.deinitTime)),
                ("process_end_ns", JSONText.number(c.processEndTime)),
            ])
        }
        return JSONText.object([
            ("t_ns", String(t)),
            ("t_rel_ns", String(t >= origin ? t - origin : 0)),
            ("start_ns", String(origin)),
            ("events_applied", String(eventCount)),
            ("app", JSONText.string(app.name)),
            ("scenes", JSONText.object(scenes.keys.sorted().map { ($0, JSONText.string(scenes[$0]!.name)) })),
            ("app_callbacks", JSONText.array(appCallbacks.map(callbackJSON))),
            ("window_root", name(windowRoot)),
            ("controllers", JSONText.array(controllerItems)),
            ("transitions", JSONText.array(transitions.map { transition in
                JSONText.object([
                    ("kind", JSONText.string(transition.kind.name)),
                    ("container", name(transition.container)),
                    ("from", name(transition.from)),
                    ("to", name(transition.to)),
                    ("since_ns", String(transition.since)),
                    ("pop_requested", String(transition.popRequested)),
                ])
            })),
            ("diagnostics", JSONText.array(diagnostics.map { diagnostic in
                JSONText.object([
                    ("kind", JSONText.string(diagnostic.kind.name)),
                    ("ordinal", String(diagnostic.ordinal)),
                    ("t_ns", String(diagnostic.time)),
                    ("controller", JSONText.optional(diagnostic.controller?.displayName)),
                    ("message", JSONText.string(diagnostic.message)),
                ])
            })),
            ("dropped_events", String(droppedEvents)),
        ] + omittedDiagnosticsJSON)
    }

    /// `"diagnostics_omitted": {kind: count}` when more anomalies were found than `diagnostics` keeps in full
    /// (`retainedDiagnosticLimit`), else nothing.
    private var omittedDiagnosticsJSON: [(String, String)] {
        let omitted = omittedDiagnostics
        guard !omitted.isEmpty else { return [] }
        return [("diagnostics_omitted", JSONText.object(omitted.map { ($0.kind.name, String($0.count)) }))]
    }
}
