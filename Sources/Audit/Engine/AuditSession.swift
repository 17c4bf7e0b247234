import Replay
import TraceLog
import TraceModel

/// One audit of one trace: feed it every event in order, then `finish()`.
///
/// Events are dispatched through tables: callbacks per callback and end-or-not (a `CallbackSet` bit) to the
/// monitors whose `RuleMonitor.callbackFilter` holds it, plus the monitors whose `callbackDemand` asks for it now; container
/// events per operation (`containerFilter`), app events per transition and phase (`appFilter`, widened by
/// `CallbackDemand.app`), marks per interned name (`markFilter`). An event no monitor wants costs the replay's
/// fold and a table lookup. Monitors get callbacks as `EventRecord`s (`RuleMonitor.observe(callback:_:_:)`) and
/// container, app, SwiftUI and mark events as records too (`observe(record:_:_:)`), whether the session is fed
/// records (`observeRest(of:batch:)`, `observe(_:from:)`) or `Event`s (`observe(_:ordinal:)`, which turns the
/// event into the same record), so both paths find the same; an `Event` is built from a record only when a
/// monitor asks for it (`EventContext.event(of:)`), once per event.
///
/// From batches (`observeRest(of:batch:)`) the monitors are called as the loop scans the batch, before the events
/// are folded into the state; the fold catches up, up to and including the event being observed, only when a
/// monitor reads the state (`EventContext.state`, `attribution`, `enclosingCallback(of:)`), so the events between
/// two such reads are folded in one call of the replayer's fast paths. Each monitor still sees its events in trace
/// order, and sees the state after the event wherever it reads it (`BatchDispatchAgreementTests`).
///
/// Streaming: memory is bounded by what the monitors keep per live controller, not by the number of events.
/// Not `Sendable`: use one session on one thread.
public final class AuditSession {
    /// The callback monitors by `CallbackSet` bit (the callback's raw value, plus 16 for an `end`).
    private let callbackTable: DispatchTable
    /// `callbackTable` without the callbacks monitors scan (`RuleMonitor.scannedCallbacks`): what the batch loop
    /// dispatches by (`dispatchEntry`).
    private let batchCallbackTable: DispatchTable
    /// The callbacks some monitor of `batchCallbackTable` holds, by `CallbackSet` bit.
    private let batchWatchedCallbacks: UInt32
    /// The monitors that scan some of their callbacks from the batches (`scanCallbacks(_:_:)`), by scanner index
    /// (`MonitorBox.scanner`). Manually allocated, as `demandTargets`.
    private let scanners: UnsafeMutableBufferPointer<MonitorRef>
    /// Per scanner (same index): its list of the batch's entries of its scanned (callback, phase) pairs, by index
    /// in the batch, in order, and how much of it the scanner has been lent (`flushScanner(_:)`). Manually allocated.
    private let scanLists: UnsafeMutablePointer<ScanList>
    /// Per (callback, phase) pair (`pairIndex(_:)`, 64 entries): the scanners that scan it, as bits by scanner
    /// index (at most `maxScanners`).
    private let scanMasks: UnsafeMutablePointer<UInt32>
    /// The (callback, phase) pairs some scanner scans (`scanMasks` not 0): part of `watchedPairs`.
    private let scanPairs: UInt64
    /// How many entries each scanner's list holds room for (grown per batch as needed).
    @exclusivity(unchecked) private var scanCapacity = 0
    /// For the callback entry being dispatched: how many of `filteredTargets` the batch loop asked
    /// (`passesFilters(_:)`), and which of those let it through, as bits by index (`dispatchFiltered` asks the others).
    @exclusivity(unchecked) private var filtersAsked = 0
    /// How many of `filteredTargets` `passesFilters(_:)` asks (the first 64; `passedFilters` has a bit for each).
    private let askedFilters: Int
    @exclusivity(unchecked) private var passedFilters: UInt64 = 0
    /// The monitors with a `callbackDemand`: called for the callbacks (and app events) its demand holds and the
    /// fixed filter does not. Manually allocated, as `DispatchTable`'s storage (no reference counting per read).
    private let demandTargets: UnsafeMutableBufferPointer<DemandRef>
    /// Per demand target (same index): the callbacks its demand adds to its fixed filter, as `CallbackSet` bits, as
    /// `readDemands()` last read them (what `dispatchDemands` tests: one load per target).
    private let demandWanted: UnsafeMutablePointer<UInt32>
    /// The monitors' serial filters (`RuleMonitor.serialFilters`): a monitor is called for the callbacks one
    /// filters when the entry's serial passes it or its demand asks for the callback. Manually allocated, as
    /// `demandTargets`.
    private let filteredTargets: UnsafeMutableBufferPointer<FilteredRef>
    /// The callbacks some serial filter filters, by `CallbackSet` bit, and as (callback, phase) pairs
    /// (`pairs(_:)`, part of `watchedPairs`).
    private let filteredCallbacks: UInt32
    private let filteredPairs: UInt64
    private let containerTable: DispatchTable
    private let appTable: DispatchTable
    /// The mark monitors by the interned code of the mark's name (`KnownName` raw value; `markFilter`), and
    /// those that may want a name that has no code (`KnownName.other`), with their filters.
    private let markTable: DispatchTable
    private let customMarkTargets: [(target: MonitorRef, filter: MarkFilter)]
    private let swiftUITable: DispatchTable
    private let recorderTable: DispatchTable
    /// The monitors, in registry order (the tables hold unmanaged references to these boxes).
    private let boxes: [MonitorBox]
    /// The callbacks some monitor's fixed filter holds, by `CallbackSet` bit.
    private let watchedCallbacks: UInt32
    /// Per mark name code, whether some monitor may want the mark (1) or none does (0): what the batch loop tests.
    private let markActions: UnsafeMutablePointer<UInt8>
    /// What the demands add now, as `CallbackSet` and `AppTransitionSet` bits (re-read after a call of a monitor
    /// changed a demand: `demandChanged`).
    @exclusivity(unchecked) private var demandedCallbacks: UInt32 = 0
    @exclusivity(unchecked) private var demandedApp: UInt32 = 0
    /// `demandedCallbacks | filteredCallbacks`: the callbacks some monitor may get beyond the callback table.
    @exclusivity(unchecked) private var extraCallbacks: UInt32 = 0
    /// The callbacks watched now (`watchedCallbacks` and the demands, and those a serial filter decides on) as a
    /// mask of (callback, phase) pairs, bit `code & 0xF | phase << 4` (`pairIndex(_:)`): what the batch loop tests
    /// per callback entry, reading only the entry's word.
    @exclusivity(unchecked) private var watchedPairs: UInt64 = 0
    /// Per (callback, phase) pair of `watchedPairs` (64 bytes): bit 0 if it is dispatched whatever the entry's
    /// serial (`batchWatchedCallbacks` and the demands); bit 1 if scanners list it (`scanMasks`), and bits 4–7 its
    /// scanner's index + 1 when it has one only (`list(_:pair:how:)`); bit 2 if serial filters decide whether it is
    /// dispatched (`passesFilters(_:)`), bit 3 if it is a quiet end (`quietEndPairs`). A byte read
    /// only for a watched entry (a second mask tested in the loop cost every entry two instructions: the compiler
    /// computed its bit before the first test).
    private let dispatchedPairs: UnsafeMutablePointer<UInt8>
    /// The callbacks (`CallbackSet` end bits) that every monitor of `batchCallbackTable` holding them declares quiet
    /// (`RuleMonitor.quietEnds`): the batch loop dispatches such an end by the table only when it is not the event
    /// right after its own begin (`isEndRightAfterBegin(_:_:)`; bit 3 of `dispatchedPairs`).
    private let quietEndCallbacks: UInt32
    /// `quietEndCallbacks` as (callback, phase) pairs (part of `watchedPairs`).
    private let quietEndPairs: UInt64
    /// Per byte value `b`: its bits spread to bit 0 of eight bytes (bit `i` of `b` at bit `8 i`), what `readDemands()`
    /// writes into eight pairs' bytes at once. Manually allocated.
    private let spreadBits: UnsafeMutablePointer<UInt64> = {
        let table = UnsafeMutablePointer<UInt64>.allocate(capacity: 256)
        for value in 0..<256 {
            var spread: UInt64 = 0
            for bit in 0..<8 where value >> bit & 1 != 0 { spread |= 1 << UInt64(bit * 8) }
            (table + value).initialize(to: spread)
        }
        return table
    }()
    /// `dispatchedPairs` as a mask (what `readDemands()` last wrote there).
    @exclusivity(unchecked) private var dispatchedMask: UInt64 = 0
    /// Set by a `CallbackDemand` of this session's monitors when its sets change (`CallbackDemand.changed`).
    private let demandChanged: UnsafeMutablePointer<Bool>
    /// A callback record whose fields `record(of:ordinal:)` fills in (copying it costs less than `EventRecord`'s
    /// initializers, which are not inlined across modules).
    private let callbackTemplate = EventRecord(timestamp: 0, ordinal: 0, callback: .initialize, phase: .instant, animated: nil, controller: 0, controllerSlot: 0)
    /// While the batch loop runs: the timestamp of the event before the batch (`nil` before the first event of the
    /// trace), what `EventContext.previousTimestamp` is for the batch's first entry.
    @exclusivity(unchecked) private var batchPrevious: UInt64?
    /// What `fill(_:word:codes:entries:at:ordinal:)` writes per callback entry, by (callback, flags) bits
    /// (`makeEntryCodes()`; manually allocated, freed with the session).
    private let entryCodes = AuditSession.makeEntryCodes()
    /// The `ContainerOperation` raw values below 32, as bits (what `containerKey(_:)` tests instead of calling the
    /// enum's failable initializer, which is not inlined).
    private let validContainerCodes: UInt32 = (0..<32).reduce(0) { ContainerOperation(rawValue: UInt8($1)) != nil ? $0 | 1 << UInt32($1) : $0 }
    /// The replayed state (the `Replay` fold) after the last event observed, and the event being observed.
    let replay = ReplayBox()
    @exclusivity(unchecked) private var findings: [Finding] = []
    @exclusivity(unchecked) private var eventCount: UInt64 = 0
    @exclusivity(unchecked) private var firstTimestamp: UInt64 = 0
    @exclusivity(unchecked) private var lastTimestamp: UInt64 = 0

