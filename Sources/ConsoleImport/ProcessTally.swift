/// Counts the lines of each process of a console log and tells whether the lines that gave events come from
/// more than one history: two processes whose event lines alternate (two PIDs of one program running at once),
/// or another program's event lines (an extension's `MyAppWidget[880:3]` in a Console export). A plain relaunch
/// (the first process's event lines, then the next one's, never back) is one history in two runs, not a mix.
///
/// Memory is bounded: at most `keptProcesses` processes are counted one by one; lines of later ones are counted
/// together (`untalliedLineCount`), and a return to one of them is not seen (another program's lines still are).
struct ProcessTally: Sendable {
    /// Processes counted one by one.
    static let keptProcesses = 1_000

    private(set) var processes: [ProcessLines] = []
    private var index: [ProcessToken: Int] = [:]
    /// Lines of processes beyond `keptProcesses`.
    private(set) var untalliedLineCount = 0
    /// True once event lines of two histories were read (see the type's documentation).
    private(set) var isMixed = false
    /// The program of the first event line.
    private var firstEventName: String?
    /// The process of the latest event line, and its position in `processes` (`nil` beyond the limit).
    private var lastEventProcess: ProcessToken?
    /// The process counted last, and its position, to skip the dictionary for runs of lines of one process.
    private var last: (token: ProcessToken, position: Int?)?

    /// Counts line `number` (`text`) of `process`; returns its position in `processes`, `nil` beyond the limit.
    @discardableResult
    mutating func count(_ process: ProcessToken, line number: Int, text: @autoclosure () -> String) -> Int? {
        let position: Int?
        if let last, last.token == process {
            position = last.position
        } else if let known = index[process] {
            position = known
        } else if processes.count < Self.keptProcesses {
            position = processes.count
            index[process] = processes.count
            processes.append(ProcessLines(
                name: process.name, pid: process.pid, lineCount: 0, eventLineCount: 0, firstLine: number,
                firstText: String(text().prefix(ProcessLines.keptTextLength))))
        } else {
            position = nil
        }
        last = (process, position)
        if let position {
            processes[position].lineCount += 1
        } else {
            untalliedLineCount += 1
        }
        return position
    }

    /// Notes that a line of `process` (counted just before with `count`) gave events.
    mutating func countEvents(_ process: ProcessToken) {
        let position = last?.token == process ? last?.position : index[process]
        if let firstEventName {
            if process.name != firstEventName {
                isMixed = true
            } else if let previous = lastEventProcess, previous != process {
                // Back to a process that already gave events: two histories. (Beyond the limit that is not known:
                // taken for a relaunch.)
                if position.map({ processes[$0].eventLineCount > 0 }) ?? false { isMixed = true }
            }
        } else {
            firstEventName = process.name
        }
        lastEventProcess = process
        if let position { processes[position].eventLineCount += 1 }
    }
}
