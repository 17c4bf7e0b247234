import TraceLog
import TraceModel

/// The marks a monitor's `observe(_:_:_:)` looks at, by name, so the engine calls it only for those (and builds
/// no `Event` for a mark no monitor looks at).
///
/// A filter may hold more names than the monitor acts on, never fewer: the monitor still checks the name.
public struct MarkFilter: Sendable, Hashable {
    /// The names, or `nil` for every mark.
    public var names: [String]?

    public init(_ names: [String]) {
        self.names = names
    }

    private init(all: Void) {
        names = nil
    }

    /// Every mark.
    public static let all = MarkFilter(all: ())

    /// Whether the filter holds the mark name `name`.
    public func contains(_ name: String) -> Bool {
        names?.contains(name) ?? true
    }

    /// Whether the filter holds a mark whose name has the interned code `code` (`KnownName.other` is never held
    /// by code: such a name is compared as a string).
    func contains(known code: KnownName) -> Bool {
        guard let names else { return true }
        return code != .other && names.contains { KnownName($0) == code }
    }

    /// Whether the filter may hold a name that is not a `KnownName` (such marks are compared by their string).
    var holdsCustomNames: Bool {
        guard let names else { return true }
        return names.contains { KnownName($0) == .other }
    }
}
