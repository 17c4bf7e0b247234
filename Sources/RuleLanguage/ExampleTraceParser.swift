import TraceModel

/// Reads the event lines of a rule's example: one event per line, written as `lifetrace events` and `lifetrace
/// rules ID` print them (`Event.summary`), optionally after the time and ordinal columns of those listings
/// (`0.020 s  #2`), so that a listing can be pasted. Without a time, each event comes 10 ms after the previous
/// one; `wait 5s` moves the clock on.
///
/// ```
/// NoteEditorViewController#2 viewWillDisappear begin
/// mark save key=draft critical=true @ NoteEditorViewController#2
/// NoteEditorViewController#2 viewWillDisappear end
/// interactiveTransitionCancel container=UINavigationController#3 NoteEditorViewController#2,NotesListViewController#1
/// sceneDidEnterBackground(_:) scene=main
/// FeedView.onAppear host=FeedHostingController#4
/// recorder run started Notes[2231]
/// ```
struct ExampleTraceParser {
    private let file: String
    private var events: [Event] = []
    private var now: UInt64 = 0
    private var types: [UInt32: String] = [:]
    static let step: UInt64 = 10_000_000

    init(file: String) {
        self.file = file
    }

    /// The events of `lines` (with their line numbers).
    static func events(_ lines: [(number: Int, text: String)], file: String) throws(RuleFileError) -> [Event] {
        var parser = ExampleTraceParser(file: file)
        for (number, text) in lines { try parser.line(text, number: number) }
        return parser.events
    }

    private mutating func line(_ text: String, number: Int) throws(RuleFileError) {
        var words = RuleFileParser.words(text)
        guard !words.isEmpty else { return }
        let file = self.file
        func fail(_ word: (text: String, column: Int), _ message: String) -> RuleFileError {
            RuleFileError(SourceLocation(file: file, line: number, column: word.column), message)
        }
        var at: UInt64?
        if words.count >= 2, words[1].text == "s", let seconds = Double(words[0].text), seconds >= 0, seconds < 1e9 {
            at = UInt64((seconds * 1e9).rounded())
            words.removeFirst(2)
            if let first = words.first, first.text.hasPrefix("#"), UInt64(first.text.dropFirst()) != nil { words.removeFirst() }
        }
        guard let head = words.first else { return }
        if head.text == "wait" {
            guard words.count == 2, let duration = Self.duration(words[1].text) else {
                throw fail(words.count > 1 ? words[1] : head, "expected a duration after 'wait' (for example wait 5s)")
            }
            now &+= duration
            return
        }
        let payload = try payload(words, fail: fail)
        if let at {
            guard at >= now || events.isEmpty else { throw fail(head, "time \(TimeText.seconds(at)) is before the previous event's (\(TimeText.seconds(now)))") }
            now = at
        } else if !events.isEmpty {
            now &+= Self.step
        }
        events.append(Event(timestamp: now, payload))
    }

    static func duration(_ text: String) -> UInt64? {
        let digits = text.prefix { $0.isNumber || $0 == "." }
        guard let value = Double(digits), let scale = RuleLexer.durationUnits[String(text.dropFirst(digits.count))] else { return nil }
        let nanoseconds = value * scale
        return nanoseconds >= 0 && nanoseconds < 1e18 ? UInt64(nanoseconds.rounded()) : nil
    }

    private mutating func controller(_ word: (text: String, column: Int), fail: (_ word: (text: String, column: Int), _ message: String) -> RuleFileError) throws(RuleFileError) -> ControllerRef {
        guard let hash = word.text.lastIndex(of: "#"), let serial = UInt32(word.text[word.text.index(after: hash)...]), hash != word.text.startIndex else {
            throw fail(word, "expected a controller written TYPE#SERIAL (NoteEditorViewController#2), found '\(word.text)'")
        }
        let type = String(word.text[..<hash])
        if let known = types[serial], known != type {
            throw fail(word, "controller #\(serial) is \(known) earlier in this example, not \(type)")
        }
        types[serial] = type
        return ControllerRef(serial: serial, typeName: type)
    }

