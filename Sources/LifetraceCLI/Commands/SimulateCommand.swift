import ArgumentParsing
import Foundation
import Simulator
import TraceModel

/// `lifetrace simulate SCENARIO [-o TRACE] [--print]` and `lifetrace simulate --generate N [--seed S] -o TRACE`.
struct SimulateCommand: Command {
    static let spec = CommandSpec(
        name: "simulate",
        abstract: "Run a scenario through a model of UIKit's containers and record the callbacks it produces.",
        usage: "SCENARIO [-o TRACE] [--print] | --generate N [--seed S] [-o TRACE] [--print]",
        discussion: """
            The scenario language is described in docs/SCENARIOS.md. Events go through the Recorder's
            instrumentation entry points with a manual clock; the same scenario always gives the same bytes.
            Without -o, --print is implied.

            Examples:
              lifetrace simulate traces/scenarios/cancelled-swipe-back-save.scenario --print
              lifetrace simulate traces/scenarios/cancelled-swipe-back-save.scenario -o cancelled.lifetrace
              lifetrace simulate --generate 100000 --seed 7 -o session.lifetrace

            The language refuses what it does not know: an unknown keyword, command, hook or option, a field a
            standard mark does not take, or a value of the wrong type (save critical=maybe) is a syntax error at
            FILE:LINE:COLUMN, with a "did you mean" when a known word is close. Custom marks take any fields.

            Exit 2 on a syntax error (FILE:LINE:COLUMN; nothing is written) or an illegal step (FILE:LINE; with -o,
            the events of the steps before it are still written, to TRACE.partial.lifetrace when TRACE already
            exists, which is left as it was).
            """,
        options: [
            OptionSpec("output", short: "o", value: "TRACE", help: "Write the recorded trace to TRACE (*.lifetrace)."),
            OptionSpec("print", help: "Print the callback order, one line per callback, indented by nesting."),
            OptionSpec("generate", value: "N", help: "Generate a random legal session of at least N events instead of a scenario."),
            OptionSpec("seed", value: "S", help: "Seed for --generate (default 1); the same seed gives the same session."),
        ],
        positionalCount: (0, 1)
    )

    /// What to simulate.
    private enum Source {
        case scenario(path: String, text: String, parsed: Scenario)
        case generated(count: Int, seed: UInt64)
    }

