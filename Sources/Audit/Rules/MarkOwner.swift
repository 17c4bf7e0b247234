import TraceLog
import TraceModel

/// Who a mark is about, for the rules that track the app's own resources and events (`timer_under_sheet`,
/// `observer_not_removed`, `analytics_overcount`).
enum MarkOwner {
    /// The mark's controller, else the controller whose callback encloses the mark (`CallbackAttribution`), else
    /// `nil` (app-level code).
    static func of(_ mark: MarkEvent, _ context: EventContext) -> ControllerRef? {
        if let controller = mark.controller { return controller }
        return context.attribution.enclosing(of: nil)?.controller
    }

    /// The identifier a resource mark carries: its `id` field, else its `name` field, else "" (unnamed).
    static func identifier(_ mark: MarkEvent) -> String {
        (mark[field: "id"] ?? mark[field: "name"])?.description ?? ""
    }

    /// `of(_:_:)` for the mark `record`, read from the record (no `Event` is built).
    static func of(_ record: EventRecord, _ context: EventContext) -> ControllerRef? {
        record.hasController ? context.controller(of: record) : context.attribution.enclosing(of: nil)?.controller
    }

    /// The serial of `of(_:_:)` for the mark `record` (`nil` exactly when it is `nil`), without building a
    /// `ControllerRef`: the mark's controller, else the controller of the callback `enclosingActive(ofSerial: nil)`
    /// gives (`nil` for an app callback; that query is `nil` exactly when `enclosing(of: nil)` is).
    static func serial(of record: EventRecord, _ context: EventContext) -> UInt32? {
        if record.hasController { return record.controller }
        guard let active = context.attribution.enclosingActive(ofSerial: nil), case .controller = active.kind else { return nil }
        return active.controllerSerial
    }

    /// `identifier(_:)` for the mark `record`, read from the record's fields (no `Event` is built).
    static func identifier(_ record: EventRecord, _ context: EventContext) -> String {
        (context.field(.id, of: record) ?? context.field(.name, of: record))?.description ?? ""
    }

    /// `'refresh'`, or `(unnamed)` for "".
    static func quoted(_ identifier: String) -> String {
        identifier.isEmpty ? "(unnamed)" : "'\(identifier)'"
    }
}
