import ArgumentParsing
import Audit
import Dispatch
import Foundation
import Synchronization

/// `audit --jobs N`: independent traces audited at the same time, their messages and results kept in the order of
/// the traces.
extension AuditCommand {
    /// What auditing one trace gave: its audit (whole, or up to where its input stopped being readable), the input
    /// problems it met, and the text it wrote to standard error (warnings, then its error), in order.
    struct TraceOutcome: Sendable {
        var path: String
        var audit: TraceAudit?
        var problems: [InputProblem] = []
        var messages = ""
        /// An error that ends the whole command (not an input error of this trace), rethrown in the trace's turn.
        var failure: (any Error)?
    }

    /// The default of `--jobs`: the processors this process may run on now.
    static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// `--jobs N` (1 … 1024), or `defaultJobs`.
    static func jobCount(_ text: String?) throws -> Int {
        guard let text else { return defaultJobs }
        guard let value = Int(text), value >= 1, value <= 1024 else {
            throw ValidationError("--jobs must be a whole number from 1 to 1024; got '\(text)'")
        }
        return value
    }

    /// Audits `paths`, up to `jobs` at a time, and returns their audits and input problems in the order of `paths`.
    ///
    /// Each trace's standard-error text is held until every trace before it has been written out, then written
    /// whole, so the messages are the same bytes in the same order as auditing one trace after another. An error
    /// that is not an input error (which stops the command) is rethrown after the messages of the traces before
    /// it; the messages of the traces after it are not written. At most `jobs` traces are being read at once (each
    /// holds its replay state, bounded by live controllers); finished audits are kept for the report, as before.
    ///
    /// `stream`, when given, is called with each trace's outcome in the order of `paths`, as soon as it and every
    /// trace before it are done (after its messages are written): `--format ndjson` writes its lines there.
    static func auditAll(
        _ paths: [String], jobs: Int, auditor: Auditor, paths repository: RepositoryPaths, sources: SourceFileIndex,
        output: CommandOutput,
        stream: (@Sendable (TraceOutcome) -> Void)? = nil, progress: ProgressLine? = nil
    ) throws -> (audits: [TraceAudit], problems: [InputProblem]) {
        let workers = min(jobs, paths.count)
        // Traces audited at the same time already keep the processors busy: each one's rules then run in one group
        // (splitting them repeats the fold and the fact engine for each group, for no gain in wall time).
        let groups = workers > 1 ? 1 : nil
        let outcomes = OrderedOutcomes(count: paths.count, output: output, stream: stream, progress: progress)
        defer { progress?.finish() }
        if workers <= 1 {
            for index in paths.indices {
                outcomes.deliver(auditOne(paths[index], auditor: auditor, groups: groups, paths: repository, sources: sources), at: index)
                if outcomes.isStopped { break }
            }
        } else {
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while let index = outcomes.claim() {
                    outcomes.deliver(auditOne(paths[index], auditor: auditor, groups: groups, paths: repository, sources: sources), at: index)
                }
            }
        }
        return try outcomes.results()
    }

    /// Audits one trace, collecting what it writes to standard error instead of writing it.
    static func auditOne(_ path: String, auditor: Auditor, groups: Int?, paths: RepositoryPaths, sources: SourceFileIndex) -> TraceOutcome {
        let messages = MessageBuffer()
        let output = CommandOutput(standardOutput: { _ in }, standardError: { messages.text += $0 })
        var outcome = TraceOutcome(path: path)
        do {
            outcome.audit = try audit(path, auditor: auditor, groups: groups, paths: paths, sources: sources, output: output, problems: &outcome.problems)
        } catch let error as AuditInputError {
            output.errorLine("lifetrace audit: error: \(error.message)")
            outcome.problems.append(
                InputProblem(path: path, severity: .error, message: error.message, line: error.line, byteOffset: error.offset))
            outcome.audit = error.partial
        } catch {
            outcome.failure = error
        }
        outcome.messages = messages.text
        return outcome
    }

    /// NDJSON lines collected for `-o FILE` (appended by one thread at a time, under `OrderedOutcomes`' lock).
    final class StreamedLines: @unchecked Sendable {
        private(set) var text = ""
        func append(_ lines: String) { text += lines }
    }

    /// The standard-error text of one trace's audit (used by one thread at a time).
    private final class MessageBuffer: @unchecked Sendable {
        var text = ""
    }

    /// The traces' outcomes by position: hands out the next trace to audit, and writes each trace's messages once
    /// every trace before it has been written.
    final class OrderedOutcomes: Sendable {
        private struct State {
            var slots: [TraceOutcome?]
            var nextToClaim = 0
            var nextToWrite = 0
            var stopped = false
            var finished = 0
            var events: UInt64 = 0
        }

        private let state: Mutex<State>
        private let output: CommandOutput
        private let stream: (@Sendable (TraceOutcome) -> Void)?
        private let progress: ProgressLine?

        init(count: Int, output: CommandOutput, stream: (@Sendable (TraceOutcome) -> Void)? = nil, progress: ProgressLine? = nil) {
            state = Mutex(State(slots: Array(repeating: nil, count: count)))
            self.output = output
            self.stream = stream
            self.progress = progress
        }

        /// The next trace to audit, or `nil` when none is left (or the command stops).
        func claim() -> Int? {
            state.withLock { state in
                guard !state.stopped, state.nextToClaim < state.slots.count else { return nil }
                defer { state.nextToClaim += 1 }
                return state.nextToClaim
            }
        }

        var isStopped: Bool { state.withLock { $0.stopped } }

        /// Stores the outcome of trace `index` and writes the messages of every finished trace whose turn it is.
        func deliver(_ outcome: TraceOutcome, at index: Int) {
            state.withLock { state in
                state.slots[index] = outcome
                while !state.stopped, state.nextToWrite < state.slots.count, let ready = state.slots[state.nextToWrite] {
                    if !ready.messages.isEmpty { output.write(toStandardError: ready.messages) }
                    state.slots[state.nextToWrite]?.messages = ""
                    if ready.failure != nil {
                        state.stopped = true
                    } else {
                        stream?(ready)
                    }
                    state.nextToWrite += 1
                }
                state.finished += 1
                state.events += outcome.audit?.eventCount ?? 0
                if let progress {
                    let (finished, count, events) = (state.finished, state.slots.count, state.events)
                    progress.update("lifetrace audit: \(finished) of \(count) traces audited (\(events) events)")
                }
            }
        }

        /// The audits and problems in trace order, up to the first failure (rethrown).
        func results() throws -> (audits: [TraceAudit], problems: [InputProblem]) {
            try state.withLock { state in
                var audits: [TraceAudit] = []
                var problems: [InputProblem] = []
                for slot in state.slots.prefix(state.nextToWrite) {
                    guard let outcome = slot else { break }
                    if let failure = outcome.failure { throw failure }
                    problems += outcome.problems
                    if let audit = outcome.audit { audits.append(audit) }
                }
                return (audits, problems)
            }
        }
    }
}
