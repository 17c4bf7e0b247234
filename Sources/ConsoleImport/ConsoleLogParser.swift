import TraceModel

/// Turns the lines of a console log into lifecycle events: pure parsing, no files.
///
/// Each line is read for a time prefix (see `LinePrefixReader`), a lifecycle name (every `Callback`, app and
/// scene delegate, presentation-controller-delegate, container and SwiftUI name, in Swift or Objective-C
/// spelling) and the controller it belongs to. Lines matching a `MarkRule` also become marks. Lines with
/// neither are skipped and listed in the result (or, with `strict`, rejected).
///
/// Controllers: each distinct (type name, label) pair gets its own serial, in order of first mention; after a
/// `deinit`/`dealloc` the next mention of the same name is a new controller. Lines that name no controller
/// belong to one anonymous controller (type `(anonymous)`); a paging library's page tag (`viewWillAppear:2`)
/// is a controller with an empty type name and the tag as its label (display name `2`).
///
/// Times (see `ImportedClock`): dated lines are placed relative to the first dated line; times of day that
/// wrap past midnight are read as the next day; a clock that goes back is held at the previous time and the
/// jump reported in `timeAdjustments`; a log with no times gets synthetic times `syntheticStep` apart.
public struct ConsoleLogParser: Sendable {
    /// The spacing of synthetic times when a log has none: 1 ms, in nanoseconds.
    public static let syntheticStep: UInt64 = 1_000_000
    /// The type name of the controller for lines that name none.
    public static let anonymousTypeName = "(anonymous)"
    /// The mark a UIKit method with no event kind of its own becomes (`awakeFromNib`, `viewWillUnload`,
    /// `decodeRestorableState(with:)`, `navigationController(_:willShow:animated:)`, …; docs/IMPORT.md): fields
    /// `method` (the Swift spelling) and `of` (the class or protocol declaring it).
    public static let uikitCallbackMark = "uikit.callback"

    public var markRules: [MarkRule]
    /// When true, the first unreadable line is an error instead of being skipped.
    public var isStrict: Bool
    /// The path recorded in each event's `source.file`, or `nil`.
    public var sourceFile: String?
    /// When set, only the lines of the processes it matches are read (see `ProcessSelector` for which process a
    /// line belongs to); the others are counted (`ConsoleImportResult.leftOutLineCount`) and otherwise ignored:
    /// no event, no skipped line, no time, no strict error. `nil`: every line is read.
    public var process: ProcessSelector?

    public init(markRules: [MarkRule] = [], isStrict: Bool = false, sourceFile: String? = nil, process: ProcessSelector? = nil) {
        self.markRules = markRules
        self.isStrict = isStrict
        self.sourceFile = sourceFile
        self.process = process
    }

    /// Parses a whole log (lines separated by `\n`, `\r\n` or `\r`).
    ///
    /// - Throws: `ConsoleImportError` with code `.unreadableLine` and the line number, only when `isStrict`.
    public func parse(text: String) throws(ConsoleImportError) -> ConsoleImportResult {
        var lines: [Substring] = []
        text.enumerateLinesWithoutFoundation { lines.append($0) }
        return try parse(lines: lines)
    }

    /// Parses `lines` (line 1 first), holding every event in memory. `ConsoleLogSession` does the same line by
    /// line with bounded memory.
    ///
    /// - Throws: `ConsoleImportError` with code `.unreadableLine` and the line number, only when `isStrict`.
    public func parse<Line: StringProtocol>(lines: [Line]) throws(ConsoleImportError) -> ConsoleImportResult {
        var session = ConsoleLogSession(parser: self, holdLimit: .max)
        for (offset, line) in lines.enumerated() {
            try session.read(String(line), number: offset + 1)
        }
        return session.finish(lineCount: lines.count)
    }
}

extension LineTime {
    func sameKind(as other: LineTime) -> Bool {
        switch (self, other) {
        case (.wall, .wall), (.timeOfDay, .timeOfDay), (.seconds, .seconds): true
        default: false
        }
    }
}

extension String {
    /// Calls `body` with each line, splitting at `\n`, `\r\n` and `\r`; a final empty line is not reported.
    func enumerateLinesWithoutFoundation(_ body: (Substring) -> Void) {
        var start = startIndex
        var index = startIndex
        while index < endIndex {
            let char = self[index]
            if char == "\n" || char == "\r\n" || char == "\r" {
                body(self[start..<index])
                index = self.index(after: index)
                start = index
            } else {
                index = self.index(after: index)
            }
        }
        if start < endIndex { body(self[start..<endIndex]) }
    }
}