    init(monitors: [any RuleMonitor]) {
        let boxes = monitors.map(MonitorBox.init)
        self.boxes = boxes
        let callbackMonitors = boxes.filter { $0.monitor.interests.contains(.callbacks) }
        // The scanners first: every `MonitorRef` made after this carries its monitor's scanner index.
        let scanning = Array(callbackMonitors.filter { !Self.scanned($0).isEmpty }.prefix(Self.maxScanners))
        for (index, box) in scanning.enumerated() { box.scanner = Int32(index) }
        // A monitor's callbacks by its fixed filter, less those its serial filter filters.
        callbackTable = DispatchTable(keys: 32, boxes: callbackMonitors, wantsBox: { box, key in
            Self.unfiltered(box).rawValue & (1 << UInt32(key)) != 0
        })
        batchCallbackTable = DispatchTable(keys: 32, boxes: callbackMonitors, wantsBox: { box, key in
            Self.unfiltered(box).subtracting(box.scanner >= 0 ? Self.scanned(box) : []).rawValue & (1 << UInt32(key)) != 0
        })
        scanners = .allocate(capacity: scanning.count)
        _ = scanners.initialize(from: scanning.map { MonitorRef($0) })
        scanLists = .allocate(capacity: max(1, scanning.count))
        scanLists.initialize(repeating: ScanList(), count: max(1, scanning.count))
        scanMasks = .allocate(capacity: 64)
        scanMasks.initialize(repeating: 0, count: 64)
        for (index, box) in scanning.enumerated() {
            let pairs = Self.pairs(Self.scanned(box).rawValue)
            for pair in 0..<64 where pairs >> UInt64(pair) & 1 != 0 { scanMasks[pair] |= 1 << UInt32(index) }
        }
        scanPairs = scanning.reduce(0) { $0 | Self.pairs(Self.scanned($1).rawValue) }
        let demands = boxes.compactMap { box -> DemandRef? in
            let monitor = box.monitor
            guard let demand = box.demand else { return nil }
            return DemandRef(
                target: MonitorRef(box), filter: monitor.interests.contains(.callbacks) ? monitor.callbackFilter : .all,
                appFilter: monitor.interests.contains(.app) ? monitor.appFilter : .all, demand: .passUnretained(demand))
        }
        demandTargets = .allocate(capacity: demands.count)
        _ = demandTargets.initialize(from: demands)
        demandWanted = .allocate(capacity: max(1, demands.count))
        demandWanted.initialize(repeating: 0, count: max(1, demands.count))
        var filtered: [FilteredRef] = []
        for box in callbackMonitors {
            // A monitor's filters, each narrowed to its callbacks not taken by an earlier one.
            var left = box.monitor.callbackFilter
            for filter in box.serialFilters {
                let callbacks = filter.callbacks.intersection(left)
                left.subtract(callbacks)
                if callbacks.isEmpty { continue }
                filtered.append(FilteredRef(
                    target: MonitorRef(box), callbacks: callbacks.rawValue, filter: .passUnretained(filter), demand: box.demand.map { .passUnretained($0) }))
            }
        }
        filteredTargets = .allocate(capacity: filtered.count)
        _ = filteredTargets.initialize(from: filtered)
        askedFilters = min(filtered.count, 64)
        filteredCallbacks = filtered.reduce(0) { $0 | $1.callbacks }
        filteredPairs = Self.pairs(filteredCallbacks)
        containerTable = DispatchTable(keys: Self.containerKeys, boxes.filter { $0.monitor.interests.contains(.containers) }, kind: .containers) { monitor, key in
            monitor.containerFilter.contains(code: UInt8(key))
        }
        appTable = DispatchTable(keys: Self.appKeys, boxes.filter { $0.monitor.interests.contains(.app) }, kind: .app) { monitor, key in
            monitor.appFilter.contains(code: UInt8(key & 0xF), key & 16 != 0 ? .end : .begin)
        }
        let markMonitors = boxes.filter { $0.monitor.interests.contains(.marks) }
        // Each filter read and its names interned once (asked per name code, it interned every name 256 times).
        let markFilters = markMonitors.map { $0.monitor.markFilter }
        let markCodes = markFilters.map(\.knownCodes)
        markTable = DispatchTable(keys: 256, markMonitors, kind: .marks, wantsAt: { index, key in
            guard let code = KnownName(rawValue: UInt8(key)), code != .other else { return false }
            return markCodes[index].contains(code)
        })
        customMarkTargets = markMonitors.indices.compactMap { index in
            markCodes[index].holdsCustomNames
                ? (MonitorRef(markMonitors[index], lends: !markMonitors[index].scanIndependentRecords.contains(.marks)), markFilters[index].customNamesOnly) : nil
        }
        swiftUITable = DispatchTable(keys: 1, boxes.filter { $0.monitor.interests.contains(.swiftUI) }, kind: .swiftUI, wantsAt: { _, _ in true })
        recorderTable = DispatchTable(keys: 1, boxes.filter { $0.monitor.interests.contains(.recorder) }, kind: .recorder, wantsAt: { _, _ in true })
        var watched: UInt32 = 0
        for key in 0..<32 where !callbackTable.isEmpty(key) { watched |= 1 << UInt32(key) }
        watchedCallbacks = watched
        var batchWatched: UInt32 = 0
        for key in 0..<32 where !batchCallbackTable.isEmpty(key) { batchWatched |= 1 << UInt32(key) }
        batchWatchedCallbacks = batchWatched
        // The end bits every dispatched (not scanning) monitor that holds them declares quiet.
        var quiet = batchWatched & 0xFFFF_0000
        for box in callbackMonitors {
            let dispatched = Self.unfiltered(box).subtracting(box.scanner >= 0 ? Self.scanned(box) : [])
            quiet &= ~(dispatched.rawValue & ~box.monitor.quietEnds.rawValue)
        }
        quietEndCallbacks = quiet
        quietEndPairs = Self.pairs(quiet)
        markActions = .allocate(capacity: 256)
        for code in 0..<256 { markActions[code] = markTable.isEmpty(code) ? 0 : 1 }
        if !customMarkTargets.isEmpty { markActions[Int(KnownName.other.rawValue)] = 1 }
        demandChanged = .allocate(capacity: 1)
        demandChanged.initialize(to: false)
        dispatchedPairs = .allocate(capacity: 64)
        // Bit 0 (dispatched whatever the serial) is `readDemands()`'s; bit 1: scanners list it; bit 2: serial filters;
        // bit 3: quiet ends (dispatched unless right after their begin: `quietEndPairs`; a test of that mask in the
        // loop computed its bit before the first test, for every entry); bits 4–7: the pair's scanner's index + 1
        // when it has exactly one (below 15), else 0.
        for pair in 0..<64 {
            let bit = UInt64(1) << UInt64(pair)
            let mask = scanMasks[pair]
            let single = mask.nonzeroBitCount == 1 && mask.trailingZeroBitCount < 15 ? UInt8(mask.trailingZeroBitCount + 1) << 4 : 0
            (dispatchedPairs + pair).initialize(
                to: (scanPairs & bit != 0 ? 2 : 0) | (filteredPairs & bit != 0 ? 4 : 0) | (quietEndPairs & bit != 0 ? 8 : 0) | single)
        }
        for box in boxes { box.demand?.changed = demandChanged }
        readDemands()
    }

