/// The kinds of events a monitor wants to see; the engine feeds a monitor only these.
public struct EventInterests: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    public static let callbacks = EventInterests(rawValue: 1 << 0)
    public static let containers = EventInterests(rawValue: 1 << 1)
    public static let app = EventInterests(rawValue: 1 << 2)
    public static let marks = EventInterests(rawValue: 1 << 3)
    public static let swiftUI = EventInterests(rawValue: 1 << 4)
    /// Recorder events (`runStarted`, `eventsDropped`, `note`).
    public static let recorder = EventInterests(rawValue: 1 << 5)
    public static let all: EventInterests = [.callbacks, .containers, .app, .marks, .swiftUI, .recorder]
}
