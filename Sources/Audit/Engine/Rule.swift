/// A rule: its descriptor and a factory for its per-trace monitor.
public struct Rule: Sendable {
    public var descriptor: RuleDescriptor
    private let factory: @Sendable (RuleSettings) -> any RuleMonitor

    public init(_ descriptor: RuleDescriptor, makeMonitor: @escaping @Sendable (RuleSettings) -> any RuleMonitor) {
        self.descriptor = descriptor
        self.factory = makeMonitor
    }

    public var id: String { descriptor.id }

    /// A fresh monitor for one trace.
    public func makeMonitor(_ settings: RuleSettings) -> any RuleMonitor {
        factory(settings)
    }
}
