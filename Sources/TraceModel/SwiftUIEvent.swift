/// A SwiftUI `onAppear` / `onDisappear` action of a view hosted by a UIHostingController.
///
/// Source: SwiftUI's documentation of `onAppear(perform:)`, and docs/LIFECYCLE.md: these follow the view's
/// membership in the render tree, not its visibility; a sheet over the host gives neither.
public struct SwiftUIEvent: Sendable, Hashable {
    public enum Action: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case onAppear = 0
        case onDisappear = 1

        public var description: String { self == .onAppear ? "onAppear" : "onDisappear" }

        public init?(name: String) {
            switch name {
            case "onAppear": self = .onAppear
            case "onDisappear": self = .onDisappear
            default: return nil
            }
        }
    }

    public var action: Action
    /// The SwiftUI view's name, e.g. `ProfileView`.
    public var view: String
    /// The hosting controller, when known.
    public var host: ControllerRef?

    public init(_ action: Action, view: String, host: ControllerRef? = nil) {
        self.action = action
        self.view = view
        self.host = host
    }
}
