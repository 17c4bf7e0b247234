import TraceLog
import TraceModel

/// What the fold reads of a callback event, as numbers: built from an `EventRecord`, a `RecordBatch.Entry`
/// or a `CallbackEvent`, so that all three go through the one callback fold.
struct CallbackFacts {
    var timestamp: UInt64
    var ordinal: UInt64
    var callback: Callback
    var phase: Phase
    var controller: UInt32
    var controllerSlot: UInt32
    var parent: EventRecord.Parent
    var parentSerial: UInt32
    var parentSlot: UInt32

    @inline(__always)
    init(_ record: EventRecord) {
        timestamp = record.timestamp
        ordinal = record.ordinal
        callback = record.callback
        phase = record.phase
        controller = record.controller
        controllerSlot = record.controllerSlot
        parent = record.parent
        parentSerial = record.parentSerial
        parentSlot = record.parentSlot
    }

    @inline(__always)
    init(_ entry: RecordBatch.Entry, ordinal: UInt64) {
        timestamp = entry.timestamp
        self.ordinal = ordinal
        callback = Callback(rawValue: entry.callbackCode) ?? .initialize
        phase = Phase(rawValue: entry.phaseCode) ?? .instant
        controller = entry.serial
        controllerSlot = entry.slot
        parent = EventRecord.Parent(rawValue: entry.parentCode) ?? .absent
        parentSerial = entry.parentSerial
        parentSlot = entry.parentSlot
    }

    /// A `CallbackEvent` (slot 0 is its controller, slot 1 its parent argument's: `CallbackEventRefs`).
    init(_ event: CallbackEvent, at timestamp: UInt64, ordinal: UInt64) {
        self.timestamp = timestamp
        self.ordinal = ordinal
        callback = event.callback
        phase = event.phase
        controller = event.controller.serial
        controllerSlot = 0
        parent = .absent
        parentSerial = 0
        parentSlot = 0
        switch event.parent {
        case nil: break
        case .none?: parent = .none
        case .controller(let ref)?:
            parent = .controller
            parentSerial = ref.serial
            parentSlot = 1
        }
    }
}
