import TraceLog
import TraceModel

/// A rule's list of mark names (its settings'), matched against a mark record without building the mark: by
/// the record's interned name code (`KnownName`), and by the name's string only for a custom name when the list
/// holds custom names.
struct MarkNames {
    let names: [String]
    /// Bit `n` is set when the list holds the name whose `KnownName` raw value is `n` (below 64).
    private let codes: UInt64
    /// The list holds a name that has no `KnownName` code.
    private let hasCustom: Bool

    init(_ names: [String]) {
        self.names = names
        var codes: UInt64 = 0
        var hasCustom = false
        for name in names {
            let code = KnownName(name)
            if code == .other || code.rawValue >= 64 { hasCustom = true } else { codes |= 1 << UInt64(code.rawValue) }
        }
        self.codes = codes
        self.hasCustom = hasCustom
    }

    /// Whether the mark `record` (kind `.mark`) has one of the names.
    @inline(__always)
    func contains(_ record: EventRecord, _ context: EventContext) -> Bool {
        if record.code < 64, codes & (1 << UInt64(record.code)) != 0 { return true }
        return hasCustom && containsCustom(record, context)
    }

    /// `contains(_:_:)` for a name without a code: the mark's name string compared with `names`.
    @inline(never)
    private func containsCustom(_ record: EventRecord, _ context: EventContext) -> Bool {
        guard let name = context.string(of: record) else { return false }
        return names.contains(name)
    }
}
