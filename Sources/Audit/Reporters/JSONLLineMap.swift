/// Which line of a JSON Lines file holds each event, for locations in SARIF and GitHub annotations.
///
/// Events usually sit on consecutive lines (event N on line `first + N`); a header line, blank lines (which the
/// reader skips) and CRLF blank lines shift the events after them. The map stores only where the shift changes, so
/// it stays small for any file: one entry for an export, one more per run of blank lines.
public struct JSONLLineMap: Sendable, Hashable {
    /// Ordinals where a new run of consecutive lines starts, ascending; `lines[i]` is the 1-based line of event
    /// `ordinals[i]`, and event `ordinals[i] + k` (before the next run) is on line `lines[i] + k`.
    private var ordinals: [UInt64] = []
    private var lines: [UInt64] = []

    public init() {}

    /// Records that event `ordinal` is on line `line` (1-based); call in ascending ordinal order.
    public mutating func record(ordinal: UInt64, line: UInt64) {
        if let lastOrdinal = ordinals.last, let lastLine = lines.last, lastLine + (ordinal - lastOrdinal) == line {
            return
        }
        ordinals.append(ordinal)
        lines.append(line)
    }

    /// The 1-based line of event `ordinal`, or `nil` before the first recorded event.
    public func line(of ordinal: UInt64) -> UInt64? {
        // The last run starting at or before `ordinal`.
        var low = 0
        var high = ordinals.count
        while low < high {
            let middle = (low + high) / 2
            if ordinals[middle] <= ordinal { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        return lines[low - 1] + (ordinal - ordinals[low - 1])
    }

    /// The number of runs of consecutive lines (1 for a file without blank lines between events).
    public var runCount: Int { ordinals.count }
}
