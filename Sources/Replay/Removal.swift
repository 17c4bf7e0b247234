/// How and when a controller left its container or presenter.
public struct Removal: Sendable, Hashable {
    public enum Kind: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Popped from a navigation stack (`pop`, or a finished interactive pop).
        case popped = 0
        /// Dismissed (`dismiss`, or `presentationControllerDidDismiss` after a sheet swipe-down).
        case dismissed = 1
        /// `removeFromParent`.
        case removedFromParent = 2
        /// `didMove(toParent: nil)` without an earlier container operation saying more.
        case movedToNilParent = 3
        /// Left a container's list through `setViewControllers`.
        case replaced = 4

        public var name: String {
            switch self {
            case .popped: "popped"
            case .dismissed: "dismissed"
            case .removedFromParent: "removed_from_parent"
            case .movedToNilParent: "did_move_to_nil_parent"
            case .replaced: "replaced"
            }
        }

        public var description: String { name }
    }

    public var kind: Kind
    /// Nanoseconds on the trace clock.
    public var time: UInt64
    public var ordinal: UInt64

    public init(kind: Kind, time: UInt64, ordinal: UInt64) {
        self.kind = kind
        self.time = time
        self.ordinal = ordinal
    }
}
