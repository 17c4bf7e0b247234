import TraceModel

/// A controller as a line names it, before it gets a serial: a type name and an optional instance label.
struct ControllerName: Sendable, Hashable {
    var typeName: String
    var label: String?
    /// How the name was written: a bracketed tag, an Objective-C method, `Class.method`, or a bare word.
    var isExplicit: Bool
}

/// What one console line says, before times and serials are assigned.
struct RecognizedLine {
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
}

/// Reads the lifecycle callback, the controller and the phase from a line's message.
enum LineRecognizer {
    /// Finds the first lifecycle name in `chars[from...]` and what surrounds it.
    static func recognize(_ chars: [Character], from start: Int) -> RecognizedLine? {
        guard let token = findToken(chars, from: start) else {
            return recognizePhrase(chars, from: start)
        }
        var line = RecognizedLine(name: token.name, phase: .instant)
        let rest = Array(chars[token.end...])
        line.phase = phase(after: rest)
        line.animated = animated(in: Array(chars[start...]))
        line.controller = controllerBefore(chars, messageStart: start, tokenStart: token.start)
            ?? controllerAfter(chars, tokenEnd: token.end, selectorColon: token.endsWithColon)
        if case .callback(let callback) = token.name, callback == .willMoveToParent || callback == .didMoveToParent {
            // The parent is written inside the Swift call (`willMove(toParent: nil)`) or after the name
            // (`didMove(toParent:) Parent`, `-[Child willMoveToParentViewController:] (null)`).
            line.parent = token.argument.flatMap { parentArgument(Array(chars[$0])) } ?? parentArgument(rest)
        }
        if case .swiftUI = token.name {
            // The name before `onAppear` is the SwiftUI view's; a console line does not say which host it is in.
            line.viewName = line.controller?.typeName
            line.controller = nil
        }
        return line
    }

    /// The controller a non-callback line names explicitly (`[Tag] …`, `-[Class …]`, `Class.method`, or a
    /// leading word that is a known controller or ends in `Controller`), for attributing marks.
    static func namedController(_ chars: [Character], from start: Int, known: (ControllerName) -> Bool) -> ControllerName? {
        if let objc = objectiveCClass(chars, from: start, before: chars.count) { return objc }
        let cursor = Cursor(chars: chars, index: start)
        if cursor.peek == "[" {
            if let close = chars[start...].firstIndex(of: "]") {
                let tag = String(chars[(start + 1)..<close]).trimmingSpacesAndPunctuation()
                if !tag.isEmpty { return ControllerName(typeName: tag, label: nil, isExplicit: true) }
            }
            return nil
        }
        var end = start
        while end < chars.count, chars[end].isIdentifierCharacter || chars[end] == "." { end += 1 }
        guard end > start else { return nil }
        var word = String(chars[start..<end])
        var label: String?
        if end < chars.count, chars[end] == "<", let close = chars[end...].firstIndex(of: ">") {
            label = String(chars[(end + 1)..<close])
        }
        if word.hasSuffix(".") { word.removeLast() }
        if let dot = word.lastIndex(of: "."), label == nil {
            // `Class.method` form: the class is the part before the last dot.
            word = String(word[..<dot])
        }
        if let dot = word.lastIndex(of: ".") { word = String(word[word.index(after: dot)...]) }
        guard let first = word.first, first.isLetter || first == "_" else { return nil }
        let candidate = ControllerName(typeName: word, label: label, isExplicit: false)
        if known(candidate) || word.hasSuffix("Controller") || label != nil { return candidate }
        return nil
    }

    // MARK: - The lifecycle token

    private struct Token {
        var name: LifecycleName
        var start: Int
        var end: Int
        var endsWithColon: Bool
        /// Inside the Swift parentheses, what follows the first label's colon (` nil` in `(toParent: nil)`),
        /// when it is not empty.
        var argument: Range<Int>?
    }

