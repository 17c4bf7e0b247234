import Dispatch
import Foundation

/// The progress line of a long task on standard error (an import, `simulate --generate` of millions of events,
/// an audit of many traces, an export): one line, rewritten in place (`\r`, erase to the end of the line), the
/// first after `CommandOutput.progressDelay` (one second), then at most four a second, erased by `finish()` and
/// before any other message on standard error.
///
/// Only when standard error is a terminal: on a pipe, in a file or in CI's log there is no progress at all. A
/// command that prints its results to standard output asks for none when that is a terminal too, where the
/// line would be drawn among the results.
final class ProgressLine: @unchecked Sendable {
    private let output: CommandOutput
    private let lock = NSLock()
    private var nextUpdate: UInt64

    /// A progress line, or `nil` when none is shown: standard error is not a terminal, or
    /// `printsToStandardOutput` and standard output is a terminal as well.
    init?(output: CommandOutput, printsToStandardOutput: Bool = false) {
        guard output.isStandardErrorTerminal, !(printsToStandardOutput && output.isStandardOutputTerminal) else { return nil }
        self.output = output
        nextUpdate = DispatchTime.now().uptimeNanoseconds + output.progressDelay
    }

    /// Shows `text` (`lifetrace simulate: 1200000 of 5000000 events (24%)`) when it is time for a new line; cheap
    /// otherwise (one clock read), but callers that loop over events call it every few thousand.
    func update(_ text: @autoclosure () -> String) {
        let now = DispatchTime.now().uptimeNanoseconds
        lock.lock()
        defer { lock.unlock() }
        guard now >= nextUpdate else { return }
        nextUpdate = now + 250_000_000
        output.showProgress(text())
    }

    /// Erases the line (the task is done, or stops).
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        output.eraseProgress()
    }

    /// `1200000 of 5000000 events (24%)`, or `1200000 events` when the total is unknown (0).
    static func fraction(_ done: UInt64, of total: UInt64, _ noun: String) -> String {
        guard total > 0 else { return "\(done) \(noun)" }
        return "\(done) of \(total) \(noun) (\(min(100, done * 100 / total))%)"
    }
}
