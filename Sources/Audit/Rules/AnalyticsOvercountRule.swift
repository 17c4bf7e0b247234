import Replay
import TraceLog
import TraceModel

/// `analytics_overcount`: a controller sends more screen views than it completes appearances.
enum AnalyticsOvercountRule {
    static let id = "analytics_overcount"

    static let rule = Rule(descriptor) { AnalyticsOvercountMonitor(settings: $0) }

    static var descriptor: RuleDescriptor {
        RuleDescriptor(
            id: id,
            summary: "A screen view (analytics.screen) is sent for an appearance that never completes (no viewDidAppear), while the screen is not appearing, or more than once per appearance, typically from a SwiftUI onAppear.",
            defaultSeverity: .warning,
            parameters: [
                RuleParameter(
                    name: "screen_marks", kind: .names, defaultValue: .names([MarkName.analyticsScreen]), unit: "mark names",
                    summary: "Marks that send a screen view; screen views are counted per controller and per the mark's `name` field."
                ),
            ],
            explanation: """
                A screen view means "the user saw this screen", and UIKit's signal for that is viewDidAppear: it \
                comes once per completed appearance, after the transition ends, and never for an appearance that \
                is cancelled (an interactive pop or page scroll that is abandoned gives viewWillAppear, then \
                viewWillDisappear/viewDidDisappear, and no viewDidAppear; DESIGN.md §2). SwiftUI's onAppear has \
                other semantics: it runs before the view's first rendered frame, at a moment that depends on the \
                view type (Apple, "onAppear(perform:)"), following the view's membership in the render tree, not \
                visibility (DESIGN.md §2, "SwiftUI in UIHostingController": "analytics in onAppear over-counts"): \
                the screen revealed by a swipe-back that is then cancelled gets onAppear although it never \
                appeared, and views in lazy containers or with changing identity get it again while the screen \
                stays. The rule counts the screen-view marks (`screen_marks`) of each controller (the mark's \
                controller, else the one whose callback encloses it, else the host of a SwiftUI onAppear recorded \
                just before) against its appearance cycles, from viewWillAppear to the next \
                viewWillDisappear (or deinit): a cycle allows one screen view per `name`, and only if \
                it reaches viewDidAppear; a screen view while the controller is disappearing or disappeared counts \
                for nothing. A screen view sent inside init, loadView, viewDidLoad, viewWillAppear or viewIsAppearing for an \
                appearance that is then cancelled is left to `work_before_visible`, which reports work started \
                there for a screen that does not show. Returning from the background (willEnterForeground) opens a new allowance, since \
                apps commonly re-send the screen view there. One finding per controller type and screen name, at \
                its first extra screen view, with the totals of the trace over every instance of the type.
                """,
            fix: """
                Send screen views from the hosting controller's viewDidAppear (subclass UIHostingController), the \
                point where the screen has really appeared, and keep SwiftUI's onAppear for view-level work such \
                as starting a load with `task`. If the event must come from SwiftUI, deduplicate it against the \
                host's appearances.
                """,
            examples: examples
        )
    }

