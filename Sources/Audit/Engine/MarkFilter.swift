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

    /// The filter without the names that have a `KnownName` code: what it says of a mark whose name has none
    /// (`KnownName.other`), with fewer strings to compare.
    var customNamesOnly: MarkFilter {
        guard let names else { return self }
        return MarkFilter(names.filter { KnownName($0) == .other })
    }

    /// The filter's names interned once: what `contains(known:)` and `holdsCustomNames` say, for every code.
    var knownCodes: KnownCodes {
        var codes = KnownCodes()
        guard let names else {
            codes.bits = (.max, .max, .max, .max)
            codes.holdsCustomNames = true
            return codes
        }
        for name in names {
            let code = KnownName(name)
            if code == .other { codes.holdsCustomNames = true } else { codes.insert(code) }
        }
        return codes
    }

    /// A set of `KnownName` codes (bits by raw value) and whether custom names are held (`knownCodes`).
    struct KnownCodes {
        var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var holdsCustomNames = false

        mutating func insert(_ code: KnownName) {
            let bit = UInt64(1) << UInt64(code.rawValue & 63)
            switch code.rawValue >> 6 {
            case 0: bits.0 |= bit
            case 1: bits.1 |= bit
            case 2: bits.2 |= bit
            default: bits.3 |= bit
            }
        }

        /// Whether `code` is held (`KnownName.other` never is: such names are compared as strings).
        func contains(_ code: KnownName) -> Bool {
            if code == .other { return false }
            let word = switch code.rawValue >> 6 {
            case 0: bits.0
            case 1: bits.1
            case 2: bits.2
            default: bits.3
            }
            return word >> UInt64(code.rawValue & 63) & 1 != 0
        }
    }
}
