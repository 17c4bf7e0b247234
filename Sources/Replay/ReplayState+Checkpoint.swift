import TraceModel

/// The checkpoint encoding of a `ReplayState` (version 6; version 5 is read too, earlier versions are refused and the trace replays from an older checkpoint or the start).
///
/// Version 6 keeps only the first `retainedDiagnosticLimit` diagnostics in full and adds, after the dropped-event
/// count, the count of every kind of diagnostic (an array of varints, empty before the first) and the latest
/// diagnostic (optional). A version 5 payload's diagnostics are counted from its list.
///
/// Version 5 writes an `ActiveCallback`'s controller as its serial (varint) instead of a whole controller
/// reference, as the state now holds it; a version 4 payload is refused (`unsupportedVersion`).
///
/// Version 4 added `ControllerState.processEndTime`/`processEndOrdinal` and the end of a process at a later
/// `runStarted`. A version 3 checkpoint could be read cheaply but is not used: one written after a second run
/// began holds the old fold's state (the previous run's controllers still alive), which the events after it
/// would not correct, so replaying from the start is the only correct choice.
///
/// Layout: magic `LTCK`, varint version, string table (varint count, then varint length + UTF-8 bytes for each),
/// then the body, in which every string is a varint index into the table. Integers are LEB128 varints (signed
/// ones zig-zag), booleans and enum raw values one byte, optionals a 0/1 byte then the value, arrays a varint
/// count then the items. Dictionaries are written sorted by key so that equal states give equal bytes.
/// A reader refuses a newer version (`CheckpointError.unsupportedVersion`); the trace is then replayed from an
/// older checkpoint or the start, which is always correct.
extension ReplayState {
    static let checkpointMagic: [UInt8] = Array("LTCK".utf8)
    /// The encoding version this build writes and the newest it reads.
    public static let checkpointVersion: UInt64 = 6
    /// The oldest encoding version this build reads (see the type's documentation for why not older).
    public static let oldestReadableCheckpointVersion: UInt64 = 5

    /// The state as a self-contained checkpoint payload (see the type's documentation for the layout).
    public func checkpointPayload() -> [UInt8] {
        var w = CheckpointWriter()
        w.optional(time) { $0.varint($1) }
        w.optional(startTime) { $0.varint($1) }
        w.varint(eventCount)
        w.optional(lastOrdinal) { $0.varint($1) }
        w.byte(app.rawValue)
        w.array(scenes.keys.sorted()) { w, key in
            w.string(key)
            w.byte(scenes[key]!.rawValue)
        }
        w.array(appCallbacks) { $0.callback($1) }
        w.optional(lastAppCallback) { $0.callback($1) }
        w.array(executing) { $0.callback($1) }
        w.optional(lastCallback) { $0.callback($1) }
        w.optional(windowRoot) { $0.varint($1) }
        w.array(controllers.keys.sorted()) { w, serial in w.controller(controllers[serial]!) }
        w.array(retainedDead) { $0.varint($1) }
        w.array(deadSerials.ranges) { w, range in
            w.varint(range.lowerBound)
            w.varint(range.upperBound - range.lowerBound)
        }
        w.array(transitions) { w, transition in
            w.byte(transition.kind.rawValue)
            w.optional(transition.container) { $0.varint($1) }
            w.varint(transition.from)
            w.optional(transition.to) { $0.varint($1) }
            w.varint(transition.since)
            w.varint(transition.ordinal)
            w.bool(transition.popRequested)
        }
        w.array(appResources) { $0.resource($1) }
        w.array(appUnsaved) { $0.unsaved($1) }
        w.array(unhostedSwiftUIViews) { $0.swiftUIView($1) }
        w.array(diagnostics) { $0.diagnostic($1) }
        w.varint(droppedEvents)
        w.array(diagnosticCounts) { $0.varint($1) }
        w.optional(latestDiagnostic) { $0.diagnostic($1) }
        return w.finish(magic: Self.checkpointMagic, version: Self.checkpointVersion)
    }