    deinit {
        callbackTable.deallocate()
        batchCallbackTable.deallocate()
        for index in 0..<max(1, scanners.count) { scanLists[index].indexes?.deallocate() }
        scanners.deallocate()
        scanLists.deallocate()
        scanMasks.deallocate()
        containerTable.deallocate()
        appTable.deallocate()
        markTable.deallocate()
        swiftUITable.deallocate()
        recorderTable.deallocate()
        demandTargets.deallocate()
        demandWanted.deallocate()
        filteredTargets.deallocate()
        markActions.deallocate()
        for box in boxes where box.demand?.changed == demandChanged { box.demand?.changed = nil }
        demandChanged.deallocate()
        dispatchedPairs.deallocate()
        spreadBits.deallocate()
        entryCodes.deallocate()
    }

    /// What the batch loop does with a record entry: nothing (no monitor looks at it), dispatch it
    /// (`dispatchOther`), or hand its `Event` to `observe(_:ordinal:)` (a record of kind `.other`).
    private enum RecordAction {
        case skip
        case dispatch
        case event
    }

    /// The callbacks `monitor` wants for every controller: its fixed filter less what its serial filter filters.
    private static func unfiltered(_ box: MonitorBox) -> CallbackSet {
        box.serialFilters.reduce(box.monitor.callbackFilter) { $0.subtracting($1.callbacks) }
    }

    /// The callbacks `box`'s monitor scans from the batches: its `RuleMonitor.scannedCallbacks` within its
    /// `callbackFilter`, less those its serial filters filter; honoured only without a demand (the batch loop reads
    /// the demands at each entry, and a scan that would change one comes later). A scanner's serial filter is asked
    /// after the scanner read the callbacks listed before the entry (`passesFilters(_:)`).
    private static func scanned(_ box: MonitorBox) -> CallbackSet {
        guard box.demand == nil, box.monitor.interests.contains(.callbacks) else { return [] }
        return box.serialFilters.reduce(box.monitor.scannedCallbacks.intersection(box.monitor.callbackFilter)) { $0.subtracting($1.callbacks) }
    }

    /// The most monitors that scan (`scanMasks` holds them as bits); any more are called per callback.
    static let maxScanners = 32

    /// Lends each scanner the entries of its list it has not been lent yet (at the end of a batch, whose indexes the
    /// lists hold, and before an event fed as an `Event` is dispatched to any monitor; outside the batch loop the
    /// lists are read).
    @inline(never)
    private func flushScanners() {
        for index in scanners.indices where scanLists[index].read < scanLists[index].count { flushScanner(index) }
    }

    /// Lends scanner `index` the entries of its list it has not been lent yet, if any: called before the engine
    /// calls the scanner for anything else (`prepare(_:)`), so it reads its callbacks in trace order.
    @inline(never)
    private func flushScanner(_ index: Int) {
        let list = scanLists[index]
        guard list.read < list.count, let pending = replay.pending, let indexes = list.indexes else { return }
        scanLists[index].read = list.count
        let scan = CallbackScan(
            entries: pending.pointee.entries, firstOrdinal: pending.pointee.first, indexes: indexes + list.read, count: list.count &- list.read,
            traceStart: firstTimestamp, batchPrevious: batchPrevious, replay: replay)
        // Never while an event fed as an `Event` is dispatched (`flushScanners()` runs before one): the scanned
        // entries' names and strings come from the frame's cursor.
        // A scanner has no demand: nothing to re-read after it.
        scanners[index].scanCallbacks(scan, &findings)
    }

    /// Before a call of `target`: if it scans, lends it the entries it has not read (`flushScanner(_:)`).
    @inline(__always)
    private func prepare(_ target: MonitorRef) {
        if target.scanner >= 0, scanLists[Int(target.scanner)].read < scanLists[Int(target.scanner)].count { flushScanner(Int(target.scanner)) }
    }

    /// Lists the callback entry at `index` of the batch for each scanner of its (callback, phase) pair `pair`
    /// (`how`: the pair's `dispatchedPairs` byte, whose bits 4–7 name its one scanner, when it has one).
    @inline(__always)
    private func list(_ index: Int, pair: UInt64, how: UInt8) {
        let value = UInt32(truncatingIfNeeded: index)
        let single = Int(how >> 4)
        if single != 0 {
            let count = scanLists[single &- 1].count
            scanLists[single &- 1].indexes.unsafelyUnwrapped[count] = value
            scanLists[single &- 1].count = count &+ 1
            return
        }
        var mask = scanMasks[Int(pair)]
        repeat {
            let scanner = mask.trailingZeroBitCount
            let count = scanLists[scanner].count
            scanLists[scanner].indexes.unsafelyUnwrapped[count] = value
            scanLists[scanner].count = count &+ 1
            mask &= mask &- 1
        } while mask != 0
    }

    /// Keys of the container table: operation raw values.
    private static let containerKeys = 32
    /// Keys of the app table: transition raw value, plus 16 for an `end`.
    private static let appKeys = 32

    /// The callback table's key (a `CallbackSet` bit) of a callback code and phase code.
    @inline(__always)
    private static func callbackKey(_ callbackCode: UInt8, _ phaseCode: UInt8) -> Int {
        Int(callbackCode & 0xF) &+ (phaseCode == Phase.end.rawValue ? 16 : 0)
    }

    /// The container table's key of a record's `code` (an unknown code stands for `setRoot`, as the `Event` built
    /// from the record says).
    @inline(__always)
    private func containerKey(_ code: UInt8) -> Int {
        code < 32 && validContainerCodes >> UInt32(code) & 1 != 0 ? Int(code) : 0
    }

    /// The app table's key of a record's `code` and phase (an unknown code stands for `didFinishLaunching`).
    @inline(__always)
    private static func appKey(_ code: UInt8, _ phase: Phase) -> Int {
        (AppTransition(rawValue: code) != nil ? Int(code & 0xF) : 0) | (phase == .end ? 16 : 0)
    }

    /// Re-reads the monitors' demands if one changed since the last read (after any call of a monitor, which may
    /// have changed its own).
    @inline(__always)
    private func updateDemands() {
        if demandChanged.pointee { readDemands() }
    }

    /// Reads the monitors' demands into `demandedCallbacks`, `demandedApp` and `watchedPairs`.
    @inline(never)
    private func readDemands() {
        demandChanged.pointee = false
        var callbacks: UInt32 = 0
        var app: UInt32 = 0
        for index in demandTargets.indices {
            let target = demandTargets[index]
            let wanted = target.extra.rawValue & ~target.filter.rawValue
            demandWanted[index] = wanted
            callbacks |= wanted
            app |= target.app.rawValue
        }
        demandedCallbacks = callbacks
        demandedApp = app
        extraCallbacks = callbacks | filteredCallbacks
        // What the batch loop dispatches (the scanning monitors read their callbacks themselves).
        let dispatched = Self.pairs(batchWatchedCallbacks & ~quietEndCallbacks | callbacks)
        // Only the words of eight pairs where a pair changed (a demand changes a few callbacks, thousands of times a
        // trace), bit 0 of their eight bytes at once (`spreadBits`; the bytes of a word are pairs in ascending order
        // on a little-endian machine). Byte by byte it cost ≈ 11 instructions per changed pair.
        var changed = dispatched ^ dispatchedMask
        let bytes = UnsafeMutableRawPointer(dispatchedPairs)
        while changed != 0 {
            let shift = UInt64(changed.trailingZeroBitCount & ~7)
            // Pairs `shift ..< shift + 8` are bytes `shift ..< shift + 8`.
            let word = bytes + Int(shift)
            let bits = spreadBits[Int(truncatingIfNeeded: dispatched >> shift) & 0xFF]
            word.storeBytes(of: word.loadUnaligned(as: UInt64.self) & ~0x0101_0101_0101_0101 | bits, as: UInt64.self)
            changed &= ~(0xFF << shift)
        }
        dispatchedMask = dispatched
        watchedPairs = dispatched | filteredPairs | scanPairs | quietEndPairs
    }