    private static func findToken(_ chars: [Character], from start: Int) -> Token? {
        var index = start
        while index < chars.count {
            guard chars[index].isIdentifierStart, index == 0 || !chars[index - 1].isIdentifierCharacter else {
                index += 1
                continue
            }
            var end = index
            while end < chars.count, chars[end].isIdentifierCharacter { end += 1 }
            // Only words as long as some lifecycle name are looked up (saves a lowercased copy of most words).
            guard end - index <= LifecycleVocabulary.longestName, LifecycleVocabulary.nameLengths.contains(end - index) else {
                index = end
                continue
            }
            if let name = LifecycleVocabulary.names[lowercasedWord(chars[index..<end])] {
                let tokenEnd = skipArguments(chars, from: end)
                let colon = end < chars.count && chars[end] == ":"
                var argument: Range<Int>?
                if end < chars.count, chars[end] == "(", tokenEnd.end > end + 1,
                   let labelColon = chars[(end + 1)..<(tokenEnd.end - 1)].firstIndex(of: ":") {
                    let value = (labelColon + 1)..<(tokenEnd.end - 1)
                    if chars[value].contains(where: { !$0.isWhitespace }) { argument = value }
                }
                return Token(
                    name: name, start: index, end: tokenEnd.end, endsWithColon: colon && tokenEnd.endsInBareColon,
                    argument: argument)
            }
            index = end
        }
        return nil
    }