    static var examples: [RuleExample] {
        let nav = ExampleTrace.controller(1, "UINavigationController")
        let feed = ExampleTrace.controller(2, "FeedHostingController")
        let post = ExampleTrace.controller(3, "PostViewController")
        let view = MarkEvent(MarkName.analyticsScreen, controller: feed, fields: [MarkField("name", .string("feed"))])

        func session(_ trace: inout ExampleTrace, fromOnAppear: Bool) {
            trace.callback(.initialize, feed)
            trace.callback(.viewDidLoad, feed)
            trace.interval(.viewWillAppear, feed) { _ in }
            if fromOnAppear {
                trace.swiftUI(.onAppear, view: "FeedView", host: feed)
                trace.mark(view)
                trace.callback(.viewDidAppear, feed)
            } else {
                trace.interval(.viewDidAppear, feed) { $0.mark(view) }
            }
            trace.push(post, over: feed, navigation: nav)
            if fromOnAppear { trace.swiftUI(.onDisappear, view: "FeedView", host: feed) }
            // A swipe-back that peeks at the feed and is cancelled.
            trace.container(.interactiveTransitionBegin, nav, [post, feed])
            trace.callback(.viewWillDisappear, post)
            trace.interval(.viewWillAppear, feed) { _ in }
            if fromOnAppear {
                trace.swiftUI(.onAppear, view: "FeedView", host: feed)
                trace.mark(view)
            }
            trace.container(.interactiveTransitionCancel, nav, [post, feed])
            trace.callback(.viewWillDisappear, feed)
            trace.callback(.viewDidDisappear, feed)
            if fromOnAppear { trace.swiftUI(.onDisappear, view: "FeedView", host: feed) }
            trace.callback(.viewWillAppear, post)
            trace.callback(.viewDidAppear, post)
        }
        var overcounted = ExampleTrace()
        session(&overcounted, fromOnAppear: true)
        var counted = ExampleTrace()
        session(&counted, fromOnAppear: false)
        return [
            RuleExample(title: "screen view sent from onAppear; a cancelled swipe-back peeks at the feed and sends another", events: overcounted.events, expectedFindings: 1, expectedSeverity: .warning),
            RuleExample(title: "screen view sent from the host's viewDidAppear: the cancelled swipe-back sends none", events: counted.events, expectedFindings: 0),
        ]
    }
}

/// The monitor of `analytics_overcount`.
final class AnalyticsOvercountMonitor: RuleMonitor {
    let interests: EventInterests = [.callbacks, .marks, .swiftUI, .app, .recorder]
    /// viewWillDisappear ends every appearance cycle, completed or cancelled (DESIGN.md §2), so viewWillAppear
    /// and viewDidDisappear are not needed: fewer callbacks to look at.
    let callbackFilter = AnalyticsOvercountMonitor.cycleCallbacks
    /// The callbacks the rule looks at, and only for the controllers it tracks (`trackedSerials`: it returns at
    /// once for the others).
    private static let cycleCallbacks = CallbackSet([.viewDidAppear, .viewWillDisappear, .deinitialize], ends: false)
    /// From batches it reads its callbacks itself (`scanCallbacks(_:_:)`): ≈ 9 400 of every 100 000 events, of
    /// which it passes over most at once by `trackedSerials` (the engine asked that set as a serial filter per
    /// entry, then called the rule for ≈ 3 000; the engine lends it the callbacks before a mark, app or SwiftUI event).
    let scansCallbacks = true
    /// A SwiftUI event only notes the last onAppear (`hasOnAppear`, …), which the callbacks neither read nor change.
    let scanIndependentRecords: EventInterests = .swiftUI
    /// The serials of `tracked`, kept in step with it (a set whose lookup is a multiply, a load and a compare).
    private let trackedSerials = SerialFilter(AnalyticsOvercountMonitor.cycleCallbacks, .members)
    /// Only willEnterForeground (not its end) closes confirmed cycles.
    let appFilter = AppTransitionSet([.willEnterForeground], ends: false)
    /// Callbacks, SwiftUI and app events read nothing of the replayed state (screen marks do: the owner's
    /// appearance and the attribution).
    let stateFreeCallbacks = CallbackSet.all
    let stateFreeRecords: EventInterests = [.swiftUI, .app]

    /// One screen view: where it was sent.
    private struct View {
        /// Its name (the mark's `id`, else `name` field) as the type it was counted in holds it:
        /// `types[type].names[nameIndex]` (plain numbers: a view is copied as its cycle grows, and destroyed at
        /// its cycle's close).
        var type: Int32
        var nameIndex: Int32
        var ordinal: UInt64
        var time: UInt64
        /// The mark's source (boxed: a view is copied as its cycle grows and is counted).
        var source: SourceBox?
        /// `FeedView.onAppear` when a SwiftUI onAppear of the controller came just before, else the enclosing
        /// callback's name.
        var sentFrom: SentFrom?
        /// The UIKit callback of the controller the screen view was attributed to (`CallbackAttribution`), if any.
        var enclosing: Callback?
    }

