/// One field of a `.mark` record (`FrameCursor.field(_:)`): its name as a slot of the frame's string table (and
/// its `KnownName`), its type and its value.
public struct MarkFieldRecord: Sendable, Hashable {
    /// The field types of docs/FORMAT.md §5.
    public enum ValueType: UInt8, Sendable, Hashable {
        case string = 0
        case int = 1
        case bool = 2
        case double = 4
    }

    public var nameSlot: UInt32
    /// The name's `KnownName` raw value (`KnownName.other` for any other name).
    public var nameCode: UInt8
    public var type: ValueType
    /// `.string`: the value's string slot; `.int`: the integer's bit pattern; `.bool`: 0 or 1; `.double`: the
    /// IEEE 754 bit pattern.
    public var bits: UInt64

    public init(nameSlot: UInt32, nameCode: UInt8, type: ValueType, bits: UInt64) {
        self.nameSlot = nameSlot
        self.nameCode = nameCode
        self.type = type
        self.bits = bits
    }

    /// The standard name, if the field has one.
    public var knownName: KnownName? {
        nameCode == KnownName.other.rawValue ? nil : KnownName(rawValue: nameCode)
    }
}