    /// Skips `(_:)`, `(toParent:)`, `:`, `:bundle:` after a name.
    private static func skipArguments(_ chars: [Character], from start: Int) -> (end: Int, endsInBareColon: Bool) {
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

    /// A callback printed in words: `view will appear`, `A  view did  appear` (columns aligned with extra
    /// spaces), or glued to a type name that ends in `View`: `CurrentView Will Disappear` (the controller is
    /// `CurrentView`). Words match case-insensitively, as whole words, with any run of spaces between them.
    private static func recognizePhrase(_ chars: [Character], from start: Int) -> RecognizedLine? {
        // Every phrase contains "view": a line without it (most lines that reach here) needs no further look.
        guard containsView(chars, from: start) else { return nil }
        var index = start
        while index < chars.count {
            defer { index += 1 }
            guard chars[index] == "v" || chars[index] == "V" || chars[index] == "l" || chars[index] == "L" else { continue }
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
                    let typeName = String(chars[nameStart..<(index + 4)])
                    line.controller = ControllerName(typeName: typeName, label: nil, isExplicit: false)
                } else {
                    line.controller = controllerBefore(chars, messageStart: start, tokenStart: index)
                }
                line.phase = phase(after: Array(chars[end...]))
                return line
            }
        }
        return nil
    }

    /// The end of `words` (lowercase) written at `index`, separated by one or more spaces, or `nil`.
    private static func matchWords(_ words: [String], in chars: [Character], at index: Int) -> Int? {
        var position = index
        for (number, word) in words.enumerated() {
            if number > 0 {
                guard position < chars.count, chars[position] == " " || chars[position] == "\t" else { return nil }
                while position < chars.count, chars[position] == " " || chars[position] == "\t" { position += 1 }
            }
            for expected in word.utf8 {
                // ASCII letters only, as `containsView` assumes.
                guard position < chars.count, let ascii = chars[position].asciiValue,
                      (ascii >= 0x41 && ascii <= 0x5A ? ascii + 0x20 : ascii) == expected
                else { return nil }
                position += 1
            }
        }
        return position
    }

    /// `String(word).lowercased()`, without the general Unicode path for an ASCII word.
    private static func lowercasedWord(_ word: ArraySlice<Character>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(word.count)
        for char in word {
            guard let ascii = char.asciiValue else { return String(word).lowercased() }
            bytes.append(ascii >= 0x41 && ascii <= 0x5A ? ascii + 0x20 : ascii)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `chars[start...]` contains `view` in any case (ASCII letters only: no other character lowercases
    /// to one of them, so a line without it cannot contain a phrase).
    private static func containsView(_ chars: [Character], from start: Int) -> Bool {
        var index = start
        while index + 3 < chars.count {
            if chars[index] == "v" || chars[index] == "V",
               chars[index + 1] == "i" || chars[index + 1] == "I",
               chars[index + 2] == "e" || chars[index + 2] == "E",
               chars[index + 3] == "w" || chars[index + 3] == "W" {
                return true
            }
            index += 1
        }
        return false
    }

    // MARK: - Around the token

    private static func phase(after rest: [Character]) -> Phase {
        var cursor = Cursor(chars: rest)
        while let char = cursor.peek, char.isWhitespace || ":|-–—>".contains(char) { cursor.index += 1 }
        var end = cursor.index
        while end < rest.count, rest[end].isLetter { end += 1 }
        switch String(rest[cursor.index..<end]).lowercased() {
        case "begin": return .begin
        case "end": return .end
        default: return .instant
        }
    }

    /// `animated = YES`, `animated: true`, `animated=1`.
    private static func animated(in chars: [Character]) -> Bool? {
        let text = String(chars)
        guard let range = text.firstRange(of: "animated") else { return nil }
        var rest = Substring(text[range.upperBound...])
        while let char = rest.first, char == " " || char == ":" || char == "=" { rest.removeFirst() }
        if rest.hasPrefix("YES") || rest.hasPrefix("true") || rest.hasPrefix("1") { return true }
        if rest.hasPrefix("NO") || rest.hasPrefix("false") || rest.hasPrefix("0") { return false }
        return nil
    }

    /// The parent written after `willMove`/`didMove`: `nil`, `none`, `(null)` and `<null>` (NSLog of a nil `%@`)
    /// are a removal; a type name, `Module.Type`, `<Module.Type: 0x…>` (`print`/`%@` of the parent) or
    /// `Optional(<Module.Type: 0x…>)` name the parent. Brackets and separators before it are skipped
    /// (`…:] (null)`). `nil` (no `Optional`) when nothing readable follows.
    private static func parentArgument(_ rest: [Character]) -> ControllerName?? {
        var cursor = Cursor(chars: rest)
        while let char = cursor.peek, char.isWhitespace || ":|-–—=])".contains(char) { cursor.index += 1 }
        let text = String(rest[cursor.index...])
        if text.hasPrefix("(null)") || text.hasPrefix("<null>") { return .some(nil) }
        if text.hasPrefix("Optional(") {
            return parentArgument(Array(rest[(cursor.index + "Optional(".count)...]))
        }
        if text.hasPrefix("<") {
            // A printed object: `<Module.Type: 0x7fb2…>`.
            var end = cursor.index + 1
            while end < rest.count, rest[end].isIdentifierCharacter || rest[end] == "." { end += 1 }
            guard end < rest.count, rest[end] == ":" || rest[end] == ">" else { return nil }
            let qualified = String(rest[(cursor.index + 1)..<end])
            guard let typeName = qualified.split(separator: ".").last.map(String.init),
                  let first = typeName.first, first.isLetter || first == "_"
            else { return nil }
            return .some(ControllerName(typeName: typeName, label: nil, isExplicit: true))
        }
        var end = cursor.index
        while end < rest.count, rest[end].isIdentifierCharacter || rest[end] == "." { end += 1 }
        let word = String(rest[cursor.index..<end])
        if word == "nil" || word == "none" { return .some(nil) }
        let typeName = word.split(separator: ".").last.map(String.init) ?? ""
        guard let first = typeName.first, first.isUppercase else { return nil }
        return .some(ControllerName(typeName: typeName, label: nil, isExplicit: true))
    }

    /// The controller written before the token: `-[Class sel]`, `Class.method`, `Class: method`,
    /// `Class | method`, `Class – method`, `[Tag] method`, `Class<0> method`, `<Module.Class: 0x…> method`.
    private static func controllerBefore(_ chars: [Character], messageStart: Int, tokenStart: Int) -> ControllerName? {
        if let objc = objectiveCClass(chars, from: messageStart, before: tokenStart) { return objc }
        var end = tokenStart
        let dotted = end > messageStart && chars[end - 1] == "."
        if dotted { end -= 1 }
        while end > messageStart, chars[end - 1].isWhitespace || ":|-–—·»".contains(chars[end - 1]) { end -= 1 }
        guard end > messageStart else { return nil }
        let last = chars[end - 1]
        if last == "]" {
            var open = end - 1
            while open > messageStart, chars[open] != "[" { open -= 1 }
            guard chars[open] == "[" else { return nil }
            let tag = String(chars[(open + 1)..<(end - 1)]).trimmingSpacesAndPunctuation()
            guard !tag.isEmpty, !tag.allSatisfy(\.isNumber) else { return nil }
            return ControllerName(typeName: tag, label: nil, isExplicit: true)
        }
        if last == ">" {
            var open = end - 1
            while open > messageStart, chars[open] != "<" { open -= 1 }
            guard chars[open] == "<" else { return nil }
            let inner = String(chars[(open + 1)..<(end - 1)])
            if let colon = inner.firstIndex(of: ":") {
                // print(self): `<Module.Class: 0x7fb2c8d0a2b0>`.
                let qualified = String(inner[..<colon])
                guard let typeName = qualified.split(separator: ".").last.map(String.init), !typeName.isEmpty else { return nil }
                return ControllerName(typeName: typeName, label: nil, isExplicit: true)
            }
            var start = open
            while start > messageStart, chars[start - 1].isIdentifierCharacter { start -= 1 }
            guard start < open else { return nil }
            return ControllerName(typeName: String(chars[start..<open]), label: inner, isExplicit: true)
        }
        var start = end
        while start > messageStart, chars[start - 1].isIdentifierCharacter { start -= 1 }
        guard start < end, chars[start].isIdentifierStart else { return nil }
        let word = String(chars[start..<end])
        if LifecycleVocabulary.names[word.lowercased()] != nil { return nil }
        return ControllerName(typeName: word, label: nil, isExplicit: dotted)
    }

    /// Words after `viewWillAppear: ` that are a value, a phase or a verb, not a controller's name.
    private static let notNames: Set<String> = [
        "yes", "no", "true", "false", "animated", "nil", "null", "begin", "end", "called", "start", "started",
        "finished", "done", "self",
    ]

    /// `viewWillAppear:2` (a paging library's page tag) or `viewDidLoad 0D2C7F77-A822-…` (an instance id).
    private static func controllerAfter(_ chars: [Character], tokenEnd: Int, selectorColon: Bool) -> ControllerName? {
        var cursor = Cursor(chars: chars, index: tokenEnd)
        if selectorColon, let char = cursor.peek, !char.isWhitespace {
            let word = cursor.readWord()
            guard !word.isEmpty else { return nil }
            return ControllerName(typeName: "", label: word, isExplicit: true)
        }
        cursor.skipSpaces()
        let word = cursor.readWord()
        if word.count >= 8, word.allSatisfy({ $0.isHexDigit || $0 == "-" }), word.contains(where: \.isNumber) {
            return ControllerName(typeName: "", label: word, isExplicit: true)
        }
        // `NSLog(@"viewWillAppear: %@", name)`: a bare selector, a space, then the name or page tag
        // (`viewWillAppear: Root`, `viewWillAppear: 2 UIDeviceRGBColorSpace …`); not a value such as `YES`.
        if selectorColon, !word.isEmpty, word.allSatisfy(\.isIdentifierCharacter),
           !notNames.contains(word.lowercased()) {
            return ControllerName(typeName: "", label: word, isExplicit: true)
        }
        return nil
    }

    /// `-[Class selector]`, `+[Class(Category) selector]` whose selector starts before `limit`.
    private static func objectiveCClass(_ chars: [Character], from start: Int, before limit: Int) -> ControllerName? {
        var index = start
        while index + 1 < min(limit, chars.count) {
            if (chars[index] == "-" || chars[index] == "+"), chars[index + 1] == "[" {
                var end = index + 2
                while end < chars.count, chars[end].isIdentifierCharacter { end += 1 }
                if end > index + 2 {
                    return ControllerName(typeName: String(chars[(index + 2)..<end]), label: nil, isExplicit: true)
                }
            }
            index += 1
        }
        return nil
    }
}

extension Character {
    // ASCII characters are decided from their byte (the same answers as `isLetter`/`isNumber`, without the
    // Unicode property lookup that dominated the importer's profile); others ask the properties.
    var isIdentifierStart: Bool {
        if let ascii = asciiValue { return (ascii | 0x20) >= 0x61 && (ascii | 0x20) <= 0x7A || ascii == 0x5F }
        return isLetter
    }
    var isIdentifierCharacter: Bool {
        if let ascii = asciiValue {
            return (ascii | 0x20) >= 0x61 && (ascii | 0x20) <= 0x7A || (ascii >= 0x30 && ascii <= 0x39) || ascii == 0x5F
        }
        return isLetter || isNumber
    }
}

extension String {
    func trimmingSpacesAndPunctuation() -> String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace || first == ":" { text.removeFirst() }
        while let last = text.last, last.isWhitespace || last == ":" { text.removeLast() }
        return String(text)
    }
}
