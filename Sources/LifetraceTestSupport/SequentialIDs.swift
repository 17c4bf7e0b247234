import Synchronization

/// Deterministic ids for tests: `next()` returns `prefix` followed by 1, 2, 3, … Thread-safe.
public final class SequentialIDs: Sendable {
    private let counter = Atomic<Int>(0)
    public let prefix: String

    public init(prefix: String = "id-") {
        self.prefix = prefix
    }

    public func next() -> String {
        "\(prefix)\(counter.add(1, ordering: .relaxed).newValue)"
    }
}
