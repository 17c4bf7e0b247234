import TraceModel

/// A controller as a line names it, before it gets a serial: a type name and an optional instance label.
struct ControllerName: Sendable, Hashable {
    var typeName: String
    var label: String?
    /// How the name was written: a bracketed tag, an Objective-C method, `Class.method`, or a bare word.
    var isExplicit: Bool
    /// The instance's address when the line prints the object (`<MyApp.DetailViewController: 0x7fa1c2d04a10>`):
    /// two addresses are two instances.
    var address: UInt64? = nil
}

/// What one console line says, before times and serials are assigned.
struct RecognizedLine: Sendable {
    var name: LifecycleName
    var phase: Phase
    /// The controller named on the line, or `nil` when the line names none.
    var controller: ControllerName?
    var animated: Bool?
    /// For `willMove(toParent:)` / `didMove(toParent:)`: `.some(nil)` when the line says `nil`, the parent's
    /// type name when it names one.
    var parent: ControllerName??
    /// The SwiftUI view name for `onAppear` / `onDisappear`.
    var viewName: String?
    /// The controller a container call names as its argument: the presented one of `present(_:animated:)`, the
    /// pushed one of `pushViewController(_:animated:)`, the child of `addChild(_:)`.
    var argument: ControllerName?
}

/// Reads the lifecycle callback, the controller and the phase from a line's message.
///
/// Works on the line's Unicode scalars (see `LineScalars`); a word is hashed and looked up only when its first
/// letter and length are those of a lifecycle name (`LifecycleVocabulary.mayBeName`), so most words cost one pass
/// over their scalars and no allocation.
enum LineRecognizer {
    /// Finds the first lifecycle name in `chars[from...]` and what surrounds it.
    static func recognize(_ chars: LineChars, from start: Int) -> RecognizedLine? {
        guard let token = findToken(chars, from: start) else {
            return recognizePhrase(chars, from: start) ?? systemMessage(chars, from: start)
        }
        var controller = controllerBefore(chars, messageStart: start, tokenStart: token.start)
        let takesArgument = takesControllerArgument(token.name)
        var subjectFollows = false
        if controller == nil {
            controller = controllerAfter(chars, tokenEnd: token.end, selectorColon: token.endsWithColon)
            if takesArgument, let after = controller {
                // What follows a method that takes a controller is that argument, not the subject
                // (`willMoveToParentViewController: <Menu: 0x…>`, `present(_:animated:) <MyApp.Detail: 0x…>`),
                // except `print(#function, self)` after a Swift call: `willMove(toParent:) <MyApp.Child: 0x…>`
                // (the argument, an optional, prints as `Optional(…)` or `nil`).
                let isSwiftCall = token.nameEnd < chars.count && chars[token.nameEnd] == "("
                if isSwiftCall, after.address != nil, !isContainer(token.name) {
                    subjectFollows = true
                } else {
                    controller = nil
                }
            }
        } else if controller?.address == nil, let printed = printedObject(after: token.end, in: chars, typeName: controller?.typeName) {
            // `-[DetailViewController viewDidLoad] <DetailViewController: 0x7fa1…>`: the controller's own
            // description later on the line gives its address.
            controller?.address = printed.address
        }
        var parent: ControllerName??
        var argument: ControllerName?
        if case .callback(let callback) = token.name, callback == .willMoveToParent || callback == .didMoveToParent {
            // The parent is written inside the Swift call (`willMove(toParent: nil)`) or after the name
            // (`didMove(toParent:) Parent`, `-[Child willMoveToParentViewController:] (null)`); an object printed
            // after the call that is the controller itself is not its parent.
            parent = token.argument.flatMap { parentArgument(chars, from: $0.lowerBound, end: $0.upperBound) }
                ?? (subjectFollows ? nil : parentArgument(chars, from: token.end, end: chars.count))
        } else if takesArgument {
            argument = relationArgument(chars, token)
        } else if case .method(let method) = token.name, !method.isControllerMethod {
            // A delegate's method often prints the controller it is about after the name
            // (`<UINavigationController: 0x…> willShowViewController <A: 0x…>`).
            argument = relationArgument(chars, token)
        }
        var viewName: String?
        if case .swiftUI = token.name {
            // The name before `onAppear` is the SwiftUI view's; a console line does not say which host it is in.
            viewName = controller?.typeName
            controller = nil
        }
        return RecognizedLine(
            name: token.name, phase: phase(chars, after: token.end), controller: controller,
            animated: animated(chars, from: start) ?? animatedValue(chars, afterName: token.nameEnd), parent: parent,
            viewName: viewName, argument: argument)
    }

