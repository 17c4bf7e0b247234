/// What kind of container a controller has shown itself to be, inferred from the operations recorded on it
/// (never from its type name): `push`/`pop` ⇒ navigation, `selectTab` ⇒ tab bar, `setViewControllers`
/// followed by interactive transitions without a push ⇒ stays `unknown`.
public enum ContainerKind: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Never used as a container, or used only in ways that do not tell.
    case unknown = 0
    case navigation = 1
    case tabBar = 2
    case page = 3

    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .navigation: "navigation"
        case .tabBar: "tab_bar"
        case .page: "page"
        }
    }

    public var description: String { name }
}