    /// Decodes a payload written by `checkpointPayload()`.
    ///
    /// - Throws: `CheckpointError` `.badMagic`, `.unsupportedVersion` (newer than `checkpointVersion`), or
    ///   `.malformed` with the payload offset (cut short, a value out of range, bytes left over). Never traps on
    ///   any input.
    public init(checkpointPayload payload: [UInt8]) throws {
        var r = CheckpointReader(bytes: payload)
        let version = try r.header(magic: Self.checkpointMagic, maximumVersion: Self.checkpointVersion)
        guard version >= Self.oldestReadableCheckpointVersion else {
            throw CheckpointError(
                .unsupportedVersion,
                "checkpoint encoding version \(version) predates callbacks holding controller serials (version 5); this build reads \(Self.oldestReadableCheckpointVersion)…\(Self.checkpointVersion)",
                offset: Self.checkpointMagic.count
            )
        }
        self.init()
        time = try r.optional { try $0.varint() }
        startTime = try r.optional { try $0.varint() }
        eventCount = try r.varint()
        lastOrdinal = try r.optional { try $0.varint() }
        app = try r.enumeration(RunState.self)
        for _ in 0..<(try r.count()) {
            let key = try r.string()
            scenes[key] = try r.enumeration(RunState.self)
        }
        appCallbacks = try r.array { try $0.callback() }
        lastAppCallback = try r.optional { try $0.callback() }
        executing = try r.array { try $0.callback() }
        lastCallback = try r.optional { try $0.callback() }
        windowRoot = try r.optional { try $0.uint32() }
        let count = try r.count()
        controllers.reserveCapacity(count)
        for _ in 0..<count {
            let controller = try r.controller()
            guard controllers[controller.ref.serial] == nil else { throw r.fail("controller \(controller.ref.serial) twice") }
            controllers[controller.ref.serial] = controller
        }
        retainedDead = try r.array { try $0.uint32() }
        let ranges = try r.array { r -> ClosedRange<UInt32> in
            let lower = try r.uint32()
            let (upper, overflow) = lower.addingReportingOverflow(try r.uint32())
            guard !overflow else { throw r.fail("serial range overflows") }
            return lower...upper
        }
        guard let dead = SerialSet(validating: ranges) else { throw r.fail("dead serial ranges out of order") }
        deadSerials = dead
        transitions = try r.array { r in
            let kind = try r.enumeration(InFlightTransition.Kind.self)
            let container = try r.optional { try $0.uint32() }
            let from = try r.uint32()
            let to = try r.optional { try $0.uint32() }
            let since = try r.varint()
            let ordinal = try r.varint()
            let popRequested = try r.bool()
            return InFlightTransition(kind: kind, container: container, from: from, to: to, since: since, ordinal: ordinal, popRequested: popRequested)
        }
        appResources = try r.array { try $0.resource() }
        appUnsaved = try r.array { try $0.unsaved() }
        unhostedSwiftUIViews = try r.array { try $0.swiftUIView() }
        diagnostics = try r.array { try $0.diagnostic() }
        droppedEvents = try r.varint()
        if version >= 6 {
            diagnosticCounts = try r.array { try $0.varint() }
            guard diagnosticCounts.isEmpty || diagnosticCounts.count == Diagnostic.Kind.allCases.count else {
                throw r.fail("\(diagnosticCounts.count) diagnostic counts for \(Diagnostic.Kind.allCases.count) kinds")
            }
            latestDiagnostic = try r.optional { try $0.diagnostic() }
        } else {
            // Version 5 kept every diagnostic: count them from the list.
            for diagnostic in diagnostics {
                if diagnosticCounts.isEmpty { diagnosticCounts = [UInt64](repeating: 0, count: Diagnostic.Kind.allCases.count) }
                diagnosticCounts[Int(diagnostic.kind.rawValue)] += 1
            }
            latestDiagnostic = diagnostics.last
            if diagnostics.count > Self.retainedDiagnosticLimit { diagnostics.removeLast(diagnostics.count - Self.retainedDiagnosticLimit) }
        }
        guard diagnostics.count <= Self.retainedDiagnosticLimit else {
            throw r.fail("\(diagnostics.count) diagnostics kept in full, more than \(Self.retainedDiagnosticLimit)")
        }
        for kind in Diagnostic.Kind.allCases {
            let kept = UInt64(diagnostics.lazy.filter { $0.kind == kind }.count)
            guard kept <= (diagnosticCounts.isEmpty ? 0 : diagnosticCounts[Int(kind.rawValue)]) else {
                throw r.fail("\(kept) \(kind.name) diagnostics kept in full but fewer counted")
            }
        }
        guard r.isAtEnd else { throw r.fail("\(payload.count - r.position) bytes left over") }
    }
}

