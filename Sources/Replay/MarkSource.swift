import TraceLog
import TraceModel

/// A mark as the fold reads it: from a `MarkEvent` (`EventMark`) or from a `.mark` record and its frame's tables
/// (`RecordMark`), so that both go through the one `applyMark`.
protocol MarkSource {
    associatedtype Refs: ControllerRefSource
    /// The standard name (`nil` for a custom mark).
    var knownName: KnownName? { get }
    /// The mark's name (for diagnostics).
    var nameText: String { get }
    var phase: Phase { get }
    /// The controller the mark names, if any, and its slot in `refs`.
    var controllerSerial: UInt32? { get }
    var controllerSlot: UInt32 { get }
    var refs: Refs { get }
    /// The first field called `name`.
    func value(of name: KnownName) -> FieldValue?
}

/// A `MarkEvent`.
struct EventMark: MarkSource {
    let event: MarkEvent

    var knownName: KnownName? {
        let name = KnownName(event.name)
        return name == .other ? nil : name
    }

    var nameText: String { event.name }
    var phase: Phase { event.phase }
    var controllerSerial: UInt32? { event.controller?.serial }
    var controllerSlot: UInt32 { 0 }
    var refs: SingleControllerRef { SingleControllerRef(ref: event.controller ?? ControllerRef(serial: 0, typeName: "")) }

    func value(of name: KnownName) -> FieldValue? {
        guard let string = name.string else { return nil }
        return event[field: string]
    }
}

/// A `.mark` record of a frame.
struct RecordMark<Tables: RecordTables>: MarkSource {
    let record: EventRecord
    let tables: Tables

    var knownName: KnownName? { record.markName }
    var nameText: String { tables.string(atSlot: record.stringSlot) }
    var phase: Phase { record.phase }
    var controllerSerial: UInt32? { record.hasController ? record.controller : nil }
    var controllerSlot: UInt32 { record.controllerSlot }
    var refs: Tables { tables }

    func value(of name: KnownName) -> FieldValue? {
        var index = record.listStart
        let end = record.listStart &+ record.listCount
        while index < end {
            let field = tables.field(index)
            if field.nameCode == name.rawValue { return tables.value(of: field) }
            index &+= 1
        }
        return nil
    }
}
