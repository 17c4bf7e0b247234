/// `UIGestureRecognizer.State`, as far as the adapter needs it.
public enum GestureState: Sendable, Hashable {
    /// `.possible`: not recognised (or no recogniser).
    case possible
    /// `.began`.
    case began
    /// `.changed`.
    case changed
    /// `.ended`, `.cancelled` or `.failed`.
    case ended

    /// The gesture is driving something now (`.began` or `.changed`).
    public var isActive: Bool { self == .began || self == .changed }
}
