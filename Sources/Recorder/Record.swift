/// The 32-byte fixed-size form of an event in the recorder's ring.
///
/// `header` packs `kind` (bits 0–7), `code` (8–15: the callback, operation, transition, action or standard
/// mark), `phase` (16–23), `flags` (24–31) and the subject controller's serial (32–63, 0 = none). `first` and
/// `second` carry the kind's arguments (serials, interned string ids, doubles as bit patterns, a box ticket).
/// Strings never enter the ring: they are interned (`StringTable`) and resolved on the writer thread.
struct Record {
    var timestamp: UInt64
    var header: UInt64
    var first: UInt64
    var second: UInt64

    enum Kind: UInt8 {
        case callback = 1
        case container = 2
        case app = 3
        case swiftUI = 4
        case mark = 5
        /// Anything that does not fit: `first` is a retained pointer to a `BoxedPayload`.
        case boxed = 6
    }

    @inline(__always)
    init(kind: Kind, code: UInt8 = 0, phase: UInt8 = 0, flags: UInt8 = 0, serial: UInt32 = 0, first: UInt64 = 0, second: UInt64 = 0) {
        timestamp = 0
        header = UInt64(kind.rawValue) | UInt64(code) << 8 | UInt64(phase) << 16 | UInt64(flags) << 24
            | UInt64(serial) << 32
        self.first = first
        self.second = second
    }

    var kind: UInt8 { UInt8(truncatingIfNeeded: header) }
    var code: UInt8 { UInt8(truncatingIfNeeded: header >> 8) }
    var phase: UInt8 { UInt8(truncatingIfNeeded: header >> 16) }
    var flags: UInt8 { UInt8(truncatingIfNeeded: header >> 24) }
    var serial: UInt32 { UInt32(truncatingIfNeeded: header >> 32) }
}

/// Flag bits of `Record.flags`.
enum RecordFlag {
    static let hasAnimated: UInt8 = 1 << 0
    static let animated: UInt8 = 1 << 1
    // Callbacks
    static let hasParent: UInt8 = 1 << 2
    static let parentIsController: UInt8 = 1 << 3
    static let hasSize: UInt8 = 1 << 4
    // Containers
    static let hasStyle: UInt8 = 1 << 2
    static let hasIndex: UInt8 = 1 << 3
    // Marks
    static let critical: UInt8 = 1 << 0
    static let hasString: UInt8 = 1 << 1
}
