/// A container operation: a push, a present, an interactive transition's outcome, a tab selection, ….
///
/// See `ContainerOperation` for what `container` and `controllers` mean for each operation.
public struct ContainerEvent: Sendable, Hashable {
    public var operation: ContainerOperation
    public var phase: Phase
    public var container: ControllerRef?
    public var controllers: [ControllerRef]
    /// The `animated` argument where the operation takes one; `nil` when unknown.
    public var animated: Bool?
    /// The `modalPresentationStyle` of the presented controller, for `present`.
    public var style: ModalPresentationStyle?
    /// The selected index, for `selectTab`.
    public var index: Int?

    public init(
        _ operation: ContainerOperation,
        _ phase: Phase = .instant,
        container: ControllerRef?,
        controllers: [ControllerRef],
        animated: Bool? = nil,
        style: ModalPresentationStyle? = nil,
        index: Int? = nil
    ) {
        self.operation = operation
        self.phase = phase
        self.container = container
        self.controllers = controllers
        self.animated = animated
        self.style = style
        self.index = index
    }
}
