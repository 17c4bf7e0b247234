import TraceModel

/// A protocol anomaly the fold found: recorded with the event that showed it, never fixed silently, never a crash.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// viewDidAppear without viewWillAppear before it (from `disappeared` or `disappearing`), or
        /// viewDidDisappear without viewWillDisappear (from `appearing` or `appeared`).
        case didWithoutWill = 0
        /// viewDidAppear while already `appeared` (e.g. manual appearance forwarding on top of automatic).
        case duplicateDidAppear = 1
        /// viewDidDisappear while already `disappeared`.
        case duplicateDidDisappear = 2
        /// viewWillAppear while `appearing`, or viewWillDisappear while `disappearing` (a will repeated with no did).
        case repeatedWill = 3
        /// viewWillAppear while `appeared`, or viewWillDisappear while `disappeared`.
        case willFromWrongState = 4
        /// viewDidLoad more than once for one controller.
        case duplicateViewDidLoad = 5
        /// Any event about a controller after its deinit.
        case eventAfterDeinit = 6
        /// A timestamp smaller than the previous event's.
        case timeWentBackwards = 7
        /// An `end` with no matching `begin`, or an `end` while a later-begun callback is still executing.
        case unbalancedEnd = 8
        /// The recorder dropped events; the state after this point may be incomplete.
        case eventsDropped = 9
        /// A new recording run started (`RecorderEvent.runStarted`) while callbacks of the previous run were still
        /// executing: the previous process ended inside a callback (a crash, or a kill mid-callback).
        case processEndedInCallback = 10

        /// The snake_case id: `did_without_will`, `duplicate_did_appear`, ….
        public var name: String {
            switch self {
            case .didWithoutWill: "did_without_will"
            case .duplicateDidAppear: "duplicate_did_appear"
            case .duplicateDidDisappear: "duplicate_did_disappear"
            case .repeatedWill: "repeated_will"
            case .willFromWrongState: "will_from_wrong_state"
            case .duplicateViewDidLoad: "duplicate_view_did_load"
            case .eventAfterDeinit: "event_after_deinit"
            case .timeWentBackwards: "time_went_backwards"
            case .unbalancedEnd: "unbalanced_end"
            case .eventsDropped: "events_dropped"
            case .processEndedInCallback: "process_ended_in_callback"
            }
        }

        public var description: String { name }

        /// Whether this kind is about the appearance state machine (the `appearance_balance` family).
        public var isAppearanceAnomaly: Bool {
            switch self {
            case .didWithoutWill, .duplicateDidAppear, .duplicateDidDisappear, .repeatedWill, .willFromWrongState: true
            default: false
            }
        }
    }

    public var kind: Kind
    /// Ordinal of the event that showed the anomaly.
    public var ordinal: UInt64
    /// Its timestamp, nanoseconds on the trace clock.
    public var time: UInt64
    /// The controller concerned, if any.
    public var controller: ControllerRef?
    /// A sentence for people, e.g. `viewDidDisappear while already disappeared`.
    public var message: String

    public init(kind: Kind, ordinal: UInt64, time: UInt64, controller: ControllerRef?, message: String) {
        self.kind = kind
        self.ordinal = ordinal
        self.time = time
        self.controller = controller
        self.message = message
    }

    /// `event 12: duplicate_did_disappear: FirstViewController#1: viewDidDisappear while already disappeared`.
    public var description: String {
        var text = "event \(ordinal): \(kind.name): "
        if let controller { text += "\(controller.displayName): " }
        return text + message
    }
}
