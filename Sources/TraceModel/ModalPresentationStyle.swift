/// The presentation styles whose lifecycle differs, as `UIModalPresentationStyle` spells them.
///
/// Source: Apple's `UIModalPresentationStyle` documentation and docs/LIFECYCLE.md: with `fullScreen` the presenter
/// gets viewWillDisappear/viewDidDisappear; with `pageSheet`, `formSheet` (iOS 13 and later),
/// `overFullScreen`, `overCurrentContext`, `popover` and `custom` the presenter's view stays in the hierarchy
/// and it gets no appearance callbacks on present or dismiss.
public enum ModalPresentationStyle: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case automatic = 0
    case fullScreen = 1
    case pageSheet = 2
    case formSheet = 3
    case currentContext = 4
    case overFullScreen = 5
    case overCurrentContext = 6
    case popover = 7
    case custom = 8

    public var name: String {
        switch self {
        case .automatic: "automatic"
        case .fullScreen: "fullScreen"
        case .pageSheet: "pageSheet"
        case .formSheet: "formSheet"
        case .currentContext: "currentContext"
        case .overFullScreen: "overFullScreen"
        case .overCurrentContext: "overCurrentContext"
        case .popover: "popover"
        case .custom: "custom"
        }
    }

    public var description: String { name }

    public init?(name: String) {
        guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = match
    }

    /// Whether the presenting controller leaves the screen (gets viewWillDisappear and viewDidDisappear) when
    /// a controller is presented with this style. `automatic` resolves to `pageSheet` on iOS 13 and later.
    public var removesPresenterView: Bool {
        switch self {
        case .fullScreen, .currentContext: true
        default: false
        }
    }
}
