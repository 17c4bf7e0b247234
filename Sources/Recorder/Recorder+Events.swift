import TraceModel

// The generic recording calls: one per event kind, plus `record(_:)` for any payload.
extension Recorder {
    // MARK: Callbacks

    /// Records the start of `callback` on `controller` (the moment UIKit called it, before the app's code runs).
    ///
    /// - Parameters:
    ///   - animated: The `animated` argument for callbacks that take one (`Callback.takesAnimated`).
    ///   - parent: The `parent` argument of `willMove(toParent:)` / `didMove(toParent:)`.
    ///   - size: The size argument of `viewWillTransition(to:with:)`, in points.
    @inlinable
    public func begin(
        _ callback: Callback, _ controller: ControllerRef, animated: Bool? = nil, parent: ParentArgument? = nil,
        size: Size? = nil
    ) {
        record(callback, .begin, controller, animated: animated, parent: parent, size: size)
    }

    /// Records the end of `callback` on `controller` (after the app's code returned). Same arguments as `begin`.
    @inlinable
    public func end(
        _ callback: Callback, _ controller: ControllerRef, animated: Bool? = nil, parent: ParentArgument? = nil,
        size: Size? = nil
    ) {
        record(callback, .end, controller, animated: animated, parent: parent, size: size)
    }

    /// Runs `body` between a `begin` and an `end` of `callback`; the `end` is recorded even if `body` throws.
    @inlinable
    public func withCallback<Result>(
        _ callback: Callback, _ controller: ControllerRef, animated: Bool? = nil, parent: ParentArgument? = nil,
        size: Size? = nil, body: () throws -> Result
    ) rethrows -> Result {
        record(callback, .begin, controller, animated: animated, parent: parent, size: size)
        defer { record(callback, .end, controller, animated: animated, parent: parent, size: size) }
        return try body()
    }

    /// Records one end (or an instant) of a callback interval.
    ///
    /// Inlined into the caller, which then passes only the controller's serial and the packed arguments to the
    /// recorder (no copy of the reference's strings, so no reference counting on the hot path).
    @inlinable
    public func record(
        _ callback: Callback, _ phase: Phase, _ controller: ControllerRef, animated: Bool? = nil,
        parent: ParentArgument? = nil, size: Size? = nil
    ) {
        // Flag bits as in `RecordFlag` (repeated here because this body is inlined into clients).
        var flags: UInt8 = 0
        var first: UInt64 = 0
        var second: UInt64 = 0
        if let animated {
            flags |= 0b1 | (animated ? 0b10 : 0)
        }
        if let parent {
            flags |= 0b100
            if case .controller(let ref) = parent {
                flags |= 0b1000
                first = UInt64(ref.serial)
            }
        } else if let size {
            flags |= 0b1_0000
            first = size.width.bitPattern
            second = size.height.bitPattern
        }
        recordCallback(
            code: callback.rawValue, phase: phase.rawValue, flags: flags, serial: controller.serial, first: first,
            second: second)
    }

    /// The out-of-line part of `record(_:_:_:animated:parent:size:)`.
    @usableFromInline
    func recordCallback(code: UInt8, phase: UInt8, flags: UInt8, serial: UInt32, first: UInt64, second: UInt64) {
        push(Record(kind: .callback, code: code, phase: phase, flags: flags, serial: serial, first: first, second: second))
    }

    // MARK: Containers

    /// Records a container operation (see `ContainerOperation` for what `container` and `controllers` mean).
    /// Up to two controllers take the fast path; more are boxed.
    public func container(
        _ operation: ContainerOperation, _ phase: Phase = .instant, container: ControllerRef?,
        controllers: [ControllerRef], animated: Bool? = nil, style: ModalPresentationStyle? = nil, index: Int? = nil
    ) {
        guard controllers.count <= 2 else {
            pushBoxed(
                .container(
                    ContainerEvent(
                        operation, phase, container: container, controllers: controllers, animated: animated,
                        style: style, index: index)))
            return
        }
        self.container(
            operation, phase, container: container, controllers.first, controllers.count > 1 ? controllers[1] : nil,
            animated: animated, style: style, index: index)
    }