    /// The bit of a callback entry's (callback, phase) pair in `watchedPairs`: `code & 0xF | phase << 4`, from the
    /// word's callback code (bits 48–55) and phase (bits 56–57).
    @inline(__always)
    private static func pairIndex(_ word: RecordBatch.Word) -> UInt64 {
        (word.raw >> 48) & 0xF | (word.raw >> 52) & 0x30
    }

    /// A `CallbackSet` raw value as a mask of (callback, phase) pairs, bit `code & 0xF | phase << 4`: a begin
    /// (phase 0) or instant (phase 2) of callback `c` is `CallbackSet` bit `c`, an end (phase 1) bit `c + 16`.
    @inline(__always)
    private static func pairs(_ callbacks: UInt32) -> UInt64 {
        // Written out for the three phases (a loop over `Phase.allCases` built that array on every demand change).
        let starts = UInt64(callbacks & 0xFFFF)
        let ends = UInt64(callbacks >> 16)
        return starts << (UInt64(Phase.begin.rawValue) << 4) | ends << (UInt64(Phase.end.rawValue) << 4)
            | starts << (UInt64(Phase.instant.rawValue) << 4)
    }

    /// Feeds the event with ordinal `ordinal` (0-based, consecutive) to every interested monitor.
    public func observe(_ event: Event, ordinal: UInt64) {
        let previousTimestamp = advance(to: event.timestamp)
        replay.state.apply(event, ordinal: ordinal)
        switch event.payload {
        case .callback(let callback):
            let record = Self.record(of: callback, at: event.timestamp, ordinal: ordinal)
            let key = Self.callbackKey(record.callback.rawValue, record.phase.rawValue)
            guard isWatched(key) else { return }
            // From a batch: the scanners read the callbacks listed before it first (and before `isEvent` is set, so
            // that their entries' names come from the frame).
            if scanners.count > 0 { flushScanners() }
            replay.event = EventBox(event)
            replay.isEvent = true
            dispatch(record, key, previousTimestamp)
            replay.isEvent = false
            replay.event = nil
        case .container, .app, .swiftUI, .mark:
            guard let record = EventRecord(auditing: event, ordinal: ordinal) else { return }
            if scanners.count > 0 { flushScanners() }
            replay.event = EventBox(event)
            replay.isEvent = true
            dispatchOther(record, previousTimestamp)
            replay.isEvent = false
            replay.event = nil
        case .recorder:
            if recorderTable.isEmpty(0) { return }
            if scanners.count > 0 { flushScanners() }
            let context = EventContext(ordinal: ordinal, traceStart: firstTimestamp, previousTimestamp: previousTimestamp, replay: replay)
            for position in recorderTable.positions(0) {
                recorderTable[position].observe(event, context, &findings)
            }
            updateDemands()
        case .unknown:
            return
        }
    }

    /// Feeds one event decoded by a `FrameCursor` (the record `cursor.next()` just returned): the same as
    /// `observe(_:ordinal:)` with the record's ordinal, but the event is folded from the record and handed to the
    /// monitors as the record; an `Event` is built only if a monitor asks for one.
    public func observe(_ record: EventRecord, from cursor: FrameCursor) {
        withUnsafePointer(to: cursor) { cursor in
            observe(record, from: cursor)
        }
    }

    /// `observe(_:from:)` with the cursor reached through a pointer (valid for the call).
    private func observe(_ record: EventRecord, from cursor: UnsafePointer<FrameCursor>) {
        if record.kind == .other {
            observe(cursor.event(of: record), ordinal: record.ordinal)
            return
        }
        let previousTimestamp = advance(to: record.timestamp)
        replay.state.apply(record, from: cursor)
        let saved = replay.cursor
        replay.cursor = cursor
        defer { replay.cursor = saved }
        if record.kind == .callback {
            let key = Self.callbackKey(record.callback.rawValue, record.phase.rawValue)
            guard isWatched(key) else { return }
            dispatch(record, key, previousTimestamp)
        } else {
            dispatchOther(record, previousTimestamp)
            replay.event = nil
        }
    }

    /// Feeds every event `cursor`'s frame has left, decoded a run at a time into `batch`
    /// (`FrameCursor.decode(into:limit:)`, the replay's columnar fast path; reuse one batch from frame to frame):
    /// the same as `observe(_:from:)` for each record, and `observe(_:ordinal:)` for an event that has no record.
    ///
    /// The loop scans the batch and calls the monitors that look at an event (by the masks of what each kind's
    /// table holds, and the demands) as it reaches it, before folding it: the fold of the events since the last
    /// one folded catches up only when a monitor reads the replayed state (`EventContext.state`, `attribution`,
    /// `enclosingCallback(of:)`; `ReplayBox.catchUp()`), up to and including the event being observed, by
    /// `ReplayState.fold(_:_:end:first:records:events:from:sceneIndexes:)` (the replayer's fast paths). So every
    /// monitor sees its events in trace order and the state after the event wherever it reads it, and a run of
    /// events no monitor reads the state at is folded in one call, however many monitors looked at its records.
    ///
    /// - Returns: The number of events observed.
    /// - Throws: What decoding the frame throws (`TraceError`); the events before the bad one are observed.
    @discardableResult
    public func observeRest(of cursor: inout FrameCursor, batch: inout RecordBatch) throws -> UInt64 {
        try withUnsafeMutablePointer(to: &cursor) { cursor in
            let pointer = UnsafePointer(cursor)
            let saved = replay.cursor
            replay.cursor = pointer
            defer { replay.cursor = saved }
            var observed: UInt64 = 0
            var sceneIndexes: [UInt32] = []
            while true {
                cursor.pointee.decode(into: &batch, limit: 1024)
                let first = batch.firstOrdinal
                let count = batch.count
                // Held once per batch (each read through `batch` retained and released its buffer).
                let records = batch.records
                let events = batch.events
                records.withUnsafeBufferPointer { recordBuffer in
                    batch.withEntries { entries in
                        withUnsafeMutablePointer(to: &sceneIndexes) { sceneIndexes in
                            let inputs = PendingFold.Inputs(
                                entries: entries, first: first, records: records, events: events, cursor: pointer, sceneIndexes: sceneIndexes)
                            var pending = PendingFold(inputs)
                            withExtendedLifetime(inputs) {
                                withUnsafeMutablePointer(to: &pending) { pending in
                                    observeEntries(pending, recordBase: recordBuffer.baseAddress)
                                }
                            }
                        }
                    }
                }
                observed &+= UInt64(count)
                if let error = batch.error { throw error }
                if batch.isFinished { return observed }
            }
        }
    }

