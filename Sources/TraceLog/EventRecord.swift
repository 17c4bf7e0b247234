import TraceModel

/// One decoded event in a trivially copyable form (no strings, no references), for consumers that fold
/// millions of events and want to avoid building an `Event` for each.
///
/// A callback event without an `EventSource` or a size argument (by far the most common event) is a record of
/// `kind` `.callback`: controllers are given as serials (`ControllerRef.serial`) and as slots in the frame's
/// controller table (`FrameCursor.controller(atSlot:)` gives the whole `ControllerRef`). Every other event is a
/// record of kind `.other` with only `timestamp` and `ordinal` set; `FrameCursor.event` holds it as an `Event`.
public struct EventRecord: Sendable, Hashable {
    /// What the record holds.
    public enum Kind: UInt8, Sendable, Hashable {
        /// A callback event: every field below is set.
        case callback
        /// Any other event: only `timestamp` and `ordinal` are set; read the event from `FrameCursor.event`.
        case other
    }

    /// The callback's `parent` argument: absent (the callback has none, or the source did not record it), UIKit's
    /// `nil` (`ParentArgument.none`), or a controller (`parentSerial`, `parentSlot`).
    public enum Parent: UInt8, Sendable, Hashable {
        case absent
        case none
        case controller
    }

    public var kind: Kind
    /// Nanoseconds on the trace's monotonic clock.
    public var timestamp: UInt64
    /// The event's position in the trace (0-based).
    public var ordinal: UInt64
    public var callback: Callback
    public var phase: Phase
    /// The `animated` argument, `nil` when not recorded.
    public var animated: Bool?
    /// The controller's serial.
    public var controller: UInt32
    /// The controller's entry in the frame's controller table.
    public var controllerSlot: UInt32
    public var parent: Parent
    /// The parent's serial and table slot when `parent` is `.controller`, else 0.
    public var parentSerial: UInt32
    public var parentSlot: UInt32

    /// A callback record without a parent argument.
    public init(
        timestamp: UInt64, ordinal: UInt64, callback: Callback, phase: Phase, animated: Bool?, controller: UInt32,
        controllerSlot: UInt32
    ) {
        self.kind = .callback
        self.timestamp = timestamp
        self.ordinal = ordinal
        self.callback = callback
        self.phase = phase
        self.animated = animated
        self.controller = controller
        self.controllerSlot = controllerSlot
        self.parent = .absent
        self.parentSerial = 0
        self.parentSlot = 0
    }

    /// A record of kind `.other`: only the timestamp and ordinal are meaningful.
    public init(otherAt timestamp: UInt64, ordinal: UInt64) {
        self.init(timestamp: timestamp, ordinal: ordinal, callback: .initialize, phase: .instant, animated: nil, controller: 0, controllerSlot: 0)
        self.kind = .other
    }
}