    /// Whether the method takes a controller as its argument (which a line may print after the name).
    private static func takesControllerArgument(_ name: LifecycleName) -> Bool {
        switch name {
        case .callback(let callback): callback == .willMoveToParent || callback == .didMoveToParent
        case .container(let operation): operation == .present || operation == .push || operation == .addChild
        default: false
        }
    }

    private static func isContainer(_ name: LifecycleName) -> Bool {
        if case .container = name { return true }
        return false
    }

    /// The controller passed to a container call: the first argument inside the Swift parentheses when it is a
    /// value, not a label (`present(DetailViewController(), animated: true)`), else what follows the call
    /// (`pushViewController(_:animated:) <MyApp.Detail: 0x…>`, `presentViewController:animated:completion:
    /// Settings`): a type name or a printed object, as for a parent. `nil` when none is written.
    private static func relationArgument(_ chars: LineChars, _ token: Token) -> ControllerName? {
        if token.nameEnd < chars.count, chars[token.nameEnd] == "(" {
            var end = token.nameEnd + 1
            var depth = 0
            var hasLabel = false
            while end < token.end - 1 {
                let char = chars[end]
                if char == "(" || char == "<" { depth += 1 }
                if char == ")" || char == ">" { depth -= 1 }
                if depth == 0, char == "," { break }
                if depth == 0, char == ":" { hasLabel = true }
                end += 1
            }
            if !hasLabel, case .some(.some(let name)) = parentArgument(chars, from: token.nameEnd + 1, end: end) { return name }
        }
        if case .some(.some(let name)) = parentArgument(chars, from: token.end, end: chars.count) { return name }
        return nil
    }

    /// The controller a non-callback line names explicitly (`[Tag] …`, `-[Class …]`, `Class.method`,
    /// `<Module.Class: 0x…> …`, or a leading word that is a known controller or ends in `Controller`), for
    /// attributing marks.
    static func namedController(_ chars: LineChars, from start: Int, known: (ControllerName) -> Bool) -> ControllerName? {
        if let objc = objectiveCClass(chars, from: start, before: chars.count) { return objc }
        guard start < chars.count else { return nil }
        if chars[start] == "[" {
            if let close = firstIndex(of: "]", in: chars, from: start) {
                let tag = trimmed(chars, (start + 1)..<close)
                if !tag.isEmpty { return ControllerName(typeName: tag, label: nil, isExplicit: true) }
            }
            return nil
        }
        if chars[start] == "<", let close = firstIndex(of: ">", in: chars, from: start),
           let printed = printedObject(chars, open: start, close: close), printed.address != nil {
            return printed
        }
        var end = start
        while end < chars.count, chars[end].isIdentifierCharacter || chars[end] == "." { end += 1 }
        guard end > start else { return nil }
        var wordEnd = end
        var label: String?
        if end < chars.count, chars[end] == "<", let close = firstIndex(of: ">", in: chars, from: end) {
            label = chars.text((end + 1)..<close)
        }
        if chars[wordEnd - 1] == "." { wordEnd -= 1 }
        if label == nil, let dot = lastIndex(of: ".", in: chars, start..<wordEnd) {
            // `Class.method` form: the class is the part before the last dot.
            wordEnd = dot
        }
        var wordStart = start
        if let dot = lastIndex(of: ".", in: chars, start..<wordEnd) { wordStart = dot + 1 }
        guard wordStart < wordEnd, chars[wordStart].isLetter || chars[wordStart] == "_" else { return nil }
        let word = chars.text(wordStart..<wordEnd)
        let candidate = ControllerName(typeName: word, label: label, isExplicit: false)
        if known(candidate) || word.hasSuffix("Controller") || label != nil { return candidate }
        return nil
    }

    // MARK: - The lifecycle token

    private struct Token {
        var name: LifecycleName
        var start: Int
        /// The end of the name itself, before `(_:)` or `:`.
        var nameEnd: Int
        var end: Int
        var endsWithColon: Bool
        /// Inside the Swift parentheses, what follows the first label's colon (` nil` in `(toParent: nil)`),
        /// when it is not empty.
        var argument: Range<Int>?
    }

