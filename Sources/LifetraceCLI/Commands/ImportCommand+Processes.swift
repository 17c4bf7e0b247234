import ArgumentParsing
import ConsoleImport

/// `--process`, and what the import says about the processes of a log (docs/IMPORT.md, "Processes and runs").
extension ImportCommand {
    /// How many processes the note, the summary and the unknown-process error name one by one.
    static let processesListed = 10

    /// `--process NAME|PID`, or `nil` when not given.
    ///
    /// - Throws: `ValidationError` for an empty value.
    static func processSelector(_ arguments: ParsedArguments) throws -> ProcessSelector? {
        guard let value = arguments.value("process") else { return nil }
        guard let selector = ProcessSelector(value) else {
            throw ValidationError("--process needs a program name (MyApp) or a process ID (1234)")
        }
        return selector
    }

    /// Why `--process` selected nothing, naming what the log does contain; `nil` when some line matched.
    static func unknownProcessMessage(_ selector: ProcessSelector, _ result: ConsoleImportResult) -> String? {
        let all = result.processLines
        // Every line of a process was left out (also of processes beyond those tallied one by one).
        let attributed = all.reduce(0) { $0 + $1.lineCount } + result.untalliedProcessLineCount
        guard result.leftOutLineCount == attributed else { return nil }
        let given = "--process '\(ImportCommand.printable(selector.text, limit: 80))'"
        if all.isEmpty {
            return "\(given): no line names a process (an NSLog/os_log prefix such as MyApp[1234:56789], or log show's PID column); import it without --process"
        }
        var hint = ""
        if let near = all.first(where: { $0.name.lowercased() == selector.text.lowercased() }) {
            hint = " (did you mean '\(near.name)'? names are matched exactly)"
        }
        let programs = Set(all.map(\.name)).count
        return "\(given): no line of the log is from that process\(hint); it has lines of "
            + describe(all, more: result.untalliedProcessLineCount)
            + " (\(programs) program\(programs == 1 ? "" : "s")): give one of these names or PIDs"
    }

    /// `MyApp[1234] (6 lines), MyAppWidget[880] (2 lines), … and 3 more processes (40 lines)`.
    static func describe(_ processes: [ProcessLines], more moreLines: Int = 0) -> String {
        var parts = processes.prefix(processesListed).map { "\($0) (\(lines($0.lineCount)))" }
        let rest = processes.dropFirst(processesListed)
        let restLines = rest.reduce(0) { $0 + $1.lineCount } + moreLines
        if !rest.isEmpty || moreLines > 0 {
            parts.append(rest.isEmpty ? "… (\(lines(restLines)) of more processes)" : "… and \(rest.count) more process\(rest.count == 1 ? "" : "es") (\(lines(restLines)))")
        }
        return parts.joined(separator: ", ")
    }

    static func lines(_ count: Int) -> String { "\(count) line\(count == 1 ? "" : "s")" }

    /// With `--process`: which processes were read and how many lines were left out.
    static func processSummary(_ selector: ProcessSelector?, _ result: ConsoleImportResult) -> [String] {
        guard let selector else { return [] }
        let read = result.processLines.filter { selector.matches(name: $0.name, pid: $0.pid) }
        let left = result.processLines.filter { !selector.matches(name: $0.name, pid: $0.pid) }
        // The processes read are among those counted one by one unless only later ones matched.
        var line = "--process \(selector.text): read the lines of " + (read.isEmpty ? "processes beyond the first \(result.processLines.count)" : describe(read))
        if result.leftOutLineCount > 0 {
            line += "; left out \(lines(result.leftOutLineCount)) of \(describe(left, more: result.untalliedProcessLineCount))"
        }
        if result.unattributedLineCount > 0 {
            line += "; read \(lines(result.unattributedLineCount)) before the first line naming a process"
        }
        return [line]
    }

    /// When the lines that gave events come from more than one process at once
    /// (`ConsoleImportResult.mixesProcesses`; with `--process NAME`, two PIDs of that program): a note naming each
    /// process with its line counts and first line, and how to pick one. Empty otherwise (a log of one process,
    /// a relaunch).
    static func mixedProcessesNote(_ selector: ProcessSelector?, _ result: ConsoleImportResult, input: String) -> [String] {
        guard result.mixesProcesses else { return [] }
        let giving = result.processLines.filter { $0.eventLineCount > 0 }
        let quiet = result.processLines.filter { process in
            process.eventLineCount == 0 && (selector?.matches(name: process.name, pid: process.pid) ?? true)
        }
        let whose = selector.map { "the lines --process \($0.text) selects in \(input) come from" } ?? "\(input) mixes the lines of"
        var note = [
            "lifetrace import: note: \(whose) \(giving.count) processes running at the same time; they are imported as one history, which replay and audit then read as if one process had done it all:"
        ]
        for process in giving.prefix(processesListed) {
            note.append(
                "  \(process): \(lines(process.lineCount)) (\(process.eventLineCount) with events), first at line \(process.firstLine): "
                    + printable(process.firstText, limit: 160))
        }
        if giving.count > processesListed {
            note.append("  … and \(giving.count - processesListed) more processes with events")
        }
        if !quiet.isEmpty || (selector == nil && result.untalliedProcessLineCount > 0) {
            note.append("  (and \(lines(quiet.reduce(0) { $0 + $1.lineCount } + (selector == nil ? result.untalliedProcessLineCount : 0))) of \(quiet.count) other process\(quiet.count == 1 ? "" : "es") without events)")
        }
        if let first = giving.first {
            let shared = selector != nil || giving.filter { $0.name == first.name }.count > 1
            let example = shared ? String(first.pid) : first.name
            note.append(
                "  import one of them with --process PID (that process only) or --process NAME (every run of that program), e.g. --process \(example.contains(" ") ? "'\(example)'" : example)")
        }
        return note
    }
}
