import TraceLog
import TraceModel

/// The frame tables a record's slots point into (`FrameCursor`'s string, controller, container-list and field
/// tables): what the fold reads to apply a container, app, SwiftUI or mark record without an `Event`.
protocol RecordTables: ControllerRefSource {
    func string(atSlot slot: UInt32) -> String
    func serial(atSlot slot: UInt32) -> UInt32
    func listSlot(_ index: UInt32) -> UInt32
    func field(_ index: UInt32) -> MarkFieldRecord
    func value(of field: MarkFieldRecord) -> FieldValue
}

extension FrameCursor: RecordTables {}

extension CursorRefs: RecordTables {
    // Through the pointer's own accessors: `cursor.pointee.method()` would copy the whole cursor per call.
    func string(atSlot slot: UInt32) -> String { cursor.string(atSlot: slot) }
    func serial(atSlot slot: UInt32) -> UInt32 { cursor.serial(atSlot: slot) }
    func listSlot(_ index: UInt32) -> UInt32 { cursor.listSlot(index) }
    func field(_ index: UInt32) -> MarkFieldRecord { cursor.field(index) }
    func value(of field: MarkFieldRecord) -> FieldValue { cursor.value(of: field) }
}
