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

    /// The index of `scene` (0 for `nil`), interning it on first sight.
    func index(of scene: String?) -> UInt32 {
        guard let scene else { return 0 }
        return table.withLock { table in
            if let index = table.indexes[scene] { return index }
            let index = UInt32(table.names.count)
            table.names.append(scene)
            table.indexes[scene] = index
            return index
        }
    }

    /// The scene id interned as `index`, `nil` for 0.
    func name(_ index: UInt32) -> String? {
        guard index != 0 else { return nil }
        return table.withLock { $0.names[Int(index)] }
    }
}