    /// Where a screen view was sent from: its text is built only for a finding.
    private enum SentFrom {
        /// The enclosing callback (its name is `CallbackAttribution.name(of:)`'s, built only for a finding).
        case callback(CallbackName)
        /// Just after a SwiftUI onAppear of the view named `onAppearNames[index]`.
        case onAppear(Int32)
    }

    /// What `CallbackAttribution.name(of:)` reads of an active callback (plain bytes: a screen view keeps it rather
    /// than the name's string).
    private struct CallbackName {
        var kind: ActiveCallback.Kind
        /// For an app callback: whether it has no scene (the application delegate's method name).
        var sceneless: Bool

        init(_ active: ActiveCallback) {
            kind = active.kind
            if case .app = kind { sceneless = active.scene == nil } else { sceneless = true }
        }

        /// As `CallbackAttribution.name(of:)`.
        var text: String {
            switch kind {
            case .controller(let callback): callback.name
            case .app(let transition): sceneless ? transition.applicationMethodName : transition.sceneMethodName
            }
        }
    }

    /// Why a screen view counted for nothing.
    private enum Extra {
        case cancelled(appearingSince: UInt64, closedBy: RelatedEvent?)
        case notAppearing(String)
        case duplicate
    }

    /// A screen view that counted for nothing, as a finding shows it (a struct, not a tuple: an array of tuples
    /// has its metadata made at run time, and each copy or destroy of an element asked for it).
    private struct Example {
        var view: View
        var why: Extra
        var controller: ControllerRef
    }

    /// A controller's open appearance cycle.
    private struct Tracked {
        var controller: ControllerRef
        /// The position of `controller.typeName` in `types`.
        var type: Int
        /// Screen views of the current cycle, and whether it reached viewDidAppear.
        var cycle: [View] = []
        var confirmed = false
        var cycleStart: UInt64?
        /// The last frame slot (`EventContext.place(ofSlot:)`) seen to name the controller with `controller`'s type
        /// (a frame's controller table entry never changes, so the same place is the same name), if any.
        var seenAt: (frame: UInt64, slot: UInt32)?

        /// The cycle's storage, leaving an empty array without storage.
        mutating func takeCycle() -> [View] {
            var taken: [View] = []
            swap(&taken, &cycle)
            return taken
        }
    }

    /// Screen views of one name by the controllers of one type: how many, how many extra, the first extras.
    private struct NameTotals {
        var views = 0
        var extra = 0
        var first: [Example] = []
    }

    /// The totals of one controller type, over every instance that sent a screen view.
    private struct TypeTotals {
        var name: String
        var instances = 0
        /// viewDidAppear callbacks of those instances since their first screen view.
        var appearances = 0
        /// The screen view names in first-seen order, and their totals (`totals[i]` is of `names[i]`): a type
        /// sends few names, so a scan of `==` beats hashing the name per screen view.
        var names: [String] = []
        var totals: [NameTotals] = []
        /// Where the last screen view counted here read its name (`EventContext.stringFieldPlace`), if in a frame,
        /// and the name's position in `names`.
        var lastNamePlace: (frame: UInt64, slot: UInt32)?
        var lastNameIndex = 0

        /// The position of `name` in `names`.
        func index(of name: String) -> Int? {
            names.firstIndex(of: name)
        }
    }

    /// The callbacks whose cancelled screen views `work_before_visible` reports, as bits by raw value (a
    /// `Set<Callback>` hashed the callback per screen view of a closing cycle).
    private static let beforeVisible: UInt32 = [Callback.initialize, .loadView, .viewDidLoad, .viewWillAppear, .viewIsAppearing]
        .reduce(0) { $0 | 1 << UInt32($1.rawValue) }