    private static func findToken(_ chars: LineChars, from start: Int) -> Token? {
        let count = chars.count
        var index = start
        while index < count {
            let scalar = chars[index]
            // A word starts after a non-identifier character, or where ASCII follows CJK text (Chinese, Japanese
            // and Korean prose has no spaces: `会执行didReceiveMemoryWarning`).
            guard scalar.isIdentifierStart,
                  index == 0 || !chars[index - 1].isIdentifierCharacter || (scalar.value < 0x80 && chars[index - 1].isCJK)
            else {
                index += 1
                continue
            }
            // The word ends where CJK text and ASCII meet (`loadView会在页面`, `会执行didReceiveMemoryWarning`). Only
            // a word whose first letter and length some name has is hashed and looked up.
            var end = index + 1
            var previous = scalar
            while end < count, chars[end].isIdentifierCharacter, !Self.isScriptBoundary(previous, chars[end]) {
                previous = chars[end]
                end += 1
            }
            guard LifecycleVocabulary.mayBeName(first: scalar, length: end - index) else {
                index = end
                continue
            }
            let hash = LifecycleVocabulary.hash(of: chars, index..<end)
            guard let name = LifecycleVocabulary.selector(hash: hash, chars, index..<end)
                      ?? LifecycleVocabulary.name(hash: hash, length: end - index, chars, index..<end),
                  !isInsideURL(chars, wordStart: index)
            else {
                index = end
                continue
            }
            let tokenEnd = skipArguments(chars, from: end)
            let colon = end < count && chars[end] == ":"
            var argument: Range<Int>?
            if end < count, chars[end] == "(", tokenEnd.end > end + 1,
               let labelColon = firstIndex(of: ":", in: chars, from: end + 1, before: tokenEnd.end - 1) {
                let value = (labelColon + 1)..<(tokenEnd.end - 1)
                if chars[value].contains(where: { !$0.isSpace }) { argument = value }
            }
            return Token(
                name: name, start: index, nameEnd: end, end: tokenEnd.end, endsWithColon: colon && tokenEnd.endsInBareColon,
                argument: argument)
        }
        return nil
    }

    /// Whether the word at `wordStart` is part of a URL: the run of non-space characters it is in has `://`
    /// before it (`https://android.benigumo.com/20240328/onappear-onchange-task` names no callback).
    private static func isInsideURL(_ chars: LineChars, wordStart: Int) -> Bool {
        var index = wordStart
        while index >= 3, !chars[index - 1].isSpace {
            if chars[index - 1] == "/", chars[index - 2] == "/", chars[index - 3] == ":" { return true }
            index -= 1
        }
        return false
    }

    /// Whether a word ends between `previous` and `next`: CJK text next to ASCII, either way.
    @inline(__always)
    private static func isScriptBoundary(_ previous: Unicode.Scalar, _ next: Unicode.Scalar) -> Bool {
        guard (previous.value | next.value) >= 0x80 else { return false }
        return (next.value < 0x80 && previous.value >= 0x80 && previous.isCJK) || (previous.value < 0x80 && next.value >= 0x80 && next.isCJK)
    }

    /// Skips `(_:)`, `(toParent:)`, `:`, `:bundle:` after a name.
    private static func skipArguments(_ chars: LineChars, from start: Int) -> (end: Int, endsInBareColon: Bool) {
        var index = start
        if index < chars.count, chars[index] == "(" {
            var depth = 0
            while index < chars.count {
                if chars[index] == "(" { depth += 1 }
                if chars[index] == ")" {
                    depth -= 1
                    if depth == 0 { return (index + 1, false) }
                }
                index += 1
            }
            return (start, false)
        }
        // Objective-C selector parts: `:`, `:bundle:`, `ToSize:withTransitionCoordinator:`.
        var sawBareColon = false
        while index < chars.count, chars[index] == ":" {
            index += 1
            sawBareColon = true
            var end = index
            while end < chars.count, chars[end].isIdentifierCharacter { end += 1 }
            if end > index, end < chars.count, chars[end] == ":" {
                index = end
            } else {
                break
            }
        }
        return (index, sawBareColon)
    }

    /// UIKit's own console message when the app receives a memory warning, `Received memory warning.` (as it
    /// stands in `Tests/Fixtures/public/devtang-ios5-containment-memory-warning.log`, before the hidden children's
    /// viewDidUnload): the app's memory warning, as `applicationDidReceiveMemoryWarning` is.
    private static func systemMessage(_ chars: LineChars, from start: Int) -> RecognizedLine? {
        guard startsWith(chars, start, "Received memory warning") else { return nil }
        return RecognizedLine(name: .app(.didReceiveMemoryWarning, isScene: false), phase: .instant)
    }

