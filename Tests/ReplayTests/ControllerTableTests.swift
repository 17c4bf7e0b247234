import LifetraceTestSupport
import Testing
import TraceModel

@testable import Replay

@Suite("Controller table")
struct ControllerTableTests {
    static func record(_ serial: UInt32, _ time: UInt64) -> ControllerState {
        ControllerState(ref: ControllerRef(serial: serial, typeName: "T\(serial % 7)"), firstSeen: time, ordinal: time)
    }

    @Test("inserts, updates and removals agree with a dictionary", arguments: [UInt64(1), 2, 3])
    func agreesWithDictionary(seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var table = ControllerTable()
        var model: [UInt32: ControllerState] = [:]
        for step in 0..<20_000 {
            // Serials from a small range, so removals and re-insertions collide in the index.
            let serial = UInt32(generator.next() % 300) * (generator.next() % 4 == 0 ? 1024 : 1)
            switch generator.next() % 3 {
            case 0:
                table[serial] = nil
                model[serial] = nil
            default:
                let state = Self.record(serial, UInt64(step))
                table[serial] = state
                model[serial] = state
            }
            if step % 997 == 0 || step == 19_999 {
                #expect(table.count == model.count)
                #expect(Set(table.keys) == Set(model.keys))
                for (key, value) in model { #expect(table[key] == value) }
                for (key, value) in table { #expect(model[key] == value) }
            }
        }
        for probe in UInt32(0)..<400 { #expect(table.contains(probe) == (model[probe] != nil)) }
    }

    @Test("equality ignores insertion order")
    func orderFreeEquality() {
        var first = ControllerTable()
        var second: ControllerTable = [:]
        for serial in UInt32(1)...50 { first[serial] = Self.record(serial, 1) }
        for serial in (UInt32(1)...50).reversed() { second[serial] = Self.record(serial, 1) }
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        second[7]?.appearance = .appeared
        #expect(first != second)
        second[7] = nil
        #expect(first != second)
        #expect(second.count == 49)
    }

    @Test("a copy keeps its records when the original changes (copy-on-write), through every write path")
    func copyOnWrite() {
        var table = ControllerTable()
        for serial in UInt32(1)...40 { table[serial] = Self.record(serial, 1) }
        let snapshot = table
        let position = table.position(of: 7)!
        table[at: position].appearance = .appeared
        table[3] = nil
        table[99] = Self.record(99, 2)
        #expect(snapshot[7]?.appearance == .unknown)
        #expect(snapshot[3] != nil && snapshot[99] == nil && snapshot.count == 40)
        #expect(table[7]?.appearance == .appeared && table[3] == nil && table[99] != nil && table.count == 40)
        var copy = snapshot
        let access = copy.foldAccess()
        access.states[access.position(of: 5)!].isViewLoaded = true
        #expect(access.position(of: 3) != nil && access.position(of: 99) == nil)
        #expect(snapshot[5]?.isViewLoaded == false)
        #expect(copy[5]?.isViewLoaded == true)
        #expect(copy != snapshot)
        copy.reserveCapacity(1_000)
        #expect(copy[5]?.isViewLoaded == true && copy.count == 40)
        for serial in UInt32(1)...40 { #expect(copy[serial]?.ref.serial == serial) }
    }

    /// A record with every stored property away from its first-sight value.
    static func busyRecord(_ serial: UInt32) -> ControllerState {
        var state = record(serial, 5)
        state.isCreatedInTrace = true
        state.isStructureKnown = true
        state.isViewLoaded = true
        state.viewDidLoadCount = 2
        state.appearance = .appeared
        state.appearanceSince = 9
        state.callbacks = [ActiveCallback(.viewDidAppear, serial: serial, since: 9, ordinal: 9, isInstant: false)]
        state.parent = .controller(1)
        state.children = [2, 3]
        state.presentingController = 4
        state.presentedController = 5
        state.presentationStyle = .pageSheet
        state.containerKind = .navigation
        state.viewControllers = [6]
        state.isViewControllerListComplete = true
        state.selectedController = 6
        state.selectedIndex = 0
        state.viewAttachedTo = 7
        state.resources = [LiveResource(kind: .timer, id: "t", since: 1, ordinal: 1, startedIn: nil)]
        state.unsaved = [UnsavedEdit(key: "k", firstEdit: 1, firstOrdinal: 1, lastEdit: 2, lastOrdinal: 2, count: 2)]
        state.swiftUIViews = [SwiftUIViewState(view: "V", isInRenderTree: true, appearCount: 1)]
        state.removal = Removal(kind: .popped, time: 3, ordinal: 3)
        state.deinitTime = 10
        state.deinitOrdinal = 10
        state.processEndTime = 11
        state.processEndOrdinal = 11
        return state
    }

    @Test("a record reused after a removal equals a new one, and copies keep theirs")
    func reusedRecords() throws {
        let fresh = ControllerState(ref: ControllerRef(serial: 77, typeName: "Fresh"), firstSeen: 40, ordinal: 41)
        // The busy record differs from a new one in every stored property, so a property `reset` forgets fails below.
        let busy = Self.busyRecord(1)
        let differing = zip(Mirror(reflecting: busy).children, Mirror(reflecting: fresh).children).filter {
            String(describing: $0.value) != String(describing: $1.value)
        }
        #expect(differing.count == Mirror(reflecting: fresh).children.count)
        var table = ControllerTable()
        for serial in UInt32(1)...12 { table[serial] = Self.busyRecord(serial) }
        let snapshot = table
        // More removals than the storage keeps spares, then more first sights than it has spares.
        for serial in UInt32(1)...6 { table.remove(serial) }
        for serial in UInt32(70)...78 {
            let position = table.insertNew(ControllerRef(serial: serial, typeName: "Fresh"), firstSeen: 40, ordinal: 41, serial: serial)
            #expect(table[at: position] == ControllerState(ref: ControllerRef(serial: serial, typeName: "Fresh"), firstSeen: 40, ordinal: 41))
            // The reused arrays are the record's own: appending changes neither the snapshot nor another record.
            table[at: position].callbacks.append(ActiveCallback(.viewDidLoad, serial: serial, since: 1, ordinal: 1, isInstant: false))
            table[at: position].children.append(serial)
        }
        #expect(table.count == 15)
        for serial in UInt32(1)...12 { #expect(snapshot[serial] == Self.busyRecord(serial)) }
        for serial in UInt32(70)...78 {
            #expect(table[serial]?.callbacks.count == 1 && table[serial]?.children == [serial])
        }
        for serial in UInt32(7)...12 { #expect(table[serial] == Self.busyRecord(serial)) }
        _ = try #require(table[77])
    }
}