    private let severity: Severity
    private let screenMarks: [String]
    var markFilter: MarkFilter { MarkFilter(screenMarks) }
    /// Per mark name code (`KnownName` raw value): 0 when the code has no string (the mark is named by its own
    /// string), 1 when its string is one of `screenMarks`, 2 when not: what `isScreenMark` asks of `screenMarks`
    /// for a known name, answered once per code. Manually allocated, freed at deinit.
    private let screenCodes: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var tracked = SerialMap<Tracked>()
    /// Empty cycle arrays with storage, of entries removed at deinit, for new entries (a new entry's first screen
    /// view allocated its cycle's storage). At most as many as entries were tracked at once.
    @exclusivity(unchecked) private var spareCycles: [[View]] = []
    /// The types in first-seen order (the order findings are reported in; a few, found by a scan of their names).
    @exclusivity(unchecked) private var types: [TypeTotals] = []
    /// The last SwiftUI onAppear, when `hasOnAppear`: its ordinal, host (and the host's serial) and view name
    /// (fields apart, so that a screen view reads the host's serial without copying the host's and the view's names).
    @exclusivity(unchecked) private var hasOnAppear = false
    @exclusivity(unchecked) private var onAppearOrdinal: UInt64 = 0
    @exclusivity(unchecked) private var onAppearHost: ControllerRef?
    @exclusivity(unchecked) private var onAppearHostSerial: UInt32?
    @exclusivity(unchecked) private var onAppearView = ""
    /// `onAppearView`'s position in `onAppearNames`, the onAppear view names seen (a few, interned where read).
    @exclusivity(unchecked) private var onAppearViewIndex: Int32 = 0
    @exclusivity(unchecked) private var onAppearNames: [String] = []
    /// Where `onAppearHost` and `onAppearView` were read (`EventContext.place(ofSlot:)` of the host's slot and of
    /// the view name's string slot), if by a frame's slot.
    @exclusivity(unchecked) private var onAppearHostPlace: (frame: UInt64, slot: UInt32)?
    @exclusivity(unchecked) private var onAppearViewPlace: (frame: UInt64, slot: UInt32)?

    init(settings: RuleSettings) {
        severity = settings.severity
        let screenMarks = settings.names("screen_marks", default: [MarkName.analyticsScreen])
        self.screenMarks = screenMarks
        screenCodes = .allocate(capacity: 256)
        screenCodes.initialize(repeating: 0, count: 256)
        for code in KnownName.allCases {
            guard let string = code.string else { continue }
            screenCodes[Int(code.rawValue)] = screenMarks.contains(string) ? 1 : 2
        }
    }

    deinit {
        screenCodes.deallocate()
    }

