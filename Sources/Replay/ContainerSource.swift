import TraceLog
import TraceModel

/// A container operation as the fold reads it: from a `ContainerEvent` (`EventContainer`) or from a `.container`
/// record and its frame's tables (`RecordContainer`), so that both go through the one `applyContainer`.
protocol ContainerSource {
    associatedtype Refs: ControllerRefSource
    var operation: ContainerOperation { get }
    var phase: Phase { get }
    /// The container, if the event names one, and its slot in `refs`.
    var containerSerial: UInt32? { get }
    var containerSlot: UInt32 { get }
    /// How many controllers the event names; the serial and `refs` slot of each.
    var count: Int { get }
    func serial(at index: Int) -> UInt32
    func slot(at index: Int) -> UInt32
    var style: ModalPresentationStyle? { get }
    var index: Int? { get }
    var refs: Refs { get }
}

extension ContainerSource {
    /// The serials of the controllers the event names, in order.
    var serials: [UInt32] { (0..<count).map { serial(at: $0) } }
}

/// A `ContainerEvent`: slot `i` is `controllers[i]`, `containerSlotValue` the container.
struct EventContainer: ContainerSource, ControllerRefSource {
    let event: ContainerEvent

    static let containerSlotValue = UInt32.max

    var operation: ContainerOperation { event.operation }
    var phase: Phase { event.phase }
    var containerSerial: UInt32? { event.container?.serial }
    var containerSlot: UInt32 { Self.containerSlotValue }
    var count: Int { event.controllers.count }
    func serial(at index: Int) -> UInt32 { event.controllers[index].serial }
    func slot(at index: Int) -> UInt32 { UInt32(index) }
    var style: ModalPresentationStyle? { event.style }
    var index: Int? { event.index }
    var refs: EventContainer { self }

    func controllerRef(slot: UInt32) -> ControllerRef {
        if slot == Self.containerSlotValue, let container = event.container { return container }
        return event.controllers[Int(slot)]
    }
}

/// A `.container` record of a frame.
///
/// The slots and serials of its first two listed controllers (all of them, nearly always) are read from the
/// tables once, when it is made: `applyContainer` asks for each several times.
struct RecordContainer<Tables: RecordTables>: ContainerSource {
    let record: EventRecord
    let tables: Tables
    private let firstSlots: (UInt32, UInt32)
    private let firstSerials: (UInt32, UInt32)

    init(record: EventRecord, tables: Tables) {
        self.record = record
        self.tables = tables
        let count = record.listCount
        let first = count > 0 ? tables.listSlot(record.listStart) : 0
        let second = count > 1 ? tables.listSlot(record.listStart &+ 1) : 0
        firstSlots = (first, second)
        firstSerials = (count > 0 ? tables.serial(atSlot: first) : 0, count > 1 ? tables.serial(atSlot: second) : 0)
    }

    var operation: ContainerOperation { record.containerOperation ?? .setRoot }
    var phase: Phase { record.phase }
    var containerSerial: UInt32? { record.hasController ? record.controller : nil }
    var containerSlot: UInt32 { record.controllerSlot }
    var count: Int { Int(record.listCount) }

    func serial(at index: Int) -> UInt32 {
        switch index {
        case 0: firstSerials.0
        case 1: firstSerials.1
        default: tables.serial(atSlot: slot(at: index))
        }
    }

    func slot(at index: Int) -> UInt32 {
        switch index {
        case 0: firstSlots.0
        case 1: firstSlots.1
        default: tables.listSlot(record.listStart &+ UInt32(index))
        }
    }
    var style: ModalPresentationStyle? { record.presentationStyle }
    var index: Int? { record.hasIndex ? Int(record.index) : nil }
    var refs: Tables { tables }
}
