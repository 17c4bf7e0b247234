import TraceModel

/// Turns ring records back into event payloads on the background thread, resolving serials and string ids.
struct RecordDecoder {
    let strings: StringTable
    let registry: ControllerRegistry
    private var stringCache: [String] = []
    private var typeNameCache: [String] = []
    private var refCache: [ControllerRef?] = []

    init(strings: StringTable, registry: ControllerRegistry) {
        self.strings = strings
        self.registry = registry
    }

    mutating func payload(of record: Record) -> EventPayload? {
        guard let kind = Record.Kind(rawValue: record.kind) else { return nil }
        let phase = Phase(rawValue: record.phase) ?? .instant
        let flags = record.flags
        switch kind {
        case .callback:
            guard let callback = Callback(rawValue: record.code) else { return nil }
            var event = CallbackEvent(callback, phase, controller: controller(record.serial))
            if flags & RecordFlag.hasAnimated != 0 { event.animated = flags & RecordFlag.animated != 0 }
            if flags & RecordFlag.hasParent != 0 {
                event.parent = flags & RecordFlag.parentIsController != 0
                    ? .controller(controller(UInt32(truncatingIfNeeded: record.first))) : ParentArgument.none
            }
            if flags & RecordFlag.hasSize != 0 {
                event.size = Size(width: Double(bitPattern: record.first), height: Double(bitPattern: record.second))
            }
            return .callback(event)
        case .container:
            guard let operation = ContainerOperation(rawValue: record.code) else { return nil }
            let count = Int(record.second & 0xFF)
            var controllers: [ControllerRef] = []
            if count >= 1 { controllers.append(controller(UInt32(truncatingIfNeeded: record.first))) }
            if count >= 2 { controllers.append(controller(UInt32(truncatingIfNeeded: record.first >> 32))) }
            var event = ContainerEvent(
                operation, phase, container: record.serial == 0 ? nil : controller(record.serial),
                controllers: controllers)
            if flags & RecordFlag.hasAnimated != 0 { event.animated = flags & RecordFlag.animated != 0 }
            if flags & RecordFlag.hasStyle != 0 {
                event.style = ModalPresentationStyle(rawValue: UInt8(truncatingIfNeeded: record.second >> 8))
            }
            if flags & RecordFlag.hasIndex != 0 {
                event.index = Int(Int32(truncatingIfNeeded: record.second >> 32))
            }
            return .container(event)
        case .app:
            guard let transition = AppTransition(rawValue: record.code) else { return nil }
            return .app(AppEvent(transition, phase, scene: string(record.first)))
        case .swiftUI:
            guard let action = SwiftUIEvent.Action(rawValue: record.code) else { return nil }
            return .swiftUI(
                SwiftUIEvent(action, view: string(record.first) ?? "", host: record.serial == 0 ? nil : controller(record.serial)))
        case .mark:
            guard let standard = StandardMark(rawValue: record.code) else { return nil }
            let owner = record.serial == 0 ? nil : controller(record.serial)
            let fields = standard.fields(
                string: flags & RecordFlag.hasString != 0 ? string(record.first) : nil,
                critical: flags & RecordFlag.critical != 0, first: record.first, second: record.second)
            return .mark(MarkEvent(standard.name, phase, controller: owner, fields: fields))
        case .boxed:
            return BoxedPayload.take(record.first)
        }
    }

    /// The recorded call site of a standard mark (`Recorder.standardMark`): the file (`#fileID`) and line, or `nil`.
    mutating func source(of record: Record) -> EventSource? {
        guard record.kind == Record.Kind.mark.rawValue, record.code != StandardMark.geometryRead.rawValue, record.second != 0,
              let file = string(record.second & 0xFFFF_FFFF)
        else { return nil }
        let line = UInt32(truncatingIfNeeded: record.second >> 32)
        return EventSource(file: file, line: line == 0 ? nil : line)
    }

    private mutating func string(_ id: UInt64) -> String? {
        guard id != 0 else { return nil }
        let index = Int(truncatingIfNeeded: id)
        if index >= stringCache.count {
            strings.copy(from: stringCache.count, into: &stringCache)
        }
        return index < stringCache.count ? stringCache[index] : nil
    }

    private mutating func controller(_ serial: UInt32) -> ControllerRef {
        let index = Int(serial)
        if index < refCache.count, let ref = refCache[index] { return ref }
        if index >= typeNameCache.count {
            registry.copyTypeNames(from: typeNameCache.count, into: &typeNameCache)
        }
        let typeName = index < typeNameCache.count ? typeNameCache[index] : ""
        let ref = ControllerRef(serial: serial, typeName: typeName)
        if index < 1 << 24 {
            while refCache.count <= index { refCache.append(nil) }
            refCache[index] = ref
        }
        return ref
    }
}