    /// A callback printed in words: `view will appear`, `A  view did  appear` (columns aligned with extra
    /// spaces), or glued to a type name that ends in `View`: `CurrentView Will Disappear` (the controller is
    /// `CurrentView`). Words match case-insensitively, as whole words, with any run of spaces between them.
    private static func recognizePhrase(_ chars: LineChars, from start: Int) -> RecognizedLine? {
        // Every phrase contains "view": a line without it (most lines that reach here) needs no further look.
        guard containsView(chars, from: start) else { return nil }
        var index = start
        while index < chars.count {
            defer { index += 1 }
            // Every phrase starts with `view` or `load`.
            guard index + 4 <= chars.count,
                  matches(chars, index..<(index + 4), "view") || matches(chars, index..<(index + 4), "load") else { continue }
            for entry in LifecycleVocabulary.phraseWords {
                guard let end = matchWords(entry.words, in: chars, at: index) else { continue }
                if end < chars.count, chars[end].isIdentifierCharacter { continue }
                var line = RecognizedLine(name: .callback(entry.callback), phase: .instant)
                if index > start, chars[index - 1].isIdentifierCharacter {
                    // Only `…View` glued to the phrase's `view`, with the camel-case capital: `CurrentView`.
                    guard entry.words[0] == "view", chars[index] == "V" else { continue }
                    var nameStart = index
                    while nameStart > start, chars[nameStart - 1].isIdentifierCharacter { nameStart -= 1 }
                    guard chars[nameStart].isIdentifierStart else { continue }
                    let typeName = chars.text(nameStart..<(index + 4))
                    line.controller = ControllerName(typeName: typeName, label: nil, isExplicit: false)
                } else {
                    line.controller = controllerBefore(chars, messageStart: start, tokenStart: index)
                }
                line.phase = phase(chars, after: end)
                return line
            }
        }
        return nil
    }

    /// The end of `words` (lowercase) written at `index`, separated by one or more spaces, or `nil`.
    private static func matchWords(_ words: [String], in chars: LineChars, at index: Int) -> Int? {
        var position = index
        for (number, word) in words.enumerated() {
            if number > 0 {
                guard position < chars.count, chars[position] == " " || chars[position] == "\t" else { return nil }
                while position < chars.count, chars[position] == " " || chars[position] == "\t" { position += 1 }
            }
            for expected in word.utf8 {
                guard position < chars.count, chars[position].asciiLowercased == UInt32(expected) else { return nil }
                position += 1
            }
        }
        return position
    }

    /// Whether `chars[start...]` contains `view` in any case.
    private static func containsView(_ chars: LineChars, from start: Int) -> Bool {
        firstIndexIgnoringCase(of: "view", in: chars, from: start) != nil
    }

    /// The first index from `start` where `word` (lowercase ASCII letters) is written in any case, or `nil`. A
    /// scalar that is no letter of `word` cannot be inside a match: where the last scalar of the window is none,
    /// the search moves past it.
    @inline(__always)
    private static func firstIndexIgnoringCase(of word: StaticString, in chars: LineChars, from start: Int) -> Int? {
        let length = word.utf8CodeUnitCount
        // Bit `n` set for the `n`th letter of the alphabet when `word` has it.
        var letters: UInt32 = 0
        for byte in UnsafeBufferPointer(start: word.utf8Start, count: length) { letters |= 1 << UInt32(byte - 0x61) }
        var index = start
        while index + length <= chars.count {
            // `| 0x20` lowercases an ASCII letter and turns no other scalar into one.
            let letter = (chars[index + length - 1].value | 0x20) &- 0x61
            if letter >= 26 || letters >> letter & 1 == 0 {
                index += length
            } else if matches(chars, index..<(index + length), word) {
                return index
            } else {
                index += 1
            }
        }
        return nil
    }

    // MARK: - Around the token

    /// Spaces and the separators `:|-–—>` and closing brackets `])` that may stand between a name and its phase
    /// (`-[SettingsViewController initWithCoder:] begin`, `Settings.viewDidLoad() end`).
    private static func isPhaseSeparator(_ char: Unicode.Scalar) -> Bool {
        switch char {
        case ":", "|", "-", "–", "—", ">", "]", ")": true
        default: char.isSpace
        }
    }

    /// `begin` or `end` (any case) after the name and its arguments (`viewWillDisappear begin`,
    /// `-[Class initWithCoder:] begin`, `Settings.viewDidLoad() end`, `[Tag] viewDidLoad END`, `view did load
    /// begin`); else an instant. Every line style reads its phase here, so an interval works in all of them.
    private static func phase(_ chars: LineChars, after start: Int) -> Phase {
        var index = start
        while index < chars.count, isPhaseSeparator(chars[index]) { index += 1 }
        var end = index
        while end < chars.count, chars[end].isLetter { end += 1 }
        if matches(chars, index..<end, "begin") { return .begin }
        if matches(chars, index..<end, "end") { return .end }
        return .instant
    }

