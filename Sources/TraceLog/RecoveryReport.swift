/// What reopening a file for append (or `verify --repair`) cut off: a torn tail left by a write that did not
/// finish. The footer and index of a cleanly closed file are derived data and are not reported.
public struct RecoveryReport: Sendable, Equatable, CustomStringConvertible {
    /// Where the file now ends: the end of the last valid frame.
    public var offset: UInt64
    /// How many bytes were removed from `offset` to the old end of the file.
    public var droppedBytes: UInt64
    /// Why the bytes were not a valid frame, e.g. `file ends inside a frame header (20 of 64 bytes)`.
    public var reason: String

    public init(offset: UInt64, droppedBytes: UInt64, reason: String) {
        self.offset = offset
        self.droppedBytes = droppedBytes
        self.reason = reason
    }

    public var description: String {
        "dropped \(droppedBytes) bytes of torn tail at offset \(offset): \(reason)"
    }
}
