import TraceModel

/// One decoded event in a trivially copyable form (no strings, no references), for consumers that fold
/// millions of events and want to avoid building an `Event` for each.
///
/// Every standard event without an `EventSource` is a record of its own kind; strings and controllers are given
/// as slots in the frame's tables (`FrameCursor.string(atSlot:)`, `FrameCursor.controller(atSlot:)`), controllers
/// also as serials (`ControllerRef.serial`), so a consumer can work on numbers and build strings only when it
/// needs them. Which fields a kind sets:
///
/// | kind | fields |
/// |---|---|
/// | `.callback` (no source, no size argument) | `callback`, `phase`, `animated`, `controller`/`controllerSlot`, `parent` (`parentSerial`, `parentSlot`) |
/// | `.container` | `code` (`ContainerOperation` raw value, `containerOperation`), `phase`, `animated`, the container as `controller`/`controllerSlot` when `hasController`, the controllers as `listCount` slots from `listStart` (`FrameCursor.listSlot(_:)`), `style` (`presentationStyle`), `index` when `hasIndex` |
/// | `.app` | `code` (`AppTransition` raw value, `appTransition`), `phase`, the scene as `stringSlot` (`noString` for none) |
/// | `.swiftUI` | `code` (`SwiftUIEvent.Action` raw value, `swiftUIAction`), the view name as `stringSlot`, the host as `controller`/`controllerSlot` when `hasController` |
/// | `.mark` | the name as `stringSlot` (and `code`: its `KnownName`, `KnownName.other` for a custom name), `phase`, the controller when `hasController`, the fields as `listCount` entries from `listStart` (`FrameCursor.field(_:)`) |
/// | `.other` | only `timestamp` and `ordinal`: any other event (a callback with a size argument, any event with a source, recorder events, unknown kinds); `FrameCursor.event` holds it as an `Event` |
///
/// `FrameCursor.event(of:)` builds the `Event` any record of the frame stands for.
public struct EventRecord: Sendable, Hashable {
    /// What the record holds.
    public enum Kind: UInt8, Sendable, Hashable {
        /// A callback event: `callback`, `phase`, `animated`, the controller and the parent argument.
        case callback
        /// Any other event: only `timestamp` and `ordinal` are set; read the event from `FrameCursor.event`.
        case other
        /// A container operation (see the table above).
        case container
        /// An app or scene delegate callback.
        case app
        /// A SwiftUI `onAppear`/`onDisappear`.
        case swiftUI
        /// A mark.
        case mark
    }

    /// The callback's `parent` argument: absent (the callback has none, or the source did not record it), UIKit's
    /// `nil` (`ParentArgument.none`), or a controller (`parentSerial`, `parentSlot`).
    public enum Parent: UInt8, Sendable, Hashable {
        case absent
        case none
        case controller
    }

    /// `stringSlot` when there is no string (an app event without a scene).
    public static let noString = UInt32.max
    /// `style` when there is no presentation style.
    public static let noStyle = UInt8.max

    public var kind: Kind
    /// Nanoseconds on the trace's monotonic clock.
    public var timestamp: UInt64
    /// The event's position in the trace (0-based).
    public var ordinal: UInt64
    public var callback: Callback
    public var phase: Phase
    /// The `animated` argument, `nil` when not recorded.
    public var animated: Bool?
    /// The controller's serial (a callback's controller, a container, a SwiftUI host, a mark's controller).
    public var controller: UInt32
    /// The controller's entry in the frame's controller table.
    public var controllerSlot: UInt32
    public var parent: Parent
    /// The parent's serial and table slot when `parent` is `.controller`, else 0.
    public var parentSerial: UInt32
    public var parentSlot: UInt32

    /// Whether `controller`/`controllerSlot` name a controller: always for callbacks; for containers, SwiftUI
    /// events and marks, whether the event names its (optional) container, host or controller.
    public var hasController: Bool
    /// The raw value of the container operation, app transition or SwiftUI action; a mark's `KnownName`.
    public var code: UInt8
    /// The app event's scene, the SwiftUI view name or the mark name, as a slot of the frame's string table
    /// (`noString` for none).
    public var stringSlot: UInt32
    /// A container's controllers (slots in `FrameCursor.listSlot(_:)`) or a mark's fields (`FrameCursor.field(_:)`):
    /// `listCount` entries from `listStart`.
    public var listStart: UInt32
    public var listCount: UInt32
    /// A container's `ModalPresentationStyle` raw value, `noStyle` for none.
    public var style: UInt8
    /// Whether `index` holds a container's index.
    public var hasIndex: Bool
    /// A container's `index` (selectTab), when `hasIndex`.
    public var index: Int64

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
        self.hasController = true
        self.code = 0
        self.stringSlot = Self.noString
        self.listStart = 0
        self.listCount = 0
        self.style = Self.noStyle
        self.hasIndex = false
        self.index = 0
    }

    /// A record of kind `.other`: only the timestamp and ordinal are meaningful.
    public init(otherAt timestamp: UInt64, ordinal: UInt64) {
        self.init(timestamp: timestamp, ordinal: ordinal, callback: .initialize, phase: .instant, animated: nil, controller: 0, controllerSlot: 0)
        self.kind = .other
        self.hasController = false
    }

    /// A record of `kind` with the fields the decoder's inline readers set, in one initialisation; the others as
    /// `init(otherAt:ordinal:)` leaves them. `controllerSlot` negative: no controller.
    @inline(__always)
    init(
        kind: Kind, timestamp: UInt64, ordinal: UInt64, phase: Phase, animated: Bool? = nil, controllerSlot: Int, serials: [UInt32],
        code: UInt8, stringSlot: UInt32 = EventRecord.noString, listStart: Int = 0, listCount: Int = 0, style: UInt8 = EventRecord.noStyle,
        index: Int64? = nil
    ) {
        self.kind = kind
        self.timestamp = timestamp
        self.ordinal = ordinal
        self.callback = .initialize
        self.phase = phase
        self.animated = animated
        if controllerSlot >= 0 {
            self.controller = serials[controllerSlot]
            self.controllerSlot = UInt32(truncatingIfNeeded: controllerSlot)
            self.hasController = true
        } else {
            self.controller = 0
            self.controllerSlot = 0
            self.hasController = false
        }
        self.parent = .absent
        self.parentSerial = 0
        self.parentSlot = 0
        self.code = code
        self.stringSlot = stringSlot
        self.listStart = UInt32(truncatingIfNeeded: listStart)
        self.listCount = UInt32(truncatingIfNeeded: listCount)
        self.style = style
        self.hasIndex = index != nil
        self.index = index ?? 0
    }

    /// The operation of a `.container` record.
    public var containerOperation: ContainerOperation? {
        kind == .container ? ContainerOperation(rawValue: code) : nil
    }

    /// The transition of an `.app` record.
    public var appTransition: AppTransition? {
        kind == .app ? AppTransition(rawValue: code) : nil
    }

    /// The action of a `.swiftUI` record.
    public var swiftUIAction: SwiftUIEvent.Action? {
        kind == .swiftUI ? SwiftUIEvent.Action(rawValue: code) : nil
    }

    /// The standard name of a `.mark` record (`nil` for a custom name, or another kind).
    public var markName: KnownName? {
        guard kind == .mark, code != KnownName.other.rawValue else { return nil }
        return KnownName(rawValue: code)
    }

    /// The presentation style of a `.container` record.
    public var presentationStyle: ModalPresentationStyle? {
        style == Self.noStyle ? nil : ModalPresentationStyle(rawValue: style)
    }
}