    /// Whether `chars[range]` is `word` (lowercase ASCII) in any case.
    private static func matches(_ chars: LineChars, _ range: Range<Int>, _ word: StaticString) -> Bool {
        guard range.count == word.utf8CodeUnitCount else { return false }
        return word.withUTF8Buffer { bytes in
            var position = range.lowerBound
            for byte in bytes {
                guard chars[position].asciiLowercased == UInt32(byte) else { return false }
                position += 1
            }
            return true
        }
    }

    /// The `animated` flag as logs print it, anywhere from `start`: the word `animated` in any case (also the
    /// end of `isAnimated`), then spaces, `:`, `=` or `(`, then a value: `animated = YES`, `animated: true`,
    /// `animated=1`, `(animated: true)`, `animated=false`, `Animated: NO`. `nil` when no value follows.
    private static func animated(_ chars: LineChars, from start: Int) -> Bool? {
        var index = start
        while let found = firstIndexIgnoringCase(of: "animated", in: chars, from: index) {
            if found + 8 == chars.count || !chars[found + 8].isIdentifierCharacter {
                var rest = found + 8
                while rest < chars.count, chars[rest] == " " || chars[rest] == ":" || chars[rest] == "=" || chars[rest] == "(" { rest += 1 }
                return flag(chars, at: rest)
            }
            index = found + 1
        }
        return nil
    }

    /// The flag printed as the first argument right after a callback's name: `viewWillAppear: NO`,
    /// `viewDidAppear:YES`, `viewWillAppear(true)`, `viewDidDisappear(_:) false` (words only: a digit there is a
    /// page tag, `viewWillAppear:2`).
    private static func animatedValue(_ chars: LineChars, afterName end: Int) -> Bool? {
        var index = end
        if index < chars.count, chars[index] == "(", index + 3 < chars.count, chars[index + 1] == "_", chars[index + 2] == ":",
           chars[index + 3] == ")" {
            index += 4
        }
        while index < chars.count, chars[index] == " " || chars[index] == ":" || chars[index] == "(" { index += 1 }
        guard index < chars.count, chars[index].isLetter else { return nil }
        return flag(chars, at: index)
    }

    /// A Boolean as Swift, Objective-C or a format string prints it at `index`, as a whole word: `true`/`false`,
    /// `YES`/`NO` (any case), `1`/`0`; `nil` for anything else.
    private static func flag(_ chars: LineChars, at index: Int) -> Bool? {
        var end = index
        while end < chars.count, chars[end].isIdentifierCharacter { end += 1 }
        let word = index..<end
        if matches(chars, word, "yes") || matches(chars, word, "true") || matches(chars, word, "1") { return true }
        if matches(chars, word, "no") || matches(chars, word, "false") || matches(chars, word, "0") { return false }
        return nil
    }

    /// Whether `chars` has `prefix` (ASCII, case-sensitive) at `index`.
    private static func startsWith(_ chars: LineChars, _ index: Int, _ prefix: StaticString, limit: Int? = nil) -> Bool {
        guard index + prefix.utf8CodeUnitCount <= (limit ?? chars.count) else { return false }
        return prefix.withUTF8Buffer { bytes in
            var position = index
            for byte in bytes {
                guard chars[position].value == UInt32(byte) else { return false }
                position += 1
            }
            return true
        }
    }

    /// Spaces and the separators `:|-–—=])` before a parent argument.
    private static func isParentSeparator(_ char: Unicode.Scalar) -> Bool {
        switch char {
        case ":", "|", "-", "–", "—", "=", "]", ")": true
        default: char.isSpace
        }
    }

