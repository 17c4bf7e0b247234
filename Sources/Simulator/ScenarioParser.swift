import TraceModel

/// Reads the scenario language (docs/SCENARIOS.md) into a `Scenario`.
///
/// Every error names the line and says what was expected there.
public struct ScenarioParser: Sendable {
    /// The file name used in error messages.
    public var file: String?

    public init(file: String? = nil) {
        self.file = file
    }

    /// Parses `text`.
    ///
    /// - Throws: `ScenarioError` with code `.syntax`, the 1-based line and column of the first thing it cannot
    ///   read (an unknown keyword, command, hook, option, mark field or value).
    public func parse(_ text: String) throws -> Scenario {
        var scenario = Scenario()
        var currentClass: String?
        var lineNumber = 0
        // "\r\n" is one Character (one grapheme cluster) in Swift, so splitting on "\n" alone would leave a
        // CRLF file as a single line: its first comment would swallow the whole scenario.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNumber += 1
            var line = String(rawLine)
            if line.hasSuffix("\r") { line.removeLast() }
            line = Self.strippingComment(line)
            if line.allSatisfy(\.isWhitespace) { continue }
            do {
                if let first = line.first, first == " " || first == "\t" {
                    guard let name = currentClass else {
                        throw ScenarioError(.syntax, "unexpected indented line; indented lines belong to a 'class NAME' line above them")
                    }
                    try parseClassBody(line.trimmed(), line: lineNumber, into: &scenario.classes[name]!)
                    continue
                }
                currentClass = nil
                let words = line.trimmed()
                let keyword = String(words.prefix { !$0.isWhitespace })
                let rest = String(words.dropFirst(keyword.count)).trimmed()
                switch keyword {
                case "title":
                    scenario.title = rest.count >= 2 && rest.hasPrefix("\"") && rest.hasSuffix("\"") ? String(rest.dropFirst().dropLast()) : rest
                case "scene":
                    guard !rest.isEmpty, !rest.contains(" ") else {
                        throw ScenarioError(.syntax, "expected a scene identifier after 'scene' (e.g. scene main)", near: rest.isEmpty ? nil : rest)
                    }
                    scenario.sceneID = rest
                case "window":
                    guard let size = Self.size(rest) else {
                        throw ScenarioError(.syntax, "expected a size after 'window' (e.g. window 390x844), found '\(rest)'", near: rest)
                    }
                    scenario.windowSize = size
                case "class":
                    let spec = try parseClassLine(rest, line: lineNumber)
                    if let existing = scenario.classes[spec.name] {
                        throw ScenarioError(.syntax, "class '\(spec.name)' is already declared at line \(existing.line)")
                    }
                    scenario.classes[spec.name] = spec
                    currentClass = spec.name
                case "at", "after":
                    scenario.steps.append(try parseStep(keyword: keyword, rest, line: lineNumber))
                default:
                    throw ScenarioError(
                        .syntax,
                        "expected 'class NAME', 'at TIME COMMAND', 'after DURATION COMMAND', 'title', 'scene' or 'window'; found '\(keyword)'\(Self.suggestion(for: keyword, among: ["class", "at", "after", "title", "scene", "window"]))",
                        near: keyword
                    )
                }
            } catch var error as ScenarioError {
                if error.line == 0 { error.line = lineNumber }
                if error.code == .syntax, error.column == 0 {
                    var raw = String(rawLine)
                    if raw.hasSuffix("\r") { raw.removeLast() }
                    error.column = Self.column(of: error.near, offset: error.nearOffset, in: raw)
                }
                error.file = file
                throw error
            }
        }
        return scenario
    }

    // MARK: - Classes

    private func parseClassLine(_ text: String, line: Int) throws -> ClassSpec {
        let parts = text.split(separator: ":", maxSplits: 1).map { String($0).trimmed() }
        guard let name = parts.first, Self.isIdentifier(name) else {
            throw ScenarioError(.syntax, "expected a class name after 'class' (e.g. class NoteEditorViewController), found '\(text)'", near: parts.first)
        }
        var kind = ControllerKind.plain
        if parts.count == 2 {
            let base = parts[1]
            kind = ControllerKind(builtinTypeName: base)
            if kind == .plain && base != "UIViewController" {
                throw ScenarioError(
                    .syntax,
                    "expected UIViewController, UINavigationController, UITabBarController, UIPageViewController or UIHostingController<ViewName> after ':', found '\(base)'",
                    near: base
                )
            }
        }
        return ClassSpec(name: name, kind: kind, line: line)
    }

    /// Hook spellings, longest first so `willMove(toParent:)` wins over `willMove`.
    private static let hooks: [(String, Hook)] = {
        var table: [(String, Hook)] = Callback.allCases.map { ($0.name, .callback($0)) }
        table += [
            ("willMove", .callback(.willMoveToParent)), ("didMove", .callback(.didMoveToParent)),
            ("viewWillTransition", .callback(.viewWillTransition)),
            ("onAppear", .swiftUI(.onAppear)), ("onDisappear", .swiftUI(.onDisappear)),
        ]
        let appTransitions: [AppTransition] = [
            .didFinishLaunching, .willEnterForeground, .didBecomeActive, .willResignActive, .didEnterBackground,
            .willTerminate,
        ]
        table += appTransitions.map { ($0.name, .app($0)) }
        let delegate: [ContainerOperation] = [
            .presentationControllerShouldDismiss, .presentationControllerWillDismiss,
            .presentationControllerDidDismiss, .presentationControllerDidAttemptToDismiss,
        ]
        table += delegate.map { ($0.name, .presentation($0)) }
        return table.sorted { $0.0.count > $1.0.count }
    }()

    private func parseClassBody(_ text: String, line: Int, into spec: inout ClassSpec) throws {
        if text == "modalInPresentation" || text == "isModalInPresentation" {
            spec.isModalInPresentation = true
            return
        }
        guard let (spelling, hook) = Self.hooks.first(where: { text.hasPrefix($0.0 + ":") }) else {
            let word = String(text.prefix { $0 != ":" && !$0.isWhitespace })
            throw ScenarioError(
                .syntax,
                "expected 'HOOK: ACTION; ACTION…' where HOOK is a callback (viewDidLoad, viewWillDisappear, deinit, …), an app transition (didEnterBackground, …), onAppear/onDisappear or a presentationController… delegate method, or 'modalInPresentation'; found '\(word)'\(Self.suggestion(for: word, among: Self.hooks.map(\.0) + ["modalInPresentation"]))",
                near: word
            )
        }
        if case .swiftUI = hook, case .hosting = spec.kind {} else if case .swiftUI = hook {
            throw ScenarioError(.syntax, "'\(spelling)' is a SwiftUI action; declare the class as 'class \(spec.name): UIHostingController<ViewName>'", near: spelling)
        }
        let actions = try Self.parseActions(String(text.dropFirst(spelling.count + 1)), line: line)
        spec.hooks[hook, default: []] += actions
    }

    // MARK: - Actions

    static func parseActions(_ text: String, line: Int) throws -> [Action] {
        var actions: [Action] = []
        for part in try splitOutsideQuotes(text, on: ";") {
            let words = try words(part)
            guard let name = words.first else { continue }
            switch name {
            case "touch-view":
                try expectNoArguments(words, name)
                actions.append(Action(.touchView, line: line))
            case "capture-self":
                try expectNoArguments(words, name)
                actions.append(Action(.captureSelf, line: line))
            case MarkName.work:
                let fields = try checkedFields(words.dropFirst(), mark: name, line: line)
                guard let label = fields.first(where: { $0.name == "label" })?.value.stringValue,
                      let durationText = fields.first(where: { $0.name == "duration" })?.value.stringValue
                else {
                    throw ScenarioError(.syntax, "expected 'work label=LABEL duration=DURATION' (e.g. work label=charts duration=40ms)", near: name, line: line)
                }
                guard let duration = TimeText.parseDuration(durationText) else {
                    let word = words.first { $0.hasPrefix("duration=") }
                    throw ScenarioError(
                        .syntax, "work's duration must be a duration such as 45ms or 1.5s; found '\(durationText)'", near: word, offset: "duration=".count, line: line)
                }
                actions.append(Action(.work(label: label, duration: duration), line: line))
            default:
                guard isIdentifier(name) else {
                    throw ScenarioError(.syntax, "expected an action (a mark name such as save, touch-view, capture-self or work), found '\(name)'", near: name, line: line)
                }
                let fields = try checkedFields(words.dropFirst(), mark: name, line: line)
                actions.append(Action(.mark(name: name, fields: fields), line: line))
            }
        }
        if actions.isEmpty {
            throw ScenarioError(.syntax, "expected at least one action after ':' (e.g. save key=draft critical=true)", line: line)
        }
        return actions
    }

    private static func expectNoArguments(_ words: [String], _ name: String) throws {
        if words.count > 1 { throw ScenarioError(.syntax, "'\(name)' takes no arguments; found '\(words[1])'", near: words[1]) }
    }

    // MARK: - Steps

    private func parseStep(keyword: String, _ text: String, line: Int) throws -> Step {
        let timeText = String(text.prefix { !$0.isWhitespace })
        guard let time = TimeText.parseDuration(timeText) else {
            if TimeText.isOutOfRange(timeText) {
                throw ScenarioError(.syntax, "time '\(timeText)' is too large: times are nanoseconds in 64 bits, at most 18446744073.7s (about 584 years)", near: timeText)
            }
            throw ScenarioError(.syntax, "expected a time after '\(keyword)' (e.g. 2.5s or 300ms), found '\(timeText)'", near: timeText.isEmpty ? nil : timeText)
        }
        let commandText = String(text.dropFirst(timeText.count)).trimmed()
        let timing: Step.Timing = keyword == "at" ? .at(time) : .after(time)
        return Step(timing, try parseCommand(commandText, line: line), line: line, text: commandText)
    }

    private func parseCommand(_ text: String, line: Int) throws -> Command {
        var cursor = try TokenCursor(text)
        guard let verb = cursor.peek() else {
            throw ScenarioError(.syntax, "expected a command after the time (push, pop, present, background, …)")
        }
        if cursor.peek(1) == "does" {
            let name = try cursor.name("controller name")
            let afterName = String(text.dropFirst(name.count)).trimmed()
            return .does(name, try Self.parseActions(String(afterName.dropFirst("does".count)), line: line))
        }
        cursor.advance()
        let command: Command
        switch verb {
        case "launch": command = .launch
        case "root": command = .root(try cursor.spec())
        case "create": command = .create(try cursor.spec())
        case "release": command = .release(try cursor.name("controller name"))
        case "push":
            let spec = try cursor.spec()
            try cursor.expect("on")
            command = .push(spec, on: try cursor.name("navigation controller"), animated: cursor.animated())
        case "pop": command = .pop(try cursor.name("navigation controller"), animated: cursor.animated())
        case "pop-to-root": command = .popToRoot(try cursor.name("navigation controller"), animated: cursor.animated())
        case "set-stack":
            let nav = try cursor.name("navigation controller")
            try cursor.expect("to")
            var specs = [try cursor.spec()]
            while cursor.peek() == "," {
                cursor.advance()
                specs.append(try cursor.spec())
            }
            command = .setStack(nav, specs, animated: cursor.animated())
        case "begin-swipe-back": command = .beginSwipeBack(try cursor.name("navigation controller"))
        case "finish-swipe-back": command = .finishSwipeBack(try cursor.name("navigation controller"))
        case "cancel-swipe-back": command = .cancelSwipeBack(try cursor.name("navigation controller"))
        case "present":
            let spec = try cursor.spec()
            try cursor.expect("from")
            let presenter = try cursor.name("presenting controller")
            var style = ModalPresentationStyle.automatic
            if cursor.peek() == "as" {
                cursor.advance()
                let name = try cursor.name("presentation style")
                guard let parsed = ModalPresentationStyle(name: name) else {
                    let all = ModalPresentationStyle.allCases.map(\.name).joined(separator: ", ")
                    throw ScenarioError(.syntax, "expected a presentation style (\(all)), found '\(name)'\(Self.suggestion(for: name, among: ModalPresentationStyle.allCases.map(\.name)))", near: name)
                }
                style = parsed
            }
            command = .present(spec, from: presenter, style: style, animated: cursor.animated())
        case "dismiss": command = .dismiss(try cursor.name("presented controller"), animated: cursor.animated())
        case "swipe-down": command = .swipeDown(try cursor.name("presented sheet"))
        case "select-tab":
            let tabs = try cursor.name("tab bar controller")
            let target = try cursor.name("tab index or child name")
            command = .selectTab(tabs, Int(target).map(TabSelector.index) ?? .name(target))
        case "scroll", "begin-scroll":
            let pages = try cursor.name("page view controller")
            try cursor.expect("to")
            let spec = try cursor.spec()
            command = verb == "scroll" ? .scroll(pages, to: spec) : .beginScroll(pages, to: spec)
        case "finish-scroll": command = .finishScroll(try cursor.name("page view controller"))
        case "cancel-scroll": command = .cancelScroll(try cursor.name("page view controller"))
        case "add-child", "add-view":
            let spec = try cursor.spec()
            try cursor.expect("to")
            let parent = try cursor.name("parent controller")
            command = verb == "add-child" ? .addChild(spec, to: parent) : .addView(spec, to: parent)
        case "remove-child": command = .removeChild(try cursor.name("child controller"))
        case "background": command = .background
        case "foreground": command = .foreground
        case "resign-active": command = .resignActive
        case "become-active": command = .becomeActive
        case "terminate": command = .terminate
        case "memory-warning": command = .memoryWarning
        case "rotate":
            try cursor.expect("to")
            let text = try cursor.name("size")
            guard let size = Self.size(text) else {
                throw ScenarioError(.syntax, "expected a size WIDTHxHEIGHT after 'rotate to' (e.g. 844x390), found '\(text)'", near: text)
            }
            command = .rotate(size)
        case "layout": command = .layout(try cursor.name("controller name"))
        default:
            if let second = cursor.peek(), Self.distance(second, "does") == 1 {
                throw ScenarioError(.syntax, "expected a command or 'NAME does ACTION'; found '\(verb) \(second)' (did you mean '\(verb) does'?)", near: second)
            }
            throw ScenarioError(
                .syntax,
                "unknown command '\(verb)'\(Self.suggestion(for: verb, among: Self.commandNames)); expected one of launch, root, create, release, push, pop, pop-to-root, set-stack, begin-/finish-/cancel-swipe-back, present, dismiss, swipe-down, select-tab, scroll, begin-/finish-/cancel-scroll, add-child, remove-child, add-view, NAME does …, background, foreground, resign-active, become-active, terminate, memory-warning, rotate, layout",
                near: verb
            )
        }
        if let extra = cursor.peek() {
            let hint = ["animated", "unanimated"].contains(where: { Self.distance(extra, $0) <= 2 }) && !["animated", "unanimated"].contains(extra)
                ? " (did you mean 'animated' or 'unanimated'?)" : ""
            throw ScenarioError(.syntax, "unexpected '\(extra)' at the end of the '\(verb)' command\(hint)", near: extra)
        }
        return command
    }

    // MARK: - Text helpers

    static func strippingComment(_ line: String) -> String {
        var inQuotes = false
        var result = ""
        for character in line {
            if character == "\"" { inQuotes.toggle() }
            if character == "#", !inQuotes { break }
            result.append(character)
        }
        return result
    }

    static func splitOutsideQuotes(_ text: String, on separator: Character) throws -> [String] {
        var parts: [String] = []
        var current = ""
        var inQuotes = false
        for character in text {
            if character == "\"" { inQuotes.toggle() }
            if character == separator, !inQuotes {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if inQuotes { throw ScenarioError(.syntax, "unterminated quoted string") }
        parts.append(current)
        return parts
    }

    /// Whitespace-separated words; a quoted part keeps its spaces (and its quotes).
    static func words(_ text: String) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inQuotes = false
        for character in text {
            if character == "\"" { inQuotes.toggle() }
            if character.isWhitespace, !inQuotes {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if inQuotes { throw ScenarioError(.syntax, "unterminated quoted string") }
        if !current.isEmpty { words.append(current) }
        return words
    }

    static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.first, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isLetter || $0.isNumber || "_.-<>".contains($0) }
    }

    static func size(_ text: String) -> Size? {
        let parts = text.split(separator: "x")
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]), width > 0, height > 0,
            width.isFinite, height.isFinite
        else {
            return nil
        }
        return Size(width: width, height: height)
    }
}

extension String {
    func trimmed() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
