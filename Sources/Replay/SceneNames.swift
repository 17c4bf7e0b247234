import Synchronization

/// Scene ids interned process-wide, so that an `ActiveCallback` holds a scene as a number and stays trivially
/// copyable. Index 0 is "no scene". Grows with the number of distinct scene ids ever seen (a handful per app).
final class SceneNames: Sendable {
    static let shared = SceneNames()

    private struct Table {
        var names: [String] = [""]
        var indexes: [String: UInt32] = [:]
    }

    private let table = Mutex(Table())

    /// Up to this many names (the empty name at 0 included), `index(of:)` searches `names`; beyond, `indexes`.
    private static let linearLimit = 16

    /// The index of `scene` (0 for `nil`), interning it on first sight.
    func index(of scene: String?) -> UInt32 {
        guard let scene else { return 0 }
        return table.withLock { table in
            // A handful of scenes is searched in the array: a dictionary's first insertion alone cost ≈ 380 000
            // instructions (its metadata instantiated at run time), more than a whole replay's scene lookups.
            if table.names.count <= Self.linearLimit {
                for index in 1..<table.names.count where table.names[index] == scene { return UInt32(index) }
            } else if let index = table.indexes[scene] {
                return index
            }
            let index = UInt32(table.names.count)
            table.names.append(scene)
            if table.names.count > Self.linearLimit {
                if table.indexes.isEmpty {
                    for position in 1..<table.names.count { table.indexes[table.names[position]] = UInt32(position) }
                } else {
                    table.indexes[scene] = index
                }
            }
            return index
        }
    }

    /// The scene id interned as `index`, `nil` for 0.
    func name(_ index: UInt32) -> String? {
        guard index != 0 else { return nil }
        return table.withLock { $0.names[Int(index)] }
    }
}