extension CheckpointWriter {
    mutating func diagnostic(_ diagnostic: Diagnostic) {
        byte(diagnostic.kind.rawValue)
        varint(diagnostic.ordinal)
        varint(diagnostic.time)
        optional(diagnostic.controller) { $0.ref($1) }
        string(diagnostic.message)
    }

    mutating func ref(_ ref: ControllerRef) {
        varint(ref.serial)
        string(ref.typeName)
        optional(ref.label) { $0.string($1) }
    }

    mutating func callback(_ callback: ActiveCallback) {
        switch callback.kind {
        case .controller(let name):
            byte(0)
            byte(name.rawValue)
        case .app(let transition):
            byte(1)
            byte(transition.rawValue)
        }
        optional(callback.controllerSerial) { $0.varint($1) }
        optional(callback.scene) { $0.string($1) }
        varint(callback.since)
        varint(callback.ordinal)
        bool(callback.isInstant)
    }

    mutating func parent(_ parent: ParentLink) {
        switch parent {
        case .unknown: byte(0)
        case .none: byte(1)
        case .window: byte(2)
        case .controller(let serial):
            byte(3)
            varint(serial)
        }
    }

    mutating func resource(_ resource: LiveResource) {
        byte(resource.kind.rawValue)
        string(resource.id)
        varint(resource.since)
        varint(resource.ordinal)
        optional(resource.startedIn) { $0.callback($1) }
    }

    mutating func unsaved(_ edit: UnsavedEdit) {
        string(edit.key)
        varint(edit.firstEdit)
        varint(edit.firstOrdinal)
        varint(edit.lastEdit)
        varint(edit.lastOrdinal)
        varint(edit.count)
    }

    mutating func swiftUIView(_ view: SwiftUIViewState) {
        string(view.view)
        bool(view.isInRenderTree)
        varint(view.appearCount)
    }

    mutating func controller(_ c: ControllerState) {
        ref(c.ref)
        varint(c.firstSeen)
        varint(c.firstOrdinal)
        bool(c.isCreatedInTrace)
        bool(c.isStructureKnown)
        bool(c.isViewLoaded)
        varint(c.viewDidLoadCount)
        byte(c.appearance.rawValue)
        optional(c.appearanceSince) { $0.varint($1) }
        array(c.callbacks) { $0.callback($1) }
        parent(c.parent)
        array(c.children) { $0.varint($1) }
        optional(c.presentingController) { $0.varint($1) }
        optional(c.presentedController) { $0.varint($1) }
        optional(c.presentationStyle) { $0.byte($1.rawValue) }
        byte(c.containerKind.rawValue)
        optional(c.viewControllers) { w, list in w.array(list) { $0.varint($1) } }
        bool(c.isViewControllerListComplete)
        optional(c.selectedController) { $0.varint($1) }
        optional(c.selectedIndex) { $0.int($1) }
        optional(c.viewAttachedTo) { $0.varint($1) }
        array(c.resources) { $0.resource($1) }
        array(c.unsaved) { $0.unsaved($1) }
        array(c.swiftUIViews) { $0.swiftUIView($1) }
        optional(c.removal) { w, removal in
            w.byte(removal.kind.rawValue)
            w.varint(removal.time)
            w.varint(removal.ordinal)
        }
        optional(c.deinitTime) { $0.varint($1) }
        optional(c.deinitOrdinal) { $0.varint($1) }
        optional(c.processEndTime) { $0.varint($1) }
        optional(c.processEndOrdinal) { $0.varint($1) }
    }
}

