/// The first byte of every encoded event (docs/FORMAT.md §5).
///
/// The low 7 bits name the kind; bit 7 says an `EventSource` follows the body.
enum EventTag {
    static let callback: UInt8 = 0x01
    static let container: UInt8 = 0x02
    static let app: UInt8 = 0x03
    static let swiftUI: UInt8 = 0x04
    static let mark: UInt8 = 0x05
    static let recorder: UInt8 = 0x06
    /// Escape: `u8 kind, varint length, body`. Every kind a 1.0 reader does not know is written this way, so
    /// older readers skip it by its length and keep it as an `UnknownEvent`.
    static let escape: UInt8 = 0x7F
    static let hasSource: UInt8 = 0x80
    static let kindMask: UInt8 = 0x7F
}
