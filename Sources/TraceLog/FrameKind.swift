/// What a frame holds. An open set: frames of kinds this version does not know are skipped by their length.
public struct FrameKind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Encoded events (docs/FORMAT.md §5).
    public static let events = FrameKind(rawValue: 1)
    /// An opaque replay checkpoint covering every event with ordinal < the frame's `firstOrdinal`.
    public static let checkpoint = FrameKind(rawValue: 2)
    /// The frame index written on clean close, just before the footer.
    public static let index = FrameKind(rawValue: 3)

    public var description: String {
        switch self {
        case .events: "events"
        case .checkpoint: "checkpoint"
        case .index: "index"
        default: "unknown(\(rawValue))"
        }
    }
}
