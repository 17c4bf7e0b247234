/// A controller's place in the controller tree, as far as the trace says.
///
/// `unknown` when the trace never said (imported console logs): the replayer does not guess.
public enum ParentLink: Sendable, Hashable {
    case unknown
    /// Known to have no parent (created in the trace and never added, or removed).
    case none
    /// The window's root view controller (`setRoot` without a container).
    case window
    /// A child of the controller with this serial.
    case controller(UInt32)

    /// The parent's serial, or `nil`.
    public var serial: UInt32? {
        if case .controller(let serial) = self { return serial }
        return nil
    }
}