    /// The batch loop of `observeRest(of:batch:)`: dispatches each entry some monitor looks at as it reaches it,
    /// with `pending` (the entries not folded yet) lent to the replay box so that a monitor reading the state
    /// folds up to the entry first; folds what is left at the end. An event without a record form (`.other`) is
    /// folded and dispatched by `observe(_:ordinal:)`, after the fold caught up to it.
    ///
    /// - Parameter recordBase: The batch's records' storage (`nil` when empty).
    private func observeEntries(_ pending: UnsafeMutablePointer<PendingFold>, recordBase: UnsafePointer<EventRecord>?) {
        let entries = pending.pointee.entries
        let count = entries.count
        if count == 0 { return }
        let startCount = eventCount
        if startCount == 0 { firstTimestamp = entries.timestamp(at: 0) }
        // The timestamp of the event before the batch (`nil` before the first event of the trace).
        batchPrevious = startCount == 0 ? nil : lastTimestamp
        if scanners.count > 0 { startScanLists(count) }
        pending.pointee.recordBase = recordBase
        replay.pending = pending
        defer { replay.pending = nil }
        // The record lent for a callback entry (`dispatchEntry(_:_:_:)` fills its fields per entry).
        var record = callbackTemplate
        // The (callback, phase) pairs watched now (re-read after each dispatch: demands change).
        var watched = watchedPairs
        var index = 0
        while index < count {
            let word = entries.word(at: index)
            index &+= 1
            if !word.isRecord {
                let pair = Self.pairIndex(word)
                if watched >> pair & 1 == 0 { continue }
                let how = dispatchedPairs[Int(pair)]
                if how != 1 {
                    // Listed for the scanners of the pair.
                    if how & 2 != 0 {
                        list(index &- 1, pair: pair, how: how)
                        // Only scanners want it (their common case: listed, not dispatched).
                        if how & 13 == 0 { continue }
                    }
                    // A quiet end (bit 3) is dispatched by the table unless it comes right after its begin. Serial
                    // filters (bit 2): which let the controller through (`passedFilters`); not dispatched whatever the
                    // serial, dispatched if one does.
                    if how & 1 != 0 {
                        filtersAsked = 0
                    } else if how & 8 != 0, !Self.isEndRightAfterBegin(entries, index &- 1) {
                        filtersAsked = 0
                    } else if how & 4 == 0 || !passesFilters(word) {
                        continue
                    }
                }
                dispatchEntry(index &- 1, pending, &record)
            } else {
                let recordPointer = recordBase.unsafelyUnwrapped + Int(word.record)
                switch action(recordPointer) {
                case .skip:
                    continue
                case .dispatch:
                    dispatchOther(recordPointer, index &- 1, pending)
                case .event:
                    // `observe(_:ordinal:)` lends the scanners their callbacks before it calls a monitor for the event
                    // (before it sets `ReplayBox.isEvent`: a scanner lent its entries then would resolve their names
                    // through that event); an event nobody looks at costs no lend.
                    observeOther(index &- 1, record: Int(word.record), pending, startCount: startCount)
                }
            }
            watched = watchedPairs
        }
        if scanners.count > 0 { flushScanners() }
        pending.pointee.end = count
        replay.catchUp()
        eventCount = startCount &+ UInt64(count)
        lastTimestamp = entries.timestamp(at: count &- 1)
    }

    /// Empties the scanners' lists for a batch of `count` entries (grown to hold them).
    @inline(never)
    private func startScanLists(_ count: Int) {
        if count > scanCapacity {
            scanCapacity = max(count, 1024)
            for index in scanners.indices {
                scanLists[index].indexes?.deallocate()
                scanLists[index].indexes = .allocate(capacity: scanCapacity)
            }
        }
        for index in scanners.indices {
            scanLists[index].count = 0
            scanLists[index].read = 0
        }
    }

    /// Folds up to entry `index` of the batch `pending` is lent for, an event without a record form (`.other`, at
    /// `record` in the batch's events), and hands its `Event` to `observe(_:ordinal:)`, which folds it and counts it.
    @inline(never)
    private func observeOther(_ index: Int, record: Int, _ pending: UnsafeMutablePointer<PendingFold>, startCount: UInt64) {
        pending.pointee.end = index
        replay.catchUp()
        eventCount = startCount &+ UInt64(index)
        if index > 0 { lastTimestamp = pending.pointee.entries.timestamp(at: index &- 1) }
        // Every `.other` record has its event (`RecordBatch.events`).
        if let event = pending.pointee.inputs._withUnsafeGuaranteedRef({ $0.events[record] }) {
            observe(event, ordinal: pending.pointee.first &+ UInt64(index))
        }
        pending.pointee.index = index &+ 1
    }

    /// Calls the monitors that look at the callback entry `index` of the batch `pending` is lent for (what
    /// `dispatch(_:_:_:)` does for a record): fills `record` in place from the entry's columns and lends it to
    /// them, with `pending.end` moved past the entry (a monitor reading the state folds up to it). Kept out of
    /// the batch loop, whose scan stays small.
    @inline(never)
    private func dispatchEntry(_ index: Int, _ pending: UnsafeMutablePointer<PendingFold>, _ record: inout EventRecord) {
        pending.pointee.end = index &+ 1
        let entries = pending.pointee.entries
        let word = entries.word(at: index).raw
        // Filled and lent in place: `record` is the batch loop's (an `inout` argument is passed to each monitor as
        // it is; a local or a record read through a pointer was copied, whole or field by field, per call).
        let codes = entryCodes[Self.entryCodeIndex(word)]
        Self.fill(&record, word: word, codes: codes, entries: entries, at: index, ordinal: pending.pointee.first &+ UInt64(index))
        let key = Int(truncatingIfNeeded: codes >> 32)
        let context = EventContext(
            ordinal: record.ordinal, traceStart: firstTimestamp,
            previousTimestamp: index > 0 ? entries.timestamp(at: index &- 1) : batchPrevious, replay: replay)
        if batchCallbackTable.hasScanner(key) {
            for position in batchCallbackTable.positions(key) {
                prepare(batchCallbackTable[position])
                batchCallbackTable[position].observe(callback: record, context, &findings)
            }
        } else {
            for position in batchCallbackTable.positions(key) {
                batchCallbackTable[position].observe(callback: record, context, &findings)
            }
        }
        if extraCallbacks & (1 << UInt32(key)) != 0 { dispatchExtras(record, key, context) }
        updateDemands()
    }

    /// The demands' and the serial filters' monitors for the callback `record` (table key `key`), kept out of
    /// `dispatchEntry` (inlined there, they made its frame and prologue bigger for every callback).
    @inline(never)
    private func dispatchExtras(_ record: EventRecord, _ key: Int, _ context: EventContext) {
        if demandedCallbacks & (1 << UInt32(key)) != 0 { dispatchDemands(record, key, context) }
        if filteredCallbacks & (1 << UInt32(key)) != 0 { dispatchFiltered(record, key, context) }
    }

    /// Fills the fields of the callback record `record` (made from `callbackTemplate`) that differ from entry to
    /// entry, from entry `index`'s word and columns (what `RecordBatch.Entries.subscript` gathers), and returns the
    /// callback table's key. `codes` is `entryCodes`' row for the word's (callback, flags) bits.
    @inline(__always)
    static func fill(_ record: inout EventRecord, word: UInt64, codes: UInt64, entries: RecordBatch.Entries, at index: Int, ordinal: UInt64) {
        record.timestamp = entries.timestamp(at: index)
        record.ordinal = ordinal
        // The bytes are those of real values of the fields' types (`makeEntryCodes()`).
        record.callback = unsafeBitCast(UInt8(truncatingIfNeeded: codes), to: Callback.self)
        record.phase = unsafeBitCast(UInt8(truncatingIfNeeded: codes >> 8), to: Phase.self)
        record.animated = unsafeBitCast(UInt8(truncatingIfNeeded: codes >> 16), to: Bool?.self)
        record.parent = unsafeBitCast(UInt8(truncatingIfNeeded: codes >> 24), to: EventRecord.Parent.self)
        record.controller = UInt32(truncatingIfNeeded: word)
        let slotField = (word >> 32) & 0xFFFF
        record.controllerSlot = slotField == 0xFFFF ? entries[index].slot : UInt32(truncatingIfNeeded: slotField)
        if (word >> 60) & 3 == UInt64(EventRecord.Parent.controller.rawValue) {
            let entry = entries[index]
            record.parentSerial = entry.parentSerial
            record.parentSlot = entry.parentSlot
        } else {
            record.parentSerial = 0
            record.parentSlot = 0
        }
    }

    /// The row of `entryCodes` for a callback entry's word: its callback code's low 4 bits and the 6 bits of its
    /// flags (phase, animated, parent presence).
    @inline(__always)
    static func entryCodeIndex(_ word: UInt64) -> Int {
        Int(truncatingIfNeeded: (word >> 48) & 0xF | (word >> 52) & 0x3F0)
    }