    private mutating func payload(_ words: [(text: String, column: Int)], fail: (_ word: (text: String, column: Int), _ message: String) -> RuleFileError) throws(RuleFileError) -> EventPayload {
        let head = words[0]
        var rest = Array(words.dropFirst())
        func phase() -> Phase {
            if let first = rest.first, let phase = Phase(name: first.text) {
                rest.removeFirst()
                return phase
            }
            return .instant
        }
        func options() throws(RuleFileError) -> (named: [String: (text: String, column: Int)], plain: [(text: String, column: Int)]) {
            var named: [String: (String, Int)] = [:]
            var plain: [(String, Int)] = []
            for word in rest {
                if let equals = word.text.firstIndex(of: "=") {
                    named[String(word.text[..<equals])] = (String(word.text[word.text.index(after: equals)...]), word.column)
                } else {
                    plain.append(word)
                }
            }
            return (named, plain)
        }
        if head.text == "mark" {
            guard let name = rest.first else { throw fail(head, "expected a mark name after 'mark'") }
            rest.removeFirst()
            let markPhase = phase()
            var owner: ControllerRef?
            if let at = rest.firstIndex(where: { $0.text == "@" }) {
                guard at + 1 < rest.count else { throw fail(rest[at], "expected a controller after '@'") }
                owner = try controller(rest[at + 1], fail: fail)
                rest.removeSubrange(at...)
            }
            var fields: [MarkField] = []
            for word in rest {
                guard let equals = word.text.firstIndex(of: "="), equals != word.text.startIndex else {
                    throw fail(word, "expected FIELD=VALUE or '@ CONTROLLER' in a mark, found '\(word.text)'")
                }
                let value = String(word.text[word.text.index(after: equals)...])
                fields.append(MarkField(String(word.text[..<equals]), FieldValue(parsing: value)))
            }
            return .mark(MarkEvent(name.text, markPhase, controller: owner, fields: fields))
        }
        if head.text == "recorder" || head.text == "run" {
            let process = rest.last?.text ?? "App[1]"
            return .recorder(.runStarted(process: process))
        }
        if head.text.contains("#"), let second = rest.first, !second.text.contains("=") {
            let ref = try controller(head, fail: fail)
            let name = second.text.hasSuffix("()") ? String(second.text.dropLast(2)) : second.text
            guard let callback = Vocabulary.callbacks[name] else {
                throw fail(second, "unknown callback '\(second.text)'\(Vocabulary.suggestion(name, among: Array(Vocabulary.callbacks.keys)))")
            }
            rest.removeFirst()
            let callbackPhase = phase()
            let (named, plain) = try options()
            if let extra = plain.first { throw fail(extra, "unexpected '\(extra.text)' after the callback") }
            var animated: Bool? = callback.takesAnimated ? true : nil
            if let value = named["animated"] { animated = value.text == "true" }
            var parent: ParentArgument?
            if let value = named["parent"] { parent = value.text == "nil" ? ParentArgument.none : .controller(try controller(value, fail: fail)) }
            return .callback(CallbackEvent(callback, callbackPhase, controller: ref, animated: animated, parent: parent))
        }
        if head.text.hasSuffix(".onAppear") || head.text.hasSuffix(".onDisappear") {
            let dot = head.text.lastIndex(of: ".")!
            let action: SwiftUIEvent.Action = head.text.hasSuffix(".onAppear") ? .onAppear : .onDisappear
            let (named, _) = try options()
            let host = try named["host"].map { (word) throws(RuleFileError) in try controller(word, fail: fail) }
            return .swiftUI(SwiftUIEvent(action, view: String(head.text[..<dot]), host: host))
        }
        if let operation = Vocabulary.containerOperations[head.text] {
            let containerPhase = phase()
            let (named, plain) = try options()
            let container = try named["container"].map { (word) throws(RuleFileError) in try controller(word, fail: fail) }
            var controllers: [ControllerRef] = []
            for word in plain {
                var column = word.column
                for part in word.text.split(separator: ",") {
                    controllers.append(try controller((String(part), column), fail: fail))
                    column += part.count + 1
                }
            }
            var style: ModalPresentationStyle?
            if let value = named["style"] {
                guard let known = ModalPresentationStyle(name: value.text) else { throw fail(value, "unknown presentation style '\(value.text)'") }
                style = known
            }
            return .container(ContainerEvent(operation, containerPhase, container: container, controllers: controllers, style: style))
        }
        let appName = head.text.hasSuffix("(_:)") ? String(head.text.dropLast(4)) : head.text
        if let app = Self.appMethods[appName] ?? (head.text == "app" ? rest.first.flatMap { Vocabulary.appEvents[$0.text] } : nil) {
            if head.text == "app" { rest.removeFirst() }
            let appPhase = phase()
            let (named, _) = try options()
            var scene = named["scene"]?.text
            if scene == nil, app.scene == true { scene = "main" }
            return .app(AppEvent(app.transition, appPhase, scene: scene))
        }
        let known = Array(Vocabulary.containerOperations.keys) + Array(Self.appMethods.keys) + ["mark", "wait", "recorder", "app"]
        throw fail(head, "unknown event '\(head.text)'\(Vocabulary.suggestion(appName, among: known)): expected TYPE#SERIAL CALLBACK, mark NAME …, a container operation, an app or scene delegate method, VIEW.onAppear, recorder run started PROCESS or wait DURATION")
    }

    /// App and scene delegate methods as `Event.summary` writes them, without `(_:)`, and the short names.
    static let appMethods: [String: (transition: AppTransition, scene: Bool?)] = {
        var names: [String: (AppTransition, Bool?)] = [:]
        // Scene methods first: where both delegates share a method (applicationWillTerminate), the app's wins.
        for transition in AppTransition.allCases { names[String(transition.sceneMethodName.prefix { $0 != "(" })] = (transition, true) }
        for transition in AppTransition.allCases { names[String(transition.applicationMethodName.prefix { $0 != "(" })] = (transition, false) }
        names["application"] = (.didFinishLaunching, false)
        for (name, value) in Vocabulary.appEvents where names[name] == nil { names[name] = value }
        return names
    }()
}
