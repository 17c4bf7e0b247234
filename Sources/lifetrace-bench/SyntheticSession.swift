// A deterministic stream of lifecycle events for benchmarks, used when the Simulator's seeded session generator
// is not available. It follows the push/pop/present orders of DESIGN.md §2 closely enough to give the codec, the
// fold and the rules realistic work (callback intervals, container operations, marks, app transitions); it is not
// a model of UIKit and makes no claim of legality beyond that.

import TraceModel

/// SplitMix64: a small, fast, seedable generator (the same seed gives the same stream on every machine).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// An endless, deterministic session: a navigation stack that grows and shrinks, sheets, marks, backgrounding.
struct SyntheticSession: Sequence, IteratorProtocol {
    private var random: SplitMix64
    private var clock: UInt64 = 1_000_000_000
    private var nextSerial: UInt32 = 1
    private var pending: [Event] = []
    private var pendingIndex = 0
    private var stack: [ControllerRef] = []
    private let navigation: ControllerRef
    private var isInBackground = false

    private static let typeNames = [
        "NoteListViewController", "NoteEditorViewController", "SettingsViewController", "ProfileViewController",
        "PhotoPageViewController", "SearchResultsViewController", "ComposeViewController", "DetailViewController",
    ]

    init(seed: UInt64) {
        random = SplitMix64(seed: seed)
        navigation = ControllerRef(serial: nextSerial, typeName: "UINavigationController")
        nextSerial += 1
        pending.append(.app(AppEvent(.didFinishLaunching), at: clock))
        let root = makeController()
        pending.append(contentsOf: load(root))
        pending.append(.container(ContainerEvent(.setRoot, container: navigation, controllers: [root]), at: tick()))
        pending.append(contentsOf: appear(root, cover: nil))
        stack = [root]
    }

    mutating func next() -> Event? {
        while pendingIndex >= pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            step()
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    private mutating func tick() -> UInt64 {
        clock += 50_000 + random.next() % 2_000_000
        return clock
    }

    private mutating func makeController() -> ControllerRef {
        let name = Self.typeNames[Int(random.next() % UInt64(Self.typeNames.count))]
        defer { nextSerial += 1 }
        return ControllerRef(serial: nextSerial, typeName: name)
    }

    private mutating func interval(_ callback: Callback, _ controller: ControllerRef, animated: Bool? = nil) -> [Event] {
        let begin = Event.callback(CallbackEvent(callback, .begin, controller: controller, animated: animated), at: tick())
        let end = Event.callback(CallbackEvent(callback, .end, controller: controller, animated: animated), at: tick())
        return [begin, end]
    }

    private mutating func load(_ controller: ControllerRef) -> [Event] {
        interval(.initialize, controller) + interval(.loadView, controller) + interval(.viewDidLoad, controller)
    }

    private mutating func appear(_ controller: ControllerRef, cover: ControllerRef?) -> [Event] {
        var events: [Event] = []
        if let cover { events += interval(.viewWillDisappear, cover, animated: true) }
        events += interval(.viewWillAppear, controller, animated: true)
        events += interval(.viewIsAppearing, controller, animated: true)
        events += interval(.viewWillLayoutSubviews, controller) + interval(.viewDidLayoutSubviews, controller)
        if random.next() % 3 == 0 {
            let mark = MarkEvent(
                MarkName.geometryRead, controller: controller,
                fields: [MarkField("width", .double(390)), MarkField("height", .double(844))])
            events.append(.mark(mark, at: tick()))
        }
        if let cover { events += interval(.viewDidDisappear, cover, animated: true) }
        events += interval(.viewDidAppear, controller, animated: true)
        events.append(.mark(MarkEvent(MarkName.analyticsScreen, controller: controller, fields: [MarkField("name", .string(controller.typeName))]), at: tick()))
        return events
    }

    private mutating func step() {
        let top = stack[stack.count - 1]
        switch random.next() % 16 {
        case 0...4 where stack.count < 12:
            let pushed = makeController()
            pending += interval(.willMoveToParent, pushed)
            pending.append(.container(ContainerEvent(.push, container: navigation, controllers: [pushed], animated: true), at: tick()))
            pending += load(pushed)
            pending += appear(pushed, cover: top)
            pending += interval(.didMoveToParent, pushed)
            stack.append(pushed)
        case 5...8 where stack.count > 1:
            let below = stack[stack.count - 2]
            let interactive = random.next() % 2 == 0
            let cancelled = interactive && random.next() % 4 == 0
            if interactive {
                pending.append(.container(ContainerEvent(.interactiveTransitionBegin, container: navigation, controllers: [top, below]), at: tick()))
            } else {
                pending.append(.container(ContainerEvent(.pop, container: navigation, controllers: [top], animated: true), at: tick()))
            }
            pending += interval(.willMoveToParent, top)
            pending += interval(.viewWillDisappear, top, animated: true)
            pending += interval(.viewWillAppear, below, animated: true)
            if cancelled {
                pending += interval(.viewWillDisappear, below, animated: true)
                pending += interval(.viewDidDisappear, below, animated: true)
                pending += interval(.viewWillAppear, top, animated: true)
                pending += interval(.viewDidAppear, top, animated: true)
                pending.append(.container(ContainerEvent(.interactiveTransitionCancel, container: navigation, controllers: [top, below]), at: tick()))
            } else {
                pending += interval(.viewDidDisappear, top, animated: true)
                pending += interval(.viewDidAppear, below, animated: true)
                if interactive {
                    pending.append(.container(ContainerEvent(.interactiveTransitionFinish, container: navigation, controllers: [top, below]), at: tick()))
                }
                pending += interval(.didMoveToParent, top)
                pending += interval(.deinitialize, top)
                stack.removeLast()
            }
        case 9...11:
            let key = "draft.\(top.serial)"
            pending.append(.mark(.edit(key: key, controller: top), at: tick()))
            if random.next() % 2 == 0 {
                pending.append(.mark(.save(key: key, critical: true, controller: top), at: tick()))
            }
        case 12:
            let id = "timer.\(top.serial)"
            let name = random.next() % 2 == 0 ? MarkName.timerStart : MarkName.timerStop
            pending.append(.mark(MarkEvent(name, controller: top, fields: [MarkField("id", .string(id))]), at: tick()))
        case 13:
            let work = MarkEvent(MarkName.work, .begin, controller: top, fields: [MarkField("label", .string("sync"))])
            pending.append(.mark(work, at: tick()))
            var end = work
            end.phase = .end
            pending.append(.mark(end, at: tick()))
        case 14:
            if isInBackground {
                pending.append(.app(AppEvent(.willEnterForeground), at: tick()))
                pending.append(.app(AppEvent(.didBecomeActive), at: tick()))
            } else {
                pending.append(.app(AppEvent(.willResignActive), at: tick()))
                pending.append(.app(AppEvent(.didEnterBackground), at: tick()))
            }
            isInBackground.toggle()
        default:
            pending += interval(.viewWillLayoutSubviews, top) + interval(.viewDidLayoutSubviews, top)
        }
    }
}