    /// `entryCodes`: for each (callback code, flags) row (`entryCodeIndex(_:)`), the bytes of the record's
    /// `callback`, `phase`, `animated` and `parent` (bytes 0–3, each that of the field's value, built from the
    /// codes as `RecordBatch.Entry`'s accessors do: an unknown code stands for `.initialize`, `.instant`, `.absent`)
    /// and the callback table's key (byte 4: `callbackKey(_:_:)`). The decoder's fast path stores only valid codes in
    /// a callback entry (a callback ≤ 15, a phase ≤ 2, animated and parent ≤ 2; `CallbackCodeTests`).
    static func makeEntryCodes() -> UnsafeMutablePointer<UInt64> {
        // Each field's byte per code first (a few dozen values), then the rows from them.
        func byte<T>(_ value: T) -> UInt64 { withUnsafeBytes(of: value) { UInt64($0[0]) } }
        var callbacks: [UInt64] = []
        for code in 0..<16 { callbacks.append(byte(Callback(rawValue: UInt8(code)) ?? .initialize)) }
        var phases: [UInt64] = []
        var animated: [UInt64] = []
        var parents: [UInt64] = []
        for code in 0..<4 {
            phases.append(byte(Phase(rawValue: UInt8(code)) ?? .instant))
            let value: Bool? = code == 0 ? nil : code == 2
            animated.append(byte(value))
            parents.append(byte(EventRecord.Parent(rawValue: UInt8(code)) ?? .absent))
        }
        let table = UnsafeMutablePointer<UInt64>.allocate(capacity: 1024)
        for row in 0..<1024 {
            let code = row & 0xF
            let phase = (row >> 4) & 3
            let key = UInt64(callbackKey(UInt8(code), UInt8(phase)))
            table[row] = callbacks[code] | phases[phase] << 8 | animated[(row >> 6) & 3] << 16 | parents[(row >> 8) & 3] << 24 | key << 32
        }
        return table
    }

    /// What the batch loop does with a record entry (`dispatchOther` calls no monitor for a `.skip`).
    @inline(__always)
    private func action(_ record: UnsafePointer<EventRecord>) -> RecordAction {
        switch record.pointee.kind {
        case .container:
            return containerTable.isEmpty(containerKey(record.pointee.code)) ? .skip : .dispatch
        case .app:
            if demandedApp & (1 << (UInt32(record.pointee.code & 0xF) &+ (record.pointee.phase == .end ? 16 : 0))) != 0 { return .dispatch }
            return appTable.isEmpty(Self.appKey(record.pointee.code, record.pointee.phase)) ? .skip : .dispatch
        case .swiftUI:
            return swiftUITable.isEmpty(0) ? .skip : .dispatch
        case .mark:
            return markActions[Int(record.pointee.code)] != 0 ? .dispatch : .skip
        case .callback, .other:
            return .event
        }
    }

    /// The record of a callback entry (what `RecordBatch.record(of:)` builds), field by field from its codes: the
    /// decoder's fast path stores only valid codes in a callback entry (a callback ≤ 15, a phase ≤ 2, animated and
    /// parent ≤ 2), whose raw values are the enums' case numbers (`CallbackCodeTests`).
    @inline(__always)
    func record(of entry: RecordBatch.Entry, ordinal: UInt64) -> EventRecord {
        var record = callbackTemplate
        Self.fill(&record, from: entry, ordinal: ordinal)
        return record
    }

    /// The record `dispatchEntry(_:_:)` lends the monitors for the callback entry `index` of `entries` (for tests:
    /// it must be what `RecordBatch.record(of:)` builds).
    func entryRecord(at index: Int, in entries: RecordBatch.Entries, ordinal: UInt64) -> EventRecord {
        var record = callbackTemplate
        let word = entries.word(at: index).raw
        Self.fill(&record, word: word, codes: entryCodes[Self.entryCodeIndex(word)], entries: entries, at: index, ordinal: ordinal)
        return record
    }

    /// Sets the fields of a callback record (made from `callbackTemplate`) that differ from entry to entry.
    @inline(__always)
    static func fill(_ record: inout EventRecord, from entry: RecordBatch.Entry, ordinal: UInt64) {
        record.timestamp = entry.timestamp
        record.ordinal = ordinal
        record.callback = entry.callbackCode <= 15 ? unsafeBitCast(entry.callbackCode, to: Callback.self) : .initialize
        record.phase = entry.phaseCode <= 2 ? unsafeBitCast(entry.phaseCode, to: Phase.self) : .instant
        record.animated = entry.animatedCode == 0 ? nil : entry.animatedCode == 2
        record.controller = entry.serial
        record.controllerSlot = entry.slot
        record.parent = entry.parentCode <= 2 ? unsafeBitCast(entry.parentCode, to: EventRecord.Parent.self) : .absent
        record.parentSerial = entry.parentSerial
        record.parentSlot = entry.parentSlot
    }

    /// Counts the event and moves the clock; returns the previous event's timestamp (`nil` for the first).
    @inline(__always)
    private func advance(to timestamp: UInt64) -> UInt64? {
        let previous = eventCount == 0 ? nil : lastTimestamp
        if eventCount == 0 { firstTimestamp = timestamp }
        eventCount += 1
        lastTimestamp = timestamp
        return previous
    }

    /// Whether some monitor looks at the callback with table key `key` now (its filter or its demand), or may
    /// (a serial filter, decided by `dispatch`).
    @inline(__always)
    private func isWatched(_ key: Int) -> Bool {
        (watchedCallbacks | demandedCallbacks | filteredCallbacks) & (1 << UInt32(key)) != 0
    }

    /// Whether the callback entry `index` of `entries`, an `end`, is the entry right after its own begin: the
    /// previous entry is a callback `begin` with the same serial, slot, callback and parent argument (`quietEnds`).
    @inline(__always)
    static func isEndRightAfterBegin(_ entries: RecordBatch.Entries, _ index: Int) -> Bool {
        guard index > 0 else { return false }
        let word = entries.word(at: index).raw
        let previous = entries.word(at: index &- 1).raw
        // Serial, slot field, callback code, parent presence and the record bit equal (phase and animated aside); the
        // previous entry a begin.
        guard (word ^ previous) & ~(UInt64(0xF) << 56) == 0, (previous >> 56) & 3 == UInt64(Phase.begin.rawValue) else { return false }
        return sameColumns(entries, index, word)
    }

    /// The rest of `isEndRightAfterBegin(_:_:)`: the parent (serial and slot, one column) and a slot too wide for
    /// the word, when the entries have them.
    @inline(__always)
    private static func sameColumns(_ entries: RecordBatch.Entries, _ index: Int, _ word: UInt64) -> Bool {
        if (word >> 60) & 3 == UInt64(EventRecord.Parent.controller.rawValue), entries.parentWord(at: index) != entries.parentWord(at: index &- 1) {
            return false
        }
        return (word >> 32) & 0xFFFF != 0xFFFF || entries[index].slot == entries[index &- 1].slot
    }

    /// Whether some serial filter lets the callback entry `word` through (one of the callbacks it filters, by the
    /// caller's tests of `watchedPairs` and `dispatchedPairs`): asks the filtered targets in order up to the first
    /// that does, and leaves what they said in `passedFilters` and `filtersAsked` (what `dispatchFiltered` then
    /// calls by, asking only the targets after those). Kept out of the batch loop.
    @inline(never)
    private func passesFilters(_ word: RecordBatch.Word) -> Bool {
        let bit: UInt32 = 1 << UInt32(Self.callbackKey(word.callbackCode, word.phaseCode))
        let serial = word.serial
        let base = filteredTargets.baseAddress.unsafelyUnwrapped
        let count = askedFilters
        var index = 0
        while index < count {
            let target = base + index
            if target.pointee.callbacks & bit != 0 {
                // A scanner's filter as of this entry: it reads the callbacks listed before it first.
                prepare(target.pointee.target)
                if target.pointee.passes(serial, bit) {
                    passedFilters = 1 << UInt64(index)
                    filtersAsked = index &+ 1
                    return true
                }
            }
            index &+= 1
        }
        // None of the first 64 does: those after are asked in `dispatchFiltered` (when there are any).
        passedFilters = 0
        filtersAsked = count
        return filteredTargets.count > count
    }

    /// Calls the monitors that look at the callback record now (the `Event` paths; the batch loop calls
    /// `dispatchEntry(_:_:)`).
    @inline(never)
    private func dispatch(_ record: EventRecord, _ key: Int, _ previousTimestamp: UInt64?) {
        let context = EventContext(ordinal: record.ordinal, traceStart: firstTimestamp, previousTimestamp: previousTimestamp, replay: replay)
        for position in callbackTable.positions(key) {
            callbackTable[position].observe(callback: record, context, &findings)
        }
        if demandedCallbacks & (1 << UInt32(key)) != 0 { dispatchDemands(record, key, context) }
        if filteredCallbacks & (1 << UInt32(key)) != 0 {
            filtersAsked = 0
            dispatchFiltered(record, key, context)
        }
        updateDemands()
    }