    /// The allocation-free form of `container(_:_:container:controllers:…)` for zero, one or two controllers.
    /// Inlined into the caller, which passes only serials to the recorder.
    @inlinable
    public func container(
        _ operation: ContainerOperation, _ phase: Phase = .instant, container: ControllerRef?,
        _ first: ControllerRef?, _ second: ControllerRef? = nil, animated: Bool? = nil,
        style: ModalPresentationStyle? = nil, index: Int? = nil
    ) {
        if let index, Int(Int32(truncatingIfNeeded: index)) != index {
            var list: [ControllerRef] = []
            if let first { list.append(first) }
            if let second { list.append(second) }
            recordBoxed(
                .container(
                    ContainerEvent(
                        operation, phase, container: container, controllers: list, animated: animated, style: style,
                        index: index)))
            return
        }
        recordContainer(
            code: operation.rawValue, phase: phase.rawValue, container: container?.serial ?? 0,
            first: first?.serial, second: second?.serial, animated: animated, style: style?.rawValue,
            index: index.map { Int32(truncatingIfNeeded: $0) })
    }

    /// The out-of-line part of the two-controller `container(…)`.
    @usableFromInline
    func recordContainer(
        code: UInt8, phase: UInt8, container: UInt32, first: UInt32?, second: UInt32?, animated: Bool?, style: UInt8?,
        index: Int32?
    ) {
        var flags: UInt8 = 0
        if let animated { flags |= RecordFlag.hasAnimated | (animated ? RecordFlag.animated : 0) }
        var serials: UInt64 = 0
        var count: UInt64 = 0
        if let first {
            serials = UInt64(first)
            count = 1
            if let second {
                serials |= UInt64(second) << 32
                count = 2
            }
        } else if let second {
            serials = UInt64(second)
            count = 1
        }
        var details = count
        if let style {
            flags |= RecordFlag.hasStyle
            details |= UInt64(style) << 8
        }
        if let index {
            flags |= RecordFlag.hasIndex
            details |= UInt64(UInt32(bitPattern: index)) << 32
        }
        push(Record(kind: .container, code: code, phase: phase, flags: flags, serial: container, first: serials, second: details))
    }

    /// Records `payload` on the boxed slow path.
    @usableFromInline
    func recordBoxed(_ payload: EventPayload) {
        pushBoxed(payload)
    }

    // MARK: App and scene

    /// Records an app (`scene == nil`) or scene transition, and applies the flush policy:
    /// willResignActive asks for a write; didEnterBackground and willTerminate write and fsync, waiting for it
    /// when `RecorderOptions.syncFlushOnBackground` (the default). The policy acts on `.instant` and `.end`.
    public func app(_ transition: AppTransition, _ phase: Phase = .instant, scene: String? = nil) {
        let sceneID = scene.map { stringID($0) } ?? 0
        push(Record(kind: .app, code: transition.rawValue, phase: phase.rawValue, first: UInt64(sceneID)))
        guard phase != .begin else { return }
        switch transition {
        case .willResignActive:
            requestFlush(sync: false)
        case .didEnterBackground, .willTerminate:
            if options.syncFlushOnBackground {
                try? flush(sync: true)
            } else {
                requestFlush(sync: true)
            }
        default:
            break
        }
    }

    /// Records an app or scene transition like `app(_:_:scene:)`, with the caller choosing its durability instead
    /// of the flush policy: `syncing == true` writes and fsyncs before returning, `false` writes before returning
    /// without an fsync. For an adapter that sees one backgrounding twice (a scene's notification and the
    /// application's) and fsyncs once.
    public func app(_ transition: AppTransition, scene: String?, syncing: Bool) {
        let sceneID = scene.map { stringID($0) } ?? 0
        push(Record(kind: .app, code: transition.rawValue, phase: Phase.instant.rawValue, first: UInt64(sceneID)))
        try? flush(sync: syncing)
    }

    // MARK: SwiftUI

    /// Records a SwiftUI `onAppear` / `onDisappear` of `view` (its type name), hosted by `host` when known.
    public func swiftUI(_ action: SwiftUIEvent.Action, view: String, host: ControllerRef? = nil) {
        let viewID = stringID(view)
        push(Record(kind: .swiftUI, code: action.rawValue, serial: host?.serial ?? 0, first: UInt64(viewID)))
    }

    // MARK: Marks

    /// Records any mark. Standard marks (`MarkName`) with their standard fields take the fast path; others are
    /// boxed (slow path: allocates).
    public func mark(_ event: MarkEvent) {
        if let record = fastRecord(for: event) {
            push(record)
        } else {
            pushBoxed(.mark(event))
        }
    }

    /// Records a custom mark `name` with `fields` (boxed: allocates).
    public func mark(
        _ name: String, _ phase: Phase = .instant, controller: ControllerRef? = nil, fields: [MarkField] = []
    ) {
        mark(MarkEvent(name, phase, controller: controller, fields: fields))
    }

