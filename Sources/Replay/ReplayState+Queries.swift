import TraceModel

extension ReplayState {
    /// The callback a mark (or any event) about `controller` happens in, at this instant.
    ///
    /// 1. The innermost executing interval among `controller`'s callbacks and the app's callbacks (when
    ///    `controller` is `nil`: the innermost executing callback of anyone).
    /// 2. Otherwise, for sources that record instants only (imported console logs): the most recent callback of
    ///    the trace if it is an instant and belongs to `controller` or to the app. A log line printed after
    ///    `viewWillDisappear` and before the next callback is taken to have run inside it. The result then has
    ///    `isInstant == true`, so a consumer can tell an inference from a recorded interval.
    ///
    /// - Returns: `nil` when nothing encloses the instant.
    @inlinable
    public func enclosingCallback(of controller: ControllerRef?) -> ActiveCallback? {
        enclosingCallback(ofSerial: controller?.serial)
    }

    /// `enclosingCallback(of:)` for the controller `serial` (`nil`: anyone). Inlined: called from the fold's
    /// mutating code, an outlined call copied the whole state (its arrays retained and released) per mark.
    /// Public for the audit's rules, which ask with a serial (no `ControllerRef` to build); inlinable, so that the
    /// audit's in-place query (`CallbackAttribution.enclosingActive(ofSerial:)`) does not copy the state to call it.
    @inlinable @inline(__always)
    public func enclosingCallback(ofSerial serial: UInt32?) -> ActiveCallback? {
        if let serial {
            // `executing` holds every executing callback in begin order, so the controller's innermost one is
            // its last entry there (this avoids copying the controller's record out of the dictionary).
            let own = executing.last { $0.isOf(serial) }
            let app = appCallbacks.last
            switch (own, app) {
            case (let own?, let app?): return own.ordinal >= app.ordinal ? own : app
            case (let own?, nil): return own
            case (nil, let app?): return app
            case (nil, nil): break
            }
        } else if let top = executing.last {
            return top
        }
        if let last = lastCallback, last.isInstant,
           serial == nil || last.controllerSerial == nil || last.controllerSerial == serial {
            return last
        }
        return nil
    }

    /// The app-level (app or scene delegate) callback executing now, innermost, if any.
    public var currentAppCallback: ActiveCallback? { appCallbacks.last }

    /// Diagnostics about `controller` among those kept in full (`diagnostics`), in event order.
    public func diagnostics(of controller: ControllerRef) -> [Diagnostic] {
        diagnostics.filter { $0.controller?.serial == controller.serial }
    }

    /// How many anomalies were found, kept in full or only counted.
    public var diagnosticCount: UInt64 { diagnosticCounts.reduce(0, &+) }

    /// How many anomalies of `kind` were found, kept in full or only counted.
    public func diagnosticCount(of kind: Diagnostic.Kind) -> UInt64 {
        diagnosticCounts.isEmpty ? 0 : diagnosticCounts[Int(kind.rawValue)]
    }

    /// How many anomalies were found past the ones kept in full (`diagnostics`), kind by kind in `Diagnostic.Kind`
    /// order, kinds with none left out.
    public var omittedDiagnostics: [(kind: Diagnostic.Kind, count: UInt64)] {
        var omitted = diagnosticCounts
        guard !omitted.isEmpty else { return [] }
        for diagnostic in diagnostics { omitted[Int(diagnostic.kind.rawValue)] -= 1 }
        return Diagnostic.Kind.allCases.compactMap { kind in
            omitted[Int(kind.rawValue)] == 0 ? nil : (kind, omitted[Int(kind.rawValue)])
        }
    }

    /// The in-flight transitions that involve `controller` as `from`, `to` or container.
    public func transitions(involving controller: ControllerRef) -> [InFlightTransition] {
        let serial = controller.serial
        return transitions.filter { $0.from == serial || $0.to == serial || $0.container == serial }
    }
}