    /// The parent written after `willMove`/`didMove`: `nil`, `none`, `(null)` and `<null>` (NSLog of a nil `%@`)
    /// are a removal; a type name, `Module.Type`, `<Module.Type: 0x…>` (`print`/`%@` of the parent, whose
    /// address is kept) or `Optional(<Module.Type: 0x…>)` name the parent. Brackets and separators before it
    /// are skipped (`…:] (null)`). `nil` (no `Optional`) when nothing readable follows in `chars[from..<end]`.
    private static func parentArgument(_ chars: LineChars, from start: Int, end limit: Int) -> ControllerName?? {
        var index = start
        while index < limit, isParentSeparator(chars[index]) { index += 1 }
        if startsWith(chars, index, "(null)", limit: limit) || startsWith(chars, index, "<null>", limit: limit) { return .some(nil) }
        if startsWith(chars, index, "Optional(", limit: limit) {
            return parentArgument(chars, from: index + 9, end: limit)
        }
        if index < limit, chars[index] == "<" {
            // A printed object: `<Module.Type: 0x7fb2…>`.
            var end = index + 1
            while end < limit, chars[end].isIdentifierCharacter || chars[end] == "." { end += 1 }
            guard end < limit, chars[end] == ":" || chars[end] == ">",
                  let type = lastComponent(chars, (index + 1)..<end),
                  chars[type.lowerBound].isLetter || chars[type.lowerBound] == "_"
            else { return nil }
            var parent = ControllerName(typeName: chars.text(type), label: nil, isExplicit: true)
            if chars[end] == ":" { parent.address = address(chars, from: end + 1, before: limit) }
            return .some(parent)
        }
        var end = index
        while end < limit, chars[end].isIdentifierCharacter || chars[end] == "." { end += 1 }
        if equals(chars, index..<end, "nil") || equals(chars, index..<end, "none") { return .some(nil) }
        guard let type = lastComponent(chars, index..<end), chars[type.lowerBound].isUppercaseLetter else { return nil }
        return .some(ControllerName(typeName: chars.text(type), label: nil, isExplicit: true))
    }

    /// Whether `chars[range]` is exactly `word` (ASCII).
    private static func equals(_ chars: LineChars, _ range: Range<Int>, _ word: StaticString) -> Bool {
        range.count == word.utf8CodeUnitCount && startsWith(chars, range.lowerBound, word)
    }

    /// The last non-empty `.`-separated part of `chars[range]` (`Module.Type` → `Type`, `Type.` → `Type`), as
    /// `split(separator: ".").last` finds it; `nil` when there is none.
    private static func lastComponent(_ chars: LineChars, _ range: Range<Int>) -> Range<Int>? {
        var end = range.upperBound
        while end > range.lowerBound, chars[end - 1] == "." { end -= 1 }
        var start = end
        while start > range.lowerBound, chars[start - 1] != "." { start -= 1 }
        return start < end ? start..<end : nil
    }

    /// Spaces and the separators `:|-–—·»` between a controller's name and the lifecycle name.
    private static func isNameSeparator(_ char: Unicode.Scalar) -> Bool {
        switch char {
        case ":", "|", "-", "–", "—", "·", "»": true
        default: char.isSpace
        }
    }

    /// The controller written before the token: `-[Class sel]`, `Class.method`, `Class: method`,
    /// `Class | method`, `Class – method`, `[Tag] method`, `Class<0> method`, `<Module.Class: 0x…> method`.
    private static func controllerBefore(_ chars: LineChars, messageStart: Int, tokenStart: Int) -> ControllerName? {
        if let objc = objectiveCClass(chars, from: messageStart, before: tokenStart) { return objc }
        // A name glued to CJK prose before it (`会执行didReceiveMemoryWarning`): the prose is no controller's name.
        if tokenStart > messageStart, chars[tokenStart - 1].isIdentifierCharacter { return nil }
        var end = tokenStart
        let dotted = end > messageStart && chars[end - 1] == "."
        if dotted { end -= 1 }
        while end > messageStart, isNameSeparator(chars[end - 1]) { end -= 1 }
        guard end > messageStart else { return nil }
        let last = chars[end - 1]
        if last == "]" {
            var open = end - 1
            while open > messageStart, chars[open] != "[" { open -= 1 }
            guard chars[open] == "[" else { return nil }
            let tag = trimmed(chars, (open + 1)..<(end - 1))
            guard !tag.isEmpty, !tag.unicodeScalars.allSatisfy(\.isNumber) else { return nil }
            return ControllerName(typeName: tag, label: nil, isExplicit: true)
        }
        if last == ">" {
            var open = end - 1
            while open > messageStart, chars[open] != "<" { open -= 1 }
            guard chars[open] == "<" else { return nil }
            if firstIndex(of: ":", in: chars, from: open + 1, before: end - 1) != nil {
                // print(self): `<Module.Class: 0x7fb2c8d0a2b0>`.
                return printedObject(chars, open: open, close: end - 1)
            }
            var start = open
            while start > messageStart, chars[start - 1].isIdentifierCharacter { start -= 1 }
            guard start < open else { return nil }
            return ControllerName(typeName: chars.text(start..<open), label: chars.text((open + 1)..<(end - 1)), isExplicit: true)
        }
        guard var start = nameableWord(chars, endingAt: end, messageStart: messageStart) else { return nil }
        if !dotted {
            start = multiWordNameStart(chars, firstWordStart: start, messageStart: messageStart)
        }
        return ControllerName(typeName: chars.text(start..<end), label: nil, isExplicit: dotted)
    }