extension CheckpointReader {
    mutating func diagnostic() throws -> Diagnostic {
        let kind = try enumeration(Diagnostic.Kind.self)
        let ordinal = try varint()
        let time = try varint()
        let controller = try optional { try $0.ref() }
        let message = try string()
        return Diagnostic(kind: kind, ordinal: ordinal, time: time, controller: controller, message: message)
    }

    mutating func ref() throws -> ControllerRef {
        let serial = try uint32()
        let typeName = try string()
        let label = try optional { try $0.string() }
        return ControllerRef(serial: serial, typeName: typeName, label: label)
    }

    mutating func callback() throws -> ActiveCallback {
        let kind: ActiveCallback.Kind
        switch try byte() {
        case 0: kind = .controller(try enumeration(Callback.self))
        case 1: kind = .app(try enumeration(AppTransition.self))
        case let other: throw fail("bad callback kind \(other)")
        }
        let controller = try optional { try $0.uint32() }
        let scene = try optional { try $0.string() }
        let since = try varint()
        let ordinal = try varint()
        let isInstant = try bool()
        return ActiveCallback(kind: kind, controllerSerial: controller, scene: scene, since: since, ordinal: ordinal, isInstant: isInstant)
    }

    mutating func parent() throws -> ParentLink {
        switch try byte() {
        case 0: return .unknown
        case 1: return .none
        case 2: return .window
        case 3: return .controller(try uint32())
        case let other: throw fail("bad parent tag \(other)")
        }
    }

    mutating func resource() throws -> LiveResource {
        let kind = try enumeration(LiveResource.Kind.self)
        let id = try string()
        let since = try varint()
        let ordinal = try varint()
        let startedIn = try optional { try $0.callback() }
        return LiveResource(kind: kind, id: id, since: since, ordinal: ordinal, startedIn: startedIn)
    }

    mutating func unsaved() throws -> UnsavedEdit {
        UnsavedEdit(
            key: try string(), firstEdit: try varint(), firstOrdinal: try varint(), lastEdit: try varint(),
            lastOrdinal: try varint(), count: try varint()
        )
    }

    mutating func swiftUIView() throws -> SwiftUIViewState {
        SwiftUIViewState(view: try string(), isInRenderTree: try bool(), appearCount: try varint())
    }

    mutating func controller() throws -> ControllerState {
        var c = ControllerState(ref: try ref(), firstSeen: try varint(), ordinal: try varint())
        c.isCreatedInTrace = try bool()
        c.isStructureKnown = try bool()
        c.isViewLoaded = try bool()
        c.viewDidLoadCount = try uint32()
        c.appearance = try enumeration(Appearance.self)
        c.appearanceSince = try optional { try $0.varint() }
        c.callbacks = try array { try $0.callback() }
        c.parent = try parent()
        c.children = try array { try $0.uint32() }
        c.presentingController = try optional { try $0.uint32() }
        c.presentedController = try optional { try $0.uint32() }
        c.presentationStyle = try optional { try $0.enumeration(ModalPresentationStyle.self) }
        c.containerKind = try enumeration(ContainerKind.self)
        c.viewControllers = try optional { r in try r.array { try $0.uint32() } }
        c.isViewControllerListComplete = try bool()
        c.selectedController = try optional { try $0.uint32() }
        c.selectedIndex = try optional { try $0.int() }
        c.viewAttachedTo = try optional { try $0.uint32() }
        c.resources = try array { try $0.resource() }
        c.unsaved = try array { try $0.unsaved() }
        c.swiftUIViews = try array { try $0.swiftUIView() }
        c.removal = try optional { r in
            Removal(kind: try r.enumeration(Removal.Kind.self), time: try r.varint(), ordinal: try r.varint())
        }
        c.deinitTime = try optional { try $0.varint() }
        c.deinitOrdinal = try optional { try $0.varint() }
        c.processEndTime = try optional { try $0.varint() }
        c.processEndOrdinal = try optional { try $0.varint() }
        return c
    }
}