    func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        guard record.phase != .end, trackedSerials.contains(record.controller) else { return }
        apply(record.callback, of: record.controller) { why in Self.closer(record, context, why) }
    }

    /// The callback entries of a batch not read yet (viewDidAppear, viewWillDisappear and deinit begins and
    /// instants), as `observe(callback:_:_:)`.
    func scanCallbacks(_ scan: CallbackScan, _ findings: inout [Finding]) {
        let entries = scan.entries
        for position in scan.positions {
            let at = scan.index(at: position)
            let word = entries.word(at: at).raw
            let serial = UInt32(truncatingIfNeeded: word)
            guard trackedSerials.contains(serial) else { continue }
            // A callback entry's code is a valid `Callback` raw value, its case number (`CallbackCodeTests`).
            let callback = unsafeBitCast(UInt8(truncatingIfNeeded: word >> 48), to: Callback.self)
            apply(callback, of: serial) { why in Self.closer(scan.record(at: at), scan.context(at: at), why) }
        }
    }

    /// A viewDidAppear, viewWillDisappear or deinit (begin or instant) of the tracked controller `serial`;
    /// `closer(why)` names the callback for a cycle it ends.
    private func apply(_ callback: Callback, of serial: UInt32, closer: (String) -> RelatedEvent) {
        guard let position = tracked.position(of: serial) else { return }
        switch callback {
        case .viewDidAppear:
            if !tracked[at: position].confirmed {
                types[tracked[at: position].type].appearances += 1
                tracked[at: position].confirmed = true
            }
        case .viewWillDisappear:
            if tracked[at: position].cycle.isEmpty {
                Self.resetEmpty(&tracked[at: position])
            } else {
                close(&tracked[at: position]) { closer(": the appearance ended without viewDidAppear") }
            }
        case .deinitialize:
            if !tracked[at: position].cycle.isEmpty { close(&tracked[at: position]) { closer("") } }
            // The cycle's storage (empty now, kept by `close`) goes to the next new entry.
            if tracked[at: position].cycle.capacity > 0 { spareCycles.append(tracked[at: position].takeCycle()) }
            tracked.remove(at: position)
            trackedSerials.remove(serial)
        default:
            break
        }
    }

    /// The related event naming the end of an unconfirmed cycle (the callback `record`), built only when a screen
    /// view needs it.
    private static func closer(_ record: EventRecord, _ context: EventContext, _ why: String) -> RelatedEvent {
        context.related(record, "\(context.controller(of: record).displayName) \(record.callback.name) at \(context.time(record.timestamp))\(why)")
    }

    /// Reads screen marks from the record (their name code, controller and `id`/`name` field: no `Event` is built
    /// for them), and passes over, without building their `Event`, the SwiftUI events other than onAppear.
    func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        switch record.kind {
        case .swiftUI:
            // As the `Event`'s `SwiftUIEvent` (host and view) says, read from the record.
            guard record.swiftUIAction == .onAppear else { return }
            hasOnAppear = true
            onAppearOrdinal = context.ordinal
            // The host and the view's name are kept from the last onAppear read at the same place (a frame's
            // controller and string tables do not change, so the same slots name the same host and view).
            if record.hasController {
                let place = context.place(ofSlot: record.controllerSlot)
                if place == nil || onAppearHostPlace == nil || place! != onAppearHostPlace! {
                    onAppearHost = context.controller(of: record)
                    onAppearHostPlace = place
                }
            } else {
                onAppearHost = nil
                onAppearHostPlace = nil
            }
            onAppearHostSerial = onAppearHost?.serial
            let viewPlace = record.stringSlot == EventRecord.noString ? nil : context.place(ofSlot: record.stringSlot)
            if viewPlace == nil || onAppearViewPlace == nil || viewPlace! != onAppearViewPlace! {
                onAppearView = context.string(of: record) ?? ""
                onAppearViewIndex = Self.intern(onAppearView, in: &onAppearNames)
                onAppearViewPlace = viewPlace
            }
        case .mark:
            if record.phase != .end, isScreenMark(record, context) { observeScreenView(record, context) }
        case .app:
            guard record.appTransition == .willEnterForeground, record.phase != .end else { return }
            closeConfirmed()
        default:
            context.withEvent(of: record) { observe($0, context, &findings) }
        }
    }

    /// Whether the mark `record` is one of `screen_marks`: by its name code, or by its string for a custom name.
    @inline(__always)
    private func isScreenMark(_ record: EventRecord, _ context: EventContext) -> Bool {
        if let code = record.markName {
            let known = screenCodes[Int(code.rawValue)]
            if known != 0 { return known == 1 }
        }
        guard let name = context.string(of: record) else { return false }
        return screenMarks.contains(name)
    }

    /// One screen view, the mark `record`: counted in its owner's appearance cycle.
    private func observeScreenView(_ record: EventRecord, _ context: EventContext) {
        let attribution = context.attribution
        // The owner as `MarkOwner.of(_:_:)` finds it, from the record: its serial, and its `ControllerRef` (`ownerRef`)
        // only where the rule keeps or compares its name. `place`: where the record names it.
        let ownerSerial: UInt32
        var ownerRef: ControllerRef?
        var place: (frame: UInt64, slot: UInt32)?
        if record.hasController {
            ownerSerial = record.controller
            place = context.place(ofSlot: record.controllerSlot)
        } else if let controller = attribution.enclosing(of: nil)?.controller {
            ownerSerial = controller.serial
            ownerRef = controller
        } else if hasOnAppear, onAppearOrdinal + 1 == context.ordinal, let host = onAppearHost {
            ownerSerial = host.serial
            ownerRef = host
        } else {
            return
        }
        // Two fields of the owner's record, read in place (`context.state[owner]` copied the whole record).
        let (appearance, appearanceSince) = context.state.controllers.appearance(of: ownerSerial) ?? (.unknown, nil)
        if appearance == .unknown { return }
        // The callback the screen view was sent in (`CallbackAttribution.enclosing(of:)` for the owner), without
        // building its `ControllerRef`.
        var sentFrom: SentFrom?
        var enclosing: Callback?
        var inAppearing = true
        if let active = attribution.enclosingActive(ofSerial: ownerSerial) {
            sentFrom = .callback(CallbackName(active))
            if case .controller(let callback) = active.kind {
                enclosing = callback
                inAppearing = callback == .viewWillAppear || callback == .viewIsAppearing || callback == .viewDidLayoutSubviews
            } else {
                inAppearing = false
            }
        }
        if hasOnAppear, onAppearHostSerial == ownerSerial, inAppearing {
            sentFrom = .onAppear(onAppearViewIndex)
        }
        // Where the identifier's string is in the frame (see below).
        let namePlace = context.stringFieldPlace(.id, otherwise: .name, of: record)
        // The entry is changed in place (copying it out and back copied its cycle's array on append).
        let position: Int
        let type: Int
        if let found = tracked.position(of: ownerSerial) {
            position = found
            // The owner's type: the tracked entry's, unless the owner is named with another type here (one serial under
            // two names), then looked up by name as for a new entry. The same place as last time is the same name.
            if let place, let seen = tracked[at: found].seenAt, seen.frame == place.frame, seen.slot == place.slot {
                type = tracked[at: found].type
            } else {
                let owner = ownerRef ?? context.controller(of: record)
                if owner.typeName == tracked[at: found].controller.typeName {
                    type = tracked[at: found].type
                    if let place { tracked[at: found].seenAt = place }
                } else {
                    type = typePosition(of: owner.typeName)
                }
            }
        } else {
            let owner = ownerRef ?? context.controller(of: record)
            position = tracked.insertAbsent(ownerSerial, start(owner, appearance: appearance, at: record.timestamp, seenAt: place))
            trackedSerials.insert(ownerSerial)
            type = tracked[at: position].type
        }
        // The identifier as `MarkOwner.identifier(_:)` reads it: the `id` field, else the `name` field; not read when
        // it is at the place (frame and string slot) the type's last screen view read it at (the same string).
        let nameIndex: Int
        if let namePlace, let last = types[type].lastNamePlace, last.frame == namePlace.frame, last.slot == namePlace.slot {
            nameIndex = types[type].lastNameIndex
            types[type].totals[nameIndex].views += 1
        } else {
            let name = (context.field(.id, of: record) ?? context.field(.name, of: record))?.description ?? ""
            nameIndex = Self.countView(name, in: &types[type])
            types[type].lastNamePlace = namePlace
            types[type].lastNameIndex = nameIndex
        }
        let view = View(
            type: Int32(truncatingIfNeeded: type), nameIndex: Int32(truncatingIfNeeded: nameIndex), ordinal: context.ordinal, time: record.timestamp,
            source: context.hasSource ? context.source.map(SourceBox.init) : nil, sentFrom: sentFrom, enclosing: enclosing)
        switch appearance {
        case .appearing, .appeared:
            if tracked[at: position].cycle.isEmpty, appearance == .appearing { tracked[at: position].cycleStart = appearanceSince ?? record.timestamp }
            tracked[at: position].cycle.append(view)
        case .disappearing, .disappeared, .unknown:
            count(view, .notAppearing(appearance.name), in: &tracked[at: position])
        }
    }

    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {
        switch event.payload {
        case .recorder(.runStarted) where context.ordinal > 0:
            closeAll()
        default:
            break
        }
    }

    func finish(_ end: TraceEnd, _ findings: inout [Finding]) {
        closeAll()
        for type in types.indices { report(type, end.time, &findings) }
    }

    /// Closes every tracked cycle (by serial) and forgets the entries.
    private func closeAll() {
        for serial in tracked.keys.sorted() {
            close(&tracked[serial]!) { nil }
            trackedSerials.remove(serial)
        }
        tracked.removeAll()
    }

    /// willEnterForeground: the confirmed cycles close (and stay confirmed).
    private func closeConfirmed() {
        for position in 0..<tracked.count where tracked[at: position].confirmed {
            close(&tracked[at: position]) { nil }
            tracked[at: position].confirmed = true
        }
    }

    /// Counts a screen view named `name` in `type`; its position in `type.names`.
    private static func countView(_ name: String, in type: inout TypeTotals) -> Int {
        if let index = type.index(of: name) {
            type.totals[index].views += 1
            return index
        }
        type.names.append(name)
        type.totals.append(NameTotals(views: 1))
        return type.names.count - 1
    }

    /// The position of `string` in `strings`, appended if it is not there.
    private static func intern(_ string: String, in strings: inout [String]) -> Int32 {
        if let index = strings.firstIndex(of: string) { return Int32(truncatingIfNeeded: index) }
        strings.append(string)
        return Int32(truncatingIfNeeded: strings.count - 1)
    }

    /// The name of `view`.
    private func name(of view: View) -> String {
        types[Int(view.type)].names[Int(view.nameIndex)]
    }

    /// Whether two views have the same name (names are unique within a type).
    private func sameName(_ a: View, _ b: View) -> Bool {
        a.type == b.type ? a.nameIndex == b.nameIndex : name(of: a) == name(of: b)
    }

    /// E.g. `viewDidAppear`, `FeedView.onAppear`.
    private func text(_ sentFrom: SentFrom) -> String {
        switch sentFrom {
        case .callback(let name): name.text
        case .onAppear(let index): "\(onAppearNames[Int(index)]).onAppear"
        }
    }

    /// What `close` does to an entry whose cycle is empty.
    @inline(__always)
    private static func resetEmpty(_ entry: inout Tracked) {
        entry.confirmed = false
        entry.cycleStart = nil
    }

    /// The position of the type named `name` in `types`, added (with no instance) if it is not there.
    private func typePosition(of name: String) -> Int {
        for index in types.indices where types[index].name == name { return index }
        types.append(TypeTotals(name: name))
        return types.count - 1
    }

    /// Starts tracking `controller` at its first screen view, in the middle of its current cycle; `seenAt`: where the
    /// screen view named it.
    private func start(_ controller: ControllerRef, appearance: Appearance, at time: UInt64, seenAt: (frame: UInt64, slot: UInt32)?) -> Tracked {
        let type = typePosition(of: controller.typeName)
        var entry = Tracked(controller: controller, type: type)
        if let spare = spareCycles.popLast() { entry.cycle = spare }
        entry.confirmed = appearance == .appeared
        entry.cycleStart = time
        entry.seenAt = seenAt
        types[type].instances += 1
        if appearance == .appeared { types[type].appearances += 1 }
        return entry
    }

    /// Ends the current appearance cycle: one screen view per name counts if it reached viewDidAppear. `closer`
    /// makes the related event naming what ended an unconfirmed cycle (`nil`: none), called per view counted.
    private func close(_ entry: inout Tracked, by closer: () -> RelatedEvent?) {
        guard !entry.cycle.isEmpty else {
            Self.resetEmpty(&entry)
            return
        }
        // The names seen in this cycle so far: views before `index` (a cycle holds few views).
        for index in entry.cycle.indices {
            if !entry.confirmed {
                // `work_before_visible` reports work (a screen view included) started in these callbacks for an
                // appearance that does not complete; it is not reported twice.
                if let callback = entry.cycle[index].enclosing, Self.beforeVisible & 1 << UInt32(callback.rawValue) != 0 { continue }
                let view = entry.cycle[index]
                let since = entry.cycleStart ?? view.time
                count(view, .cancelled(appearingSince: since, closedBy: closer()), in: &entry)
            } else if index > 0, entry.cycle[..<index].contains(where: { sameName($0, entry.cycle[index]) }) {
                count(entry.cycle[index], .duplicate, in: &entry)
            }
        }
        // The cycle's storage is kept for the next one (few views each; freed with the entry at deinit); one view,
        // the common case, goes by `removeLast` (`removeAll(keepingCapacity:)` replaces a range).
        if entry.cycle.count == 1 {
            entry.cycle.removeLast()
        } else {
            entry.cycle.removeAll(keepingCapacity: true)
        }
        entry.confirmed = false
        entry.cycleStart = nil
    }

    /// Counts `view` as extra; `why` (which may build a related event's text) is made only for the first three.
    private func count(_ view: View, _ why: @autoclosure () -> Extra, in entry: inout Tracked) {
        let type = entry.type
        // The view's own name position when it was counted in the entry's type (names are unique within a type).
        let index = Int(view.type) == type ? Int(view.nameIndex) : types[type].index(of: name(of: view))!
        types[type].totals[index].extra += 1
        if types[type].totals[index].first.count < 3 { types[type].totals[index].first.append(Example(view: view, why: why(), controller: entry.controller)) }
    }

    private func report(_ position: Int, _ clock: (UInt64) -> String, _ findings: inout [Finding]) {
        let type = types[position]
        let typeName = type.name
        for index in type.names.indices {
            let name = type.names[index]
            let total = type.totals[index]
            guard total.extra > 0, let first = total.first.first else { continue }
            let several = type.instances > 1
            let who = several ? "\(typeName) (\(type.instances) instances)" : first.controller.displayName
            let label = name.isEmpty ? "screen view" : "screen view '\(name)'"
            var message = "\(who) sent \(label) \(total.views) time\(total.views == 1 ? "" : "s") but completed \(type.appearances) appearance\(type.appearances == 1 ? "" : "s") (viewDidAppear); \(total.extra) counted for no completed appearance: "
            // The examples joined by "; " (a loop: `joined(separator:)` on the mapped array made generic metadata
            // at run time, ≈ 260 000 instructions at the first finding).
            for (number, example) in total.first.enumerated() {
                if number > 0 { message += "; " }
                let view = example.view
                let place = (several ? " in \(example.controller.displayName)" : "") + (view.sentFrom.map { " from \(text($0))" } ?? "")
                switch example.why {
                case .cancelled(let since, _): message += "at \(clock(view.time))\(place), in an appearance begun at \(clock(since)) and cancelled (viewWillDisappear, no viewDidAppear)"
                case .notAppearing(let state): message += "at \(clock(view.time))\(place), while \(example.controller.displayName) was \(state)"
                case .duplicate: message += "at \(clock(view.time))\(place), a second time in the same appearance"
                }
            }
            message += (total.extra > total.first.count ? "; …" : "") + "."
            var related: [RelatedEvent] = []
            for (number, example) in total.first.enumerated() {
                if number > 0 {
                    related.append(RelatedEvent(ordinal: example.view.ordinal, timestamp: example.view.time, message: "\(label) at \(clock(example.view.time))\(example.view.sentFrom.map { " from \(text($0))" } ?? "")", source: example.view.source?.source))
                }
                if case .cancelled(_, let closer?) = example.why { related.append(closer) }
            }
            findings.append(Finding(
                ruleID: AnalyticsOvercountRule.id, severity: severity, controller: first.controller.displayName,
                timestamp: first.view.time, ordinal: first.view.ordinal, callback: first.view.sentFrom.map(text),
                message: message, related: related, source: first.view.source?.source
            ))
        }
    }
}