    /// The start of the word ending at `end` when it can be a name: identifier characters with a letter among
    /// them (`🚀Launch`, `Überblick`, `_Private`; not `42`, `✅` or the `_` of `scene(_:willConnectTo:options:)`),
    /// and not a lifecycle name or a phase word.
    private static func nameableWord(_ chars: LineChars, endingAt end: Int, messageStart: Int) -> Int? {
        var start = end
        var hasLetter = false
        while start > messageStart, chars[start - 1].isIdentifierCharacter {
            start -= 1
            if chars[start].isLetter { hasLetter = true }
        }
        guard start < end, hasLetter else { return nil }
        if LifecycleVocabulary.name(of: chars, start..<end) != nil { return nil }
        if matches(chars, start..<end, "begin") || matches(chars, start..<end, "end") { return nil }
        return start
    }

    /// Words a multi-word name does not start with: log levels and the prose around a name (`INFO`, `in`,
    /// `entering`), so `DEBUG Settings view controller viewDidLoad` names `Settings view controller`.
    private static let leadingNonNameWords: Set<String> = [
        "the", "a", "an", "in", "inside", "at", "on", "of", "from", "for", "to", "into", "now", "then", "and",
        "called", "calling", "call", "entering", "entered", "enter", "exiting", "leaving", "running", "log",
        "debug", "info", "notice", "warning", "warn", "error", "fault", "trace", "verbose", "default", "lifecycle",
        "method", "func", "function", "override", "super", "self",
    ]

    /// How many words a name written in words may have (`Settings view controller` has three).
    private static let maximumNameWords = 4

    /// A name written in words before a callback (`Settings view controller viewDidLoad called`, `Avatar view
    /// controller viewDidLoad called`): the words before the one at `firstWordStart`, separated by spaces only,
    /// from the start of the message or the last separator, at most `maximumNameWords` in all, without leading
    /// `leadingNonNameWords`. Two such names are two controllers; reading only the last word (`controller`)
    /// merged them.
    private static func multiWordNameStart(_ chars: LineChars, firstWordStart: Int, messageStart: Int) -> Int {
        var first = firstWordStart
        var words = 1
        while words < maximumNameWords {
            var gapStart = first
            while gapStart > messageStart, chars[gapStart - 1] == " " || chars[gapStart - 1] == "\t" { gapStart -= 1 }
            guard gapStart < first, gapStart > messageStart,
                  let wordStart = nameableWord(chars, endingAt: gapStart, messageStart: messageStart),
                  wordStart == messageStart || !(chars[wordStart - 1] == "." || chars[wordStart - 1] == "=")
            else { break }
            first = wordStart
            words += 1
        }
        // Leading prose and log levels are not part of the name; the last word always is.
        while first < firstWordStart {
            var end = first
            while end < chars.count, chars[end].isIdentifierCharacter { end += 1 }
            guard leadingNonNameWords.contains(chars.text(first..<end).lowercased()) else { break }
            first = end
            while first < firstWordStart, !chars[first].isIdentifierCharacter { first += 1 }
        }
        return first
    }

    /// `<Module.Class: 0x7fb2c8d0a2b0>` (or `<Class: 0x…; frame = …>`) between `open` (`<`) and `close` (`>`):
    /// the class without its module, and the address when one follows the colon.
    private static func printedObject(_ chars: LineChars, open: Int, close: Int) -> ControllerName? {
        guard let colon = firstIndex(of: ":", in: chars, from: open + 1, before: close),
              let type = lastComponent(chars, (open + 1)..<colon)
        else { return nil }
        var name = ControllerName(typeName: chars.text(type), label: nil, isExplicit: true)
        name.address = address(chars, from: colon + 1, before: close)
        return name
    }

    /// `0x7fb2c8d0a2b0` after optional spaces in `chars[from..<limit]`, ending at a non-hex character.
    private static func address(_ chars: LineChars, from start: Int, before limit: Int) -> UInt64? {
        var index = start
        while index < limit, chars[index] == " " { index += 1 }
        guard index + 2 < limit, chars[index] == "0", chars[index + 1] == "x" || chars[index + 1] == "X" else { return nil }
        index += 2
        var value: UInt64 = 0
        var digits = 0
        while index < limit, chars[index].isASCIIHexDigit {
            guard digits < 16 else { return nil }
            let v = chars[index].value
            let digit = v <= 0x39 ? v - 0x30 : (v | 0x20) - 0x61 + 10
            value = value << 4 | UInt64(digit)
            digits += 1
            index += 1
        }
        guard digits > 0, index == limit || !chars[index].isIdentifierCharacter else { return nil }
        return value
    }

