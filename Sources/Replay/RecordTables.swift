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
    func string(atSlot slot: UInt32) -> String { cursor.pointee.string(atSlot: slot) }
    func serial(atSlot slot: UInt32) -> UInt32 { cursor.pointee.serial(atSlot: slot) }
    func listSlot(_ index: UInt32) -> UInt32 { cursor.pointee.listSlot(index) }
    func field(_ index: UInt32) -> MarkFieldRecord { cursor.pointee.field(index) }
    func value(of field: MarkFieldRecord) -> FieldValue { cursor.pointee.value(of: field) }
}
