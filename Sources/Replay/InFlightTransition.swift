/// A transition that has begun and not yet finished or been cancelled.
public struct InFlightTransition: Sendable, Hashable {
    public enum Kind: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// `interactiveTransitionBegin` on a navigation controller (or a container of unknown kind): a swipe-back.
        case interactivePop = 0
        /// `interactiveTransitionBegin` on a page controller: a page scroll.
        case pageScroll = 1
        /// `presentationControllerWillDismiss`: a sheet being swiped down, until `…DidDismiss`, or until the
        /// sheet gets viewDidAppear again (the swipe was abandoned).
        case sheetDismiss = 2
        /// `interactiveTransitionBegin [from, to]` on a navigation controller whose top is already `to`: a push
        /// made interactive midway (an iOS 18 zoom transition grabbed by the user). Finishing keeps the push;
        /// cancelling pops `to` (the stack goes back to what it was).
        case interactivePush = 3

        public var name: String {
            switch self {
            case .interactivePop: "interactive_pop"
            case .pageScroll: "page_scroll"
            case .sheetDismiss: "sheet_dismiss"
            case .interactivePush: "interactive_push"
            }
        }

        public var description: String { name }
    }

    public var kind: Kind
    /// The navigation/page controller, or the presenter for a sheet; `nil` when the event did not say.
    public var container: UInt32?
    /// The controller leaving (top of the stack, current page, the sheet; for an interactive push, the old top).
    public var from: UInt32
    /// The controller arriving, when known.
    public var to: UInt32?
    /// When it began, nanoseconds on the trace clock, and the ordinal of the beginning event.
    public var since: UInt64
    public var ordinal: UInt64
    /// A `pop` of `from` arrived while the transition was in flight; it takes effect at finish.
    public var popRequested: Bool

    public init(kind: Kind, container: UInt32?, from: UInt32, to: UInt32?, since: UInt64, ordinal: UInt64, popRequested: Bool = false) {
        self.kind = kind
        self.container = container
        self.from = from
        self.to = to
        self.since = since
        self.ordinal = ordinal
        self.popRequested = popRequested
    }
}