    /// A printed object `<Module.Class: 0x…>` after the token: the first one when `typeName` is `nil`, else
    /// the first one of that class, with its address.
    private static func printedObject(after start: Int, in chars: LineChars, typeName: String?) -> ControllerName? {
        var index = start
        while let open = firstIndex(of: "<", in: chars, from: index) {
            guard let close = firstIndex(of: ">", in: chars, from: open) else { return nil }
            if let printed = printedObject(chars, open: open, close: close), printed.address != nil,
               typeName == nil || printed.typeName == typeName {
                return printed
            }
            index = close
        }
        return nil
    }

    /// Words after `viewWillAppear: ` that are a value, a phase or a verb, not a controller's name.
    private static let notNames: Set<String> = [
        "yes", "no", "true", "false", "animated", "nil", "null", "begin", "end", "called", "start", "started",
        "finished", "done", "self",
    ]

    /// `viewWillAppear:2` (a paging library's page tag), `viewDidLoad 0D2C7F77-A822-…` (an instance id), or
    /// `viewDidLoad() <MyApp.ViewController: 0x…>` (`print(#function, self)`).
    private static func controllerAfter(_ chars: LineChars, tokenEnd: Int, selectorColon: Bool) -> ControllerName? {
        var cursor = Cursor(chars: chars, index: tokenEnd)
        if selectorColon, let char = cursor.peek, !char.isSpace {
            let word = cursor.readWord()
            // `scene(_:willConnectTo:options:)` ends in `:)`: a bracket is no page tag.
            guard word.unicodeScalars.contains(where: \.isIdentifierCharacter), !notNames.contains(word.lowercased()) else { return nil }
            return ControllerName(typeName: "", label: word, isExplicit: true)
        }
        cursor.skipSpaces()
        let wordStart = cursor.index
        if cursor.peek == "<", let close = firstIndex(of: ">", in: chars, from: wordStart),
           let printed = printedObject(chars, open: wordStart, close: close), printed.address != nil {
            return printed
        }
        cursor.skipWord()
        let word = chars[wordStart..<cursor.index]
        if word.count >= 8, word.allSatisfy({ $0.isASCIIHexDigit || $0 == "-" }), word.contains(where: \.isNumber) {
            return ControllerName(typeName: "", label: word.text, isExplicit: true)
        }
        // `NSLog(@"viewWillAppear: %@", name)`: a bare selector, a space, then the name or page tag
        // (`viewWillAppear: Root`, `viewWillAppear: 2 UIDeviceRGBColorSpace …`); not a value such as `YES`.
        if selectorColon, !word.isEmpty, word.allSatisfy(\.isIdentifierCharacter) {
            let text = word.text
            if !notNames.contains(text.lowercased()) {
                return ControllerName(typeName: "", label: text, isExplicit: true)
            }
        }
        return nil
    }

    /// `-[Class selector]`, `+[Class(Category) selector]` whose selector starts before `limit`.
    private static func objectiveCClass(_ chars: LineChars, from start: Int, before limit: Int) -> ControllerName? {
        var index = start
        let stop = min(limit, chars.count)
        while index + 1 < stop {
            if chars[index + 1] == "[", chars[index] == "-" || chars[index] == "+" {
                var end = index + 2
                while end < chars.count, chars[end].isIdentifierCharacter { end += 1 }
                if end > index + 2 {
                    return ControllerName(typeName: chars.text((index + 2)..<end), label: nil, isExplicit: true)
                }
            }
            index += 1
        }
        return nil
    }

    // MARK: - Scanning helpers

    private static func firstIndex(of char: Unicode.Scalar, in chars: LineChars, from start: Int, before limit: Int? = nil) -> Int? {
        var index = start
        let end = limit ?? chars.count
        while index < end {
            if chars[index] == char { return index }
            index += 1
        }
        return nil
    }

    private static func lastIndex(of char: Unicode.Scalar, in chars: LineChars, _ range: Range<Int>) -> Int? {
        var index = range.upperBound
        while index > range.lowerBound {
            index -= 1
            if chars[index] == char { return index }
        }
        return nil
    }

    /// `chars[range]` as text without leading and trailing spaces and colons.
    private static func trimmed(_ chars: LineChars, _ range: Range<Int>) -> String {
        var start = range.lowerBound
        var end = range.upperBound
        while start < end, chars[start].isSpace || chars[start] == ":" { start += 1 }
        while end > start, chars[end - 1].isSpace || chars[end - 1] == ":" { end -= 1 }
        return chars.text(start..<end)
    }
}