    /// `text` as a whole number in `0 … limit`, or a `ValidationError` saying which of those it is not.
    static func wholeNumber(_ text: String, option: String, what: String, limit: UInt64) throws -> UInt64 {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw ValidationError("\(option) needs \(what) written as a whole number in digits (e.g. 200000); got '\(text)'")
        }
        guard let value = UInt64(text), value <= limit else {
            throw ValidationError("\(option) is too large: at most \(limit); got '\(text)'")
        }
        return value
    }

    static func run(_ arguments: ParsedArguments, output: CommandOutput) throws -> ExitCode {
        output.isHumanReadable = true  // callback orders and generated sessions are text a person reads
        let source: Source
        if let countText = arguments.value("generate") {
            guard arguments.positionals.isEmpty else {
                throw ValidationError("give either a SCENARIO or --generate N, not both")
            }
            let count = try Self.wholeNumber(countText, option: "--generate", what: "a number of events", limit: UInt64(Int.max))
            guard count > 0 else { throw ValidationError("--generate needs at least 1 event; got '\(countText)'") }
            let seedText = arguments.value("seed") ?? "1"
            let seed = try Self.wholeNumber(seedText, option: "--seed", what: "a seed", limit: UInt64.max)
            source = .generated(count: Int(count), seed: seed)
        } else {
            guard let path = arguments.positionals.first else {
                throw ValidationError("missing SCENARIO (or --generate N)")
            }
            if arguments.value("seed") != nil { throw ValidationError("--seed only goes with --generate") }
            if path == "-", !FileManager.default.fileExists(atPath: path) {
                output.errorLine("lifetrace simulate: error: -: a scenario is read from a file (its errors name FILE:LINE:COLUMN), not from standard input; save it to a file first")
                return .usageOrInput
            }
            if let kind = FilePaths.specialInputKind(path) {
                output.errorLine("lifetrace simulate: error: \(path): \(FilePaths.specialInputMessage(kind))")
                return .usageOrInput
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                output.errorLine("lifetrace simulate: error: cannot read scenario '\(path)': \(FilePaths.unreadableReason(path))")
                return .usageOrInput
            }
            guard let text = String(data: data, encoding: .utf8) else {
                output.errorLine("lifetrace simulate: error: '\(path)' is not UTF-8 text")
                return .usageOrInput
            }
            // Parse before -o is opened, so a scenario with a syntax error never replaces an existing trace.
            let parsed: Scenario
            do {
                parsed = try ScenarioParser(file: path).parse(text)
            } catch {
                output.errorLine("\(error)")
                return .usageOrInput
            }
            source = .scenario(path: path, text: text, parsed: parsed)
        }

        let outputPath = arguments.value("output")
        // Symbolic links followed (the target is replaced, not the link); a device or FIFO refused before running.
        let resolvedOutput = try outputPath.map(FilePaths.traceDestination)
        if let outputPath, let resolvedOutput {
            if case .scenario(let path, _, _) = source, FilePaths.isSameFile(path, resolvedOutput) {
                throw ValidationError("-o '\(outputPath)' is the scenario \(path); choose another file")
            }
            if let problem = FilePaths.unwritableDirectory(of: resolvedOutput) { throw ValidationError("-o '\(outputPath)': \(problem)") }
            if let problem = FilePaths.foreignFileProblem(at: resolvedOutput, shownAs: outputPath) { throw ValidationError(problem) }
        }
        let printing = arguments.flag("print") || outputPath == nil
        let copy = EventCollector()
        var markers: [StepMarker] = []
        var failure: ScenarioError?
        func simulate(into sink: any LifecycleSink) {
            switch source {
            case .scenario(let path, _, let parsed):
                do {
                    markers = try Simulator.run(parsed, file: path, into: sink)
                } catch let error as ScenarioError {
                    failure = error
                } catch {
                    failure = ScenarioError(.illegalStep, "\(error)", file: path)
                }
            case .generated(let count, let seed):
                let progress = ProgressLine(output: output, printsToStandardOutput: printing)
                SessionGenerator(seed: seed).generate(count: count, into: progress.map { ProgressSink(forwardingTo: sink, line: $0, total: count) } ?? sink)
                progress?.finish()
            }
        }
        if let outputPath, let resolvedOutput {
            let identity: [UInt8]
            switch source {
            case .scenario(_, let text, _): identity = Array(text.utf8)
            case .generated(let count, let seed): identity = Array("generate \(count) seed \(seed)".utf8)
            }
            // Record under a temporary name; an existing TRACE is replaced only by a complete run (see below).
            FilePaths.cleanUpStaleTemporaries(of: resolvedOutput, "simulating", command: "simulate", output: output)
            let temporary = FilePaths.temporarySibling(of: resolvedOutput, "simulating")
            defer { try? FileManager.default.removeItem(atPath: temporary) }
            try TraceFileRecording.record(to: temporary, identity: identity) { recorderSink in
                switch (printing, source) {
                case (false, _): simulate(into: recorderSink)
                case (true, .generated): simulate(into: PrintingSink(forwardingTo: recorderSink, write: output.line))
                case (true, .scenario): simulate(into: TeeSink(primary: recorderSink, copy: copy))
                }
            }
            // A failed run keeps its partial trace (the events before the bad step) but never replaces an
            // existing TRACE with it: the partial one goes to TRACE.partial.lifetrace instead.
            let keepsExisting = failure != nil && FileManager.default.fileExists(atPath: resolvedOutput)
            let destination = keepsExisting ? resolvedOutput + ".partial.lifetrace" : resolvedOutput
            switch FilePaths.replaceTrace(at: destination, with: temporary) {
            case .replaced:
                break
            case .renameFailed(let code):
                output.errorLine("lifetrace simulate: error: \(destination): cannot move the new trace into place: \(FilePaths.renameFailure(code))")
                return .usageOrInput
            case .busy:
                output.errorLine("lifetrace simulate: error: \(FilePaths.busyDestinationMessage(destination))")
                return .usageOrInput
            }
            if keepsExisting {
                output.errorLine("lifetrace simulate: \(outputPath) left as it was; the events before the error are in \(destination)")
            }
        } else if case .generated(let count, let seed) = source {
            // Long sessions stream: nothing is held in memory; without -o, the session ends when nobody reads it.
            let sink = PrintingSink(write: output.line)
            let progress = ProgressLine(output: output, printsToStandardOutput: true)
            SessionGenerator(seed: seed).generate(
                count: count, into: progress.map { ProgressSink(forwardingTo: sink, line: $0, total: count) } ?? sink,
                until: { output.isStandardOutputClosed })
            progress?.finish()
        } else {
            simulate(into: copy)
        }
        if printing, case .scenario = source {
            for line in CallbackOrderPrinter.lines(copy.events, steps: markers) { output.line(line) }
        }
        if let failure {
            output.errorLine(failure.description)
            return .usageOrInput
        }
        return .success
    }
}