    /// Records a standard mark with its one string field.
    @inline(__always)
    /// Records standard mark `code` (a `StandardMark` raw value) with its one string field; out of line, called
    /// from the inlined typed mark calls with the controller's serial only.
    @usableFromInline
    func standardMark(
        _ code: UInt8, phase: UInt8 = Phase.instant.rawValue, string: String?, critical: Bool = false, serial: UInt32,
        file: String? = nil, line: UInt = 0
    ) {
        var flags: UInt8 = critical ? RecordFlag.critical : 0
        var id: UInt32 = 0
        if let string {
            flags |= RecordFlag.hasString
            id = stringID(string)
        }
        // The call site in `second`: the interned id of `file` (low 32 bits) and `line` (high 32 bits, clamped),
        // read back by `RecordDecoder.source(of:)`.
        let site = file.map { UInt64(stringID($0)) | UInt64(UInt32(clamping: line)) << 32 } ?? 0
        push(Record(kind: .mark, code: code, phase: phase, flags: flags, serial: serial, first: UInt64(id), second: site))
    }

    /// `geometry.read` with the controller's serial.
    @usableFromInline
    func recordGeometry(width: Double, height: Double, serial: UInt32) {
        push(
            Record(
                kind: .mark, code: StandardMark.geometryRead.rawValue, phase: Phase.instant.rawValue, serial: serial,
                first: width.bitPattern, second: height.bitPattern))
    }

    func fastRecord(for event: MarkEvent) -> Record? {
        guard let standard = StandardMark(name: event.name) else { return nil }
        let serial = event.controller?.serial ?? 0
        let fields = event.fields
        switch standard {
        case .geometryRead:
            guard fields.count == 2, fields[0].name == "width", fields[1].name == "height",
                case .double(let width) = fields[0].value, case .double(let height) = fields[1].value
            else { return nil }
            return Record(
                kind: .mark, code: standard.rawValue, phase: event.phase.rawValue, serial: serial,
                first: width.bitPattern, second: height.bitPattern)
        case .save:
            guard fields.count == 2, fields[0].name == "key", fields[1].name == "critical",
                case .string(let key) = fields[0].value, case .bool(let critical) = fields[1].value
            else { return nil }
            return Record(
                kind: .mark, code: standard.rawValue, phase: event.phase.rawValue,
                flags: RecordFlag.hasString | (critical ? RecordFlag.critical : 0), serial: serial,
                first: UInt64(stringID(key)))
        default:
            if fields.isEmpty {
                return Record(kind: .mark, code: standard.rawValue, phase: event.phase.rawValue, serial: serial)
            }
            guard fields.count == 1, fields[0].name == standard.stringField,
                case .string(let value) = fields[0].value
            else { return nil }
            return Record(
                kind: .mark, code: standard.rawValue, phase: event.phase.rawValue, flags: RecordFlag.hasString,
                serial: serial, first: UInt64(stringID(value)))
        }
    }

    // MARK: Anything

    /// Records any payload, taking the fast path where the payload fits a record.
    public func record(_ payload: EventPayload) {
        switch payload {
        case .callback(let event):
            guard event.controller.label == nil, event.parent?.controller?.label == nil,
                event.parent == nil || event.size == nil
            else {
                pushBoxed(payload)
                return
            }
            record(
                event.callback, event.phase, event.controller, animated: event.animated, parent: event.parent,
                size: event.parent == nil ? event.size : nil)
        case .container(let event):
            guard event.container?.label == nil, event.controllers.allSatisfy({ $0.label == nil }) else {
                pushBoxed(payload)
                return
            }
            container(
                event.operation, event.phase, container: event.container, controllers: event.controllers,
                animated: event.animated, style: event.style, index: event.index)
        case .app(let event):
            app(event.transition, event.phase, scene: event.scene)
        case .swiftUI(let event):
            guard event.host?.label == nil else {
                pushBoxed(payload)
                return
            }
            swiftUI(event.action, view: event.view, host: event.host)
        case .mark(let event):
            guard event.controller?.label == nil else {
                pushBoxed(payload)
                return
            }
            mark(event)
        case .recorder, .unknown:
            pushBoxed(payload)
        }
    }

    /// Records a free-form note (`RecorderEvent.note`; boxed).
    public func note(_ text: String) {
        pushBoxed(.recorder(.note(text)))
    }
}
