/// Something the app's own code did: a save, an edit, a timer started, or any custom mark with fields.
///
/// A mark belongs to a controller when the app says so (or the importer can tell); the replayer attributes it
/// to the callback executing when it happened. See `MarkName` for the standard vocabulary.
public struct MarkEvent: Sendable, Hashable {
    public var name: String
    public var phase: Phase
    public var controller: ControllerRef?
    public var fields: [MarkField]

    public init(_ name: String, _ phase: Phase = .instant, controller: ControllerRef? = nil, fields: [MarkField] = []) {
        self.name = name
        self.phase = phase
        self.controller = controller
        self.fields = fields
    }

    /// The first field called `name`, or `nil`.
    public subscript(field name: String) -> FieldValue? {
        fields.first(where: { $0.name == name })?.value
    }

    /// A `save` of `key`; `critical` marks data the user would lose (a draft), which the critical-save rules judge.
    public static func save(key: String, critical: Bool, controller: ControllerRef?) -> MarkEvent {
        MarkEvent(MarkName.save, controller: controller, fields: [MarkField("key", .string(key)), MarkField("critical", .bool(critical))])
    }

    /// An `edit`: the user changed `key` and the change is not saved yet.
    public static func edit(key: String, controller: ControllerRef?) -> MarkEvent {
        MarkEvent(MarkName.edit, controller: controller, fields: [MarkField("key", .string(key))])
    }

    /// `key` field as a string, used by `save` and `edit`.
    public var key: String? { self[field: "key"]?.stringValue }

    /// Whether a `save` is critical (`critical` field true).
    public var isCritical: Bool { self[field: "critical"]?.boolValue ?? false }
}