    /// Calls the monitors whose demand (and not their fixed filter) holds the callback `record` (table key `key`).
    @inline(__always)
    private func dispatchDemands(_ record: EventRecord, _ key: Int, _ context: EventContext) {
        // The demands as last read (re-read first if a monitor called for this event changed one; a monitor changes
        // only its own, and one called here before was asked already). The key is the callback's `CallbackSet` bit.
        updateDemands()
        let bit: UInt32 = 1 << UInt32(key)
        for index in 0..<demandTargets.count where demandWanted[index] & bit != 0 {
            demandTargets[index].target.observe(callback: record, context, &findings)
        }
    }

    /// Calls the monitors whose serial filter filters the callback record (table key `key`) and lets its
    /// controller through, or whose demand asks for it (`dispatchDemands` leaves a monitor's filtered callbacks to
    /// this one: its `DemandRef.filter` holds them, so each monitor is asked once): the first `filtersAsked` targets
    /// by what the batch loop's `passesFilters(_:)` found (`passedFilters`), the others asked now. A monitor
    /// changes only its own filter and demand, and is called for the record only here, so asking its filter before
    /// the other monitors' calls gives the same answer.
    @inline(__always)
    private func dispatchFiltered(_ record: EventRecord, _ key: Int, _ context: EventContext) {
        let bit: UInt32 = 1 << UInt32(key)
        let asked = filtersAsked
        let passed = passedFilters
        for index in filteredTargets.indices where filteredTargets[index].callbacks & bit != 0 {
            let target = filteredTargets[index]
            prepare(target.target)
            if index < asked ? passed >> UInt64(index) & 1 != 0 : target.passes(record.controller, bit) {
                target.target.observe(callback: record, context, &findings)
            }
        }
    }

    /// Calls the monitors that want the container, app, SwiftUI or mark record of entry `index` of the batch
    /// `pending` is lent for (the table of its kind, by operation, transition or name; plus the demands for app
    /// events), with `pending.end` moved past the entry; then forgets the `Event` a monitor may have had built from it.
    @inline(never)
    private func dispatchOther(_ pointer: UnsafePointer<EventRecord>, _ index: Int, _ pending: UnsafeMutablePointer<PendingFold>) {
        pending.pointee.end = index &+ 1
        dispatchOther(pointer.pointee, index > 0 ? pending.pointee.entries.timestamp(at: index &- 1) : batchPrevious)
        if replay.event != nil { replay.event = nil }
    }

    /// Calls the monitors that want a container, app, SwiftUI or mark record (the table of its kind, by operation,
    /// transition or name; plus the demands for app events).
    @inline(__always)
    private func dispatchOther(_ record: EventRecord, _ previousTimestamp: UInt64?) {
        let table: DispatchTable
        let key: Int
        var demanded = false
        var custom = false
        switch record.kind {
        case .container:
            table = containerTable
            key = containerKey(record.code)
        case .app:
            table = appTable
            key = Self.appKey(record.code, record.phase)
            demanded = demandedApp & (1 << (UInt32(record.code & 0xF) &+ (record.phase == .end ? 16 : 0))) != 0
        case .swiftUI:
            table = swiftUITable
            key = 0
        case .mark:
            table = markTable
            key = Int(record.code)
            custom = record.code == KnownName.other.rawValue && !customMarkTargets.isEmpty
        case .callback, .other:
            return
        }
        if table.isEmpty(key), !demanded, !custom { return }
        let context = EventContext(ordinal: record.ordinal, traceStart: firstTimestamp, previousTimestamp: previousTimestamp, replay: replay)
        if table.hasScanner(key) {
            for position in table.positions(key) {
                prepare(table[position])
                table[position].observe(record: record, context, &findings)
            }
        } else {
            for position in table.positions(key) {
                table[position].observe(record: record, context, &findings)
            }
        }
        if demanded || custom { dispatchOtherExtras(record, context, demanded: demanded, custom: custom) }
        updateDemands()
    }

    /// The demands' monitors for an app record (`demanded`) and the custom-name mark monitors (`custom`).
    @inline(never)
    private func dispatchOtherExtras(_ record: EventRecord, _ context: EventContext, demanded: Bool, custom: Bool) {
        if demanded {
            let code = AppTransition(rawValue: record.code) != nil ? record.code : 0
            for target in demandTargets
            where !target.appFilter.contains(code: code, record.phase) && target.app.contains(code: code, record.phase) {
                target.target.observe(record: record, context, &findings)
            }
        }
        if custom, let name = context.string(of: record) {
            for target in customMarkTargets where target.filter.contains(name) {
                prepare(target.target)
                target.target.observe(record: record, context, &findings)
            }
        }
    }

    /// The record of a callback event: serials from its `ControllerRef`s; slot 0 stands for the controller and 1
    /// for the parent (`ReplayBox.controllerRef(slot:serial:)` reads them back from the event).
    static func record(of callback: CallbackEvent, at timestamp: UInt64, ordinal: UInt64) -> EventRecord {
        var record = EventRecord(
            timestamp: timestamp, ordinal: ordinal, callback: callback.callback, phase: callback.phase, animated: callback.animated,
            controller: callback.controller.serial, controllerSlot: 0)
        switch callback.parent {
        case nil:
            break
        case ParentArgument.none?:
            record.parent = .none
        case .controller(let parent)?:
            record.parent = .controller
            record.parentSerial = parent.serial
            record.parentSlot = 1
        }
        return record
    }

    /// The replayed state after the last event observed.
    public var state: ReplayState {
        replay.catchUp()
        return replay.state
    }

    /// Ends the trace: lets monitors report what is still pending and returns every finding, in event order
    /// (then by rule id, controller and message).
    public func finish() -> [Finding] {
        let end = TraceEnd(eventCount: eventCount, firstTimestamp: firstTimestamp, lastTimestamp: lastTimestamp)
        for box in boxes {
            box.monitor.finish(end, &findings)
        }
        // A total order, so the same trace always gives the same report (monitors may emit ties from dictionaries).
        return findings.sorted {
            ($0.ordinal, $0.ruleID, $0.controller ?? "", $0.message) < ($1.ordinal, $1.ruleID, $1.controller ?? "", $1.message)
        }
    }
}

/// A monitor held strongly for the session's lifetime (`AuditSession` keeps every box), with its demand.
final class MonitorBox {
    let monitor: any RuleMonitor
    /// `monitor.callbackDemand`, read once (a monitor keeps one demand object and changes its sets).
    let demand: CallbackDemand?
    /// `monitor.serialFilters`, read once and held (the session's `FilteredRef`s hold them unmanaged).
    let serialFilters: [SerialFilter]
    /// The monitor's index among the session's scanners, or -1 when it scans nothing (set by the session before it
    /// makes its tables).
    var scanner: Int32 = -1
    /// `monitor.scanIndependentRecords`, read once.
    let scanIndependentRecords: EventInterests

    init(_ monitor: any RuleMonitor) {
        self.monitor = monitor
        demand = monitor.callbackDemand
        serialFilters = monitor.serialFilters
        scanIndependentRecords = monitor.scanIndependentRecords
    }
}

/// A monitor as the dispatch tables hold it: an unmanaged reference to its box, called through
/// `_withUnsafeGuaranteedRef`, so a call costs no retain/release (an `unowned(unsafe)` existential was retained and
/// released around every call; the session keeps the boxes alive).
struct MonitorRef {
    let box: Unmanaged<MonitorBox>
    /// `MonitorBox.scanner`: the session lends a scanner its unread entries before it calls it (-1: not scanning,
    /// or called for events it reads independently of its scans, `RuleMonitor.scanIndependentRecords`).
    let scanner: Int32

    init(_ box: MonitorBox, lends: Bool = true) {
        self.box = .passUnretained(box)
        scanner = lends ? box.scanner : -1
    }

    @inline(__always)
    func observe(callback record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        box._withUnsafeGuaranteedRef { $0.monitor.observe(callback: record, context, &findings) }
    }

    @inline(__always)
    func observe(record: EventRecord, _ context: EventContext, _ findings: inout [Finding]) {
        box._withUnsafeGuaranteedRef { $0.monitor.observe(record: record, context, &findings) }
    }

    @inline(__always)
    func observe(_ event: Event, _ context: EventContext, _ findings: inout [Finding]) {
        box._withUnsafeGuaranteedRef { $0.monitor.observe(event, context, &findings) }
    }

    @inline(__always)
    func scanCallbacks(_ scan: CallbackScan, _ findings: inout [Finding]) {
        box._withUnsafeGuaranteedRef { $0.monitor.scanCallbacks(scan, &findings) }
    }
}

