import Simulator
import TraceModel

/// The deterministic generator property tests use, so they are reproducible from their seed: the Simulator's
/// SplitMix64 (one implementation for the whole project).
public typealias SeededGenerator = SplitMix64

/// Random event streams covering every event kind and every optional field, for round-trip property tests.
///
/// Timestamps never decrease (equal timestamps happen); strings include quotes, backslashes, control
/// characters, non-ASCII text and the empty string; mark fields use all four value types with extreme values.
/// Doubles are finite (NaN is unequal to itself, which would make equality-based round-trip checks meaningless).
public enum RandomEvents {
    /// `count` events from `seed`, starting at `start` nanoseconds.
    public static func make(count: Int, seed: UInt64, start: UInt64 = 1_000_000_000) -> [Event] {
        var generator = SeededGenerator(seed: seed)
        var controllers: [ControllerRef] = []
        var time = start
        var events: [Event] = []
        events.reserveCapacity(count)
        for _ in 0..<count {
            switch generator.next() % 4 {
            case 0: break
            case 1: time += generator.next() % 1_000
            default: time += generator.next() % 50_000_000
            }
            events.append(event(at: time, controllers: &controllers, using: &generator))
        }
        return events
    }

    /// One random event at `timestamp`, drawing controllers from (and adding to) `controllers`.
    public static func event(
        at timestamp: UInt64,
        controllers: inout [ControllerRef],
        using generator: inout SeededGenerator
    ) -> Event {
        func controller() -> ControllerRef {
            if controllers.isEmpty || generator.next() % 8 == 0 {
                let serial = UInt32(controllers.count + 1)
                let label: String? = generator.next() % 5 == 0 ? pick(["0", "1", "page 2", "<x>", "é"], &generator) : nil
                let type = pick(typeNames, &generator)
                let ref = ControllerRef(serial: serial, typeName: type, label: label)
                controllers.append(ref)
                return ref
            }
            return controllers[Int(generator.next() % UInt64(controllers.count))]
        }
        func maybeBool() -> Bool? {
            switch generator.next() % 3 {
            case 0: nil
            case 1: true
            default: false
            }
        }
        let phase = pick(Phase.allCases, &generator)
        let payload: EventPayload
        switch generator.next() % 10 {
        case 0, 1, 2, 3:
            let callback = pick(Callback.allCases, &generator)
            var parent: ParentArgument?
            if callback == .willMoveToParent || callback == .didMoveToParent || generator.next() % 10 == 0 {
                parent = generator.next() % 3 == 0 ? ParentArgument.none : .controller(controller())
                if generator.next() % 5 == 0 { parent = nil }
            }
            var size: Size?
            if callback == .viewWillTransition || generator.next() % 20 == 0 {
                size = Size(width: randomDouble(&generator), height: randomDouble(&generator))
            }
            payload = .callback(CallbackEvent(
                callback, phase, controller: controller(), animated: maybeBool(), parent: parent, size: size
            ))
        case 4:
            let operation = pick(ContainerOperation.allCases, &generator)
            let container = generator.next() % 6 == 0 ? nil : controller()
            let controllerCount = Int(generator.next() % 4)
            let subjects = (0..<controllerCount).map { _ in controller() }
            let style = operation == .present || generator.next() % 10 == 0 ? pick(ModalPresentationStyle.allCases, &generator) : nil
            let index: Int? = operation == .selectTab || generator.next() % 10 == 0 ? Int(Int64(bitPattern: generator.next()) >> (generator.next() % 64)) : nil
            payload = .container(ContainerEvent(
                operation, phase, container: container, controllers: subjects,
                animated: maybeBool(), style: style, index: index
            ))
        case 5:
            let scene: String? = generator.next() % 2 == 0 ? nil : pick(strings, &generator)
            payload = .app(AppEvent(pick(AppTransition.allCases, &generator), phase, scene: scene))
        case 6:
            let host = generator.next() % 3 == 0 ? nil : controller()
            payload = .swiftUI(SwiftUIEvent(pick(SwiftUIEvent.Action.allCases, &generator), view: pick(strings, &generator), host: host))
        case 7, 8:
            let fieldCount = Int(generator.next() % 5)
            var fields: [MarkField] = []
            for _ in 0..<fieldCount {
                let value: FieldValue
                switch generator.next() % 4 {
                case 0: value = .string(pick(strings, &generator))
                case 1: value = .int(pick([0, 1, -1, .max, .min, 42, Int64(bitPattern: generator.next())], &generator))
                case 2: value = .bool(generator.next() % 2 == 0)
                default: value = .double(randomDouble(&generator))
                }
                fields.append(MarkField(pick(fieldNames, &generator), value))
            }
            let name = generator.next() % 4 == 0 ? pick(strings, &generator) : pick(MarkName.standard, &generator)
            let owner = generator.next() % 3 == 0 ? nil : controller()
            payload = .mark(MarkEvent(name, phase, controller: owner, fields: fields))
        default:
            switch generator.next() % 4 {
            case 0: payload = .recorder(.runStarted(process: pick(strings, &generator)))
            case 1: payload = .recorder(.eventsDropped(count: generator.next() >> (generator.next() % 64)))
            case 2: payload = .recorder(.note(pick(strings, &generator)))
            default:
                let length = Int(generator.next() % 12)
                let body = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                payload = .unknown(UnknownEvent(tag: UInt8(truncatingIfNeeded: generator.next()), body: body))
            }
        }
        var source: EventSource?
        if generator.next() % 6 == 0 {
            source = EventSource(
                text: generator.next() % 2 == 0 ? pick(strings, &generator) : nil,
                file: generator.next() % 2 == 0 ? "Sources/App/\(pick(typeNames, &generator)).swift" : nil,
                line: generator.next() % 2 == 0 ? UInt32(truncatingIfNeeded: generator.next() >> 40) : nil
            )
        }
        return Event(timestamp: timestamp, payload, source: source)
    }

    static let typeNames = [
        "NoteEditorViewController", "NoteListViewController", "UINavigationController", "UITabBarController",
        "PhotoPageViewController", "UIHostingController<ProfileView>", "SettingsViewController", "",
    ]

    static let fieldNames = ["key", "critical", "id", "name", "width", "height", "what", "label", "count", "ratio"]

    static let strings = [
        "", "draft", "refresh", "ProfileView", "scene-1", "with \"quotes\"", "back\\slash", "tab\there",
        "line\nbreak", "\u{1}\u{1F}control", "naïve café", "日本語", "emoji 🧭", "{\"json\": [1, 2]}", "  spaced  ",
        "slash/path", "\u{7F}del",
    ]

    static func pick<T>(_ choices: [T], _ generator: inout SeededGenerator) -> T {
        choices[Int(generator.next() % UInt64(choices.count))]
    }

    /// A finite double: small, large, negative, fractional, whole, or zero.
    static func randomDouble(_ generator: inout SeededGenerator) -> Double {
        switch generator.next() % 6 {
        case 0: return Double(generator.next() % 2000)
        case 1: return Double(generator.next() % 100_000) / 7
        case 2: return -Double(generator.next() % 1000) / 3
        case 3: return pick([0, 1e300, -1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1e16, 0.1, 2.5], &generator)
        case 4:
            let value = Double(bitPattern: generator.next())
            return value.isFinite ? value : 1.5
        default: return 375.0
        }
    }
}