/// A monitor with a `CallbackDemand`, its fixed filters (`.all` for a kind it has no interest in, so the demand
/// adds nothing there), and the demand, held as `MonitorRef` is (the box holds the demand).
struct DemandRef {
    let target: MonitorRef
    let filter: CallbackSet
    let appFilter: AppTransitionSet
    let demand: Unmanaged<CallbackDemand>

    /// The demand's callbacks now.
    @inline(__always)
    var extra: CallbackSet { demand._withUnsafeGuaranteedRef { $0.extra } }

    /// The demand's app events now.
    @inline(__always)
    var app: AppTransitionSet { demand._withUnsafeGuaranteedRef { $0.app } }
}

/// A serial filter of a monitor, the callbacks it filters (`CallbackSet` bits, within the monitor's
/// `callbackFilter`), the filter and the monitor's demand, held as `MonitorRef` is.
struct FilteredRef {
    let target: MonitorRef
    let callbacks: UInt32
    let filter: Unmanaged<SerialFilter>
    let demand: Unmanaged<CallbackDemand>?

    /// Whether the filtered callback with `CallbackSet` bit `bit` of the controller `serial` goes to the monitor:
    /// its filter lets the controller through, or its demand asks for the callback now.
    @inline(__always)
    func passes(_ serial: UInt32, _ bit: UInt32) -> Bool {
        if let demand, demand._withUnsafeGuaranteedRef({ $0.extra.rawValue }) & bit != 0 { return true }
        return filter._withUnsafeGuaranteedRef { $0.passes(serial) }
    }
}

/// Holds the session's `ReplayState` so contexts can reach it without copying it per event, and the event being
/// observed, from which `EventContext` resolves a record's controllers, strings and fields: the `Event` when the
/// session was fed one (`isEvent`), else the `FrameCursor` the record came from (valid only while the monitors
/// run) and the `Event` built from it once a monitor asked for it.
///
/// The session is used on one thread and never reenters itself, so its stored properties (and `state`) skip the
/// runtime exclusivity check (`@exclusivity(unchecked)`): a check per access cost ≈ 80 instructions, several
/// per event. The compile-time exclusivity diagnostics still apply.
final class ReplayBox {
    @exclusivity(unchecked) var state = ReplayState()
    /// Whether the event being observed came as an `Event` (`event`) rather than as a record (`cursor`).
    @exclusivity(unchecked) var isEvent = false
    /// The event being observed: the one fed when `isEvent`, else the one built from the record (or `nil`).
    @exclusivity(unchecked) var event: EventBox?
    /// The cursor of the record being observed when it came as a record.
    @exclusivity(unchecked) var cursor: UnsafePointer<FrameCursor>?
    /// While the batch loop runs (`AuditSession.observeRest(of:batch:)`): the events dispatched but not folded
    /// into `state` yet.
    @exclusivity(unchecked) var pending: UnsafeMutablePointer<PendingFold>?

    /// Folds the events dispatched but not folded yet, up to and including the one being observed, so that
    /// `state` is the state after it: called before anything reads `state` for a monitor.
    @inline(__always)
    func catchUp() {
        if let pending, pending.pointee.index < pending.pointee.end { fold(pending) }
    }

    /// `ReplayState.enclosingCallback(ofSerial: serial)` after the mark being observed, when the batch shows it
    /// without a fold, else `nil` (ask the state): while the batch loop dispatches a mark entry (`pending.end - 1`)
    /// that is not folded yet, and the entries before it back to the nearest callback entry are marks (at most
    /// `markRun` of them, within the batch), and that callback entry is a controller callback's `begin` of the
    /// controller `serial` (or `serial` is `nil`).
    ///
    /// Why it is the state's answer: folding a plain callback `begin` always pushes it on `executing` (`applyCallback`
    /// and the quiet path; it is not paired with an end, the next entry being a mark) and gives its controller a
    /// record; folding a mark changes neither `executing`, `appCallbacks` nor the controllers' records (it may add
    /// one). So after the mark the begin is `executing.last`: the innermost callback of anyone, and of its own
    /// controller, begun after every open app callback. Saves the catch-up fold's split at the mark
    /// (`CallbackAttribution.enclosingActive(ofSerial:)`).
    @inline(__always)
    func openBeginBeforeMark(ofSerial serial: UInt32?) -> ActiveCallback? {
        guard let pending, pending.pointee.index < pending.pointee.end, !isEvent else { return nil }
        return openBeginBeforeMark(pending, serial)
    }

    /// How many marks `openBeginBeforeMark(ofSerial:)` reads back past at most.
    static let markRun = 8

    @inline(__always)
    private func openBeginBeforeMark(_ pending: UnsafeMutablePointer<PendingFold>, _ serial: UInt32?) -> ActiveCallback? {
        guard let records = pending.pointee.recordBase else { return nil }
        let entries = pending.pointee.entries
        var index = pending.pointee.end &- 1
        let word = entries.word(at: index)
        guard word.isRecord, records[Int(word.record)].kind == .mark else { return nil }
        let stop = max(0, index &- Self.markRun &- 1)
        while index > stop {
            index &-= 1
            let word = entries.word(at: index)
            if word.isRecord {
                if records[Int(word.record)].kind != .mark { return nil }
                continue
            }
            // A plain callback entry's code is a valid callback (≤ 15: the decoder's fast path).
            guard word.phaseCode == Phase.begin.rawValue, serial == nil || serial == word.serial, word.callbackCode <= 15 else { return nil }
            // What the fold pushes for the begin (`ActiveCallback`'s initializer, not inlined, cost ≈ 90 instructions).
            var active = beginTemplates[Int(word.callbackCode)]
            active.controllerSerial = word.serial
            active.since = entries.timestamp(at: index)
            active.ordinal = pending.pointee.first &+ UInt64(index)
            return active
        }
        return nil
    }

    /// Per callback code (0–15): an `ActiveCallback` for a `begin` of that callback (serial, time and ordinal 0),
    /// what `openBeginBeforeMark(_:_:)` copies and completes. Manually allocated.
    private let beginTemplates: UnsafeMutablePointer<ActiveCallback> = {
        let templates = UnsafeMutablePointer<ActiveCallback>.allocate(capacity: 16)
        for code in 0..<16 {
            (templates + code).initialize(to: ActiveCallback(
                kind: .controller(Callback(rawValue: UInt8(code)) ?? .initialize), controllerSerial: 0, since: 0, ordinal: 0, isInstant: false))
        }
        return templates
    }()

    deinit {
        beginTemplates.deinitialize(count: 16)
        beginTemplates.deallocate()
    }

    @inline(never)
    private func fold(_ pending: UnsafeMutablePointer<PendingFold>) {
        var index = pending.pointee.index
        let end = pending.pointee.end
        pending.pointee.inputs._withUnsafeGuaranteedRef { $0.fold(&state, &index, end: end) }
        pending.pointee.index = index
    }

    /// The `ControllerRef` at `slot` of the record being observed, of kind `kind` (for an `Event`: a callback's
    /// slot 0 is the controller and 1 the parent; other kinds name one controller), else the replayed state's
    /// record of `serial`.
    func controllerRef(slot: UInt32, serial: UInt32, kind: EventRecord.Kind) -> ControllerRef {
        if isEvent, let event = event?.event {
            switch event.payload {
            case .callback(let callback):
                return slot == 1 ? callback.parent?.controller ?? callback.controller : callback.controller
            case .container(let container):
                if let ref = container.container { return ref }
            case .swiftUI(let swiftUI):
                if let ref = swiftUI.host { return ref }
            case .mark(let mark):
                if let ref = mark.controller { return ref }
            default:
                break
            }
        } else if let cursor {
            return cursor.controller(atSlot: slot)
        }
        catchUp()
        return state.controllers[serial]?.ref ?? ControllerRef(serial: serial, typeName: "")
    }
}

/// An `Event` in a box, so monitors can be lent it (a class's `let` property) instead of each copying it out of
/// the session.
final class EventBox {
    let event: Event

    init(_ event: Event) {
        self.event = event
    }
}

/// A scanner's list of the batch's callback entries it scans (`AuditSession.list(_:pair:)`): their indexes in the
/// batch, how many, and how many it has been lent (`AuditSession.flushScanner(_:)`).
struct ScanList {
    var indexes: UnsafeMutablePointer<UInt32>?
    var count = 0
    var read = 0
}
