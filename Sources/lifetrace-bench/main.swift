// lifetrace-bench: Lifetrace's benchmarks, each a ratio to a baseline or a peer measured in the same run.
// See docs/PERFORMANCE.md for what each benchmark measures, the goals and the latest figures.

import Foundation

#if canImport(Glibc)
import Glibc
#endif

let usage = """
    OVERVIEW: Lifetrace's benchmarks: ratios of Lifetrace to a baseline or a peer, measured in one run.

    USAGE: swift run -c release lifetrace-bench [NAME…] [--events N[,N…]] [--rounds R] [--json FILE] [--smoke]

    ARGUMENTS:
      NAME…               Benchmarks to run (default: all; see --list).

    OPTIONS:
      --events N[,N…]     Events in the workload; several sizes give a scaling table
                          (default 1000000; accepts 1e6, 10^6, 1_000_000).
      --rounds R          Timed rounds per comparison after one discarded warm-up (default 5).
      --seed S            Seed of the generated session (default 8).
      --json FILE         Also write the figures as JSON to FILE ('-' for standard output).
      --scratch DIR       Where to write traces, JSON lines and databases (default: a temporary directory,
                          removed at the end).
      --smoke             Reduced mode for CI: tiny sizes, 2 rounds; checks the harness runs, not the figures.
      --quiet             No progress lines on standard error.
      --list              List the benchmarks with their goals and exit.
      -h, --help          Show this help and exit.

    Each comparison runs a warm-up round of every side (discarded), then R rounds alternating which side goes
    first; the table shows the median of the per-round ratios and their spread (min–max).
    Exit codes: 0 ran (whatever the figures), 1 a benchmark failed, 2 usage error.
    """

struct Options {
    var names: [String] = []
    var eventCounts: [Int] = [1_000_000]
    var rounds = 5
    var seed: UInt64 = 8
    var jsonPath: String?
    var scratch: String?
    var isSmoke = false
    var isQuiet = false
    var isList = false
    var isHelp = false
}

/// Reads `1000000`, `1_000_000`, `1e6` and `10^6`.
func parseCount(_ text: String) -> Int? {
    let cleaned = text.replacingOccurrences(of: "_", with: "")
    if let value = Int(cleaned), value > 0 { return value }
    for separator in ["e", "E", "^"] {
        let parts = cleaned.components(separatedBy: separator)
        guard parts.count == 2, let base = Int(parts[0]), let exponent = Int(parts[1]), exponent >= 0, exponent <= 12 else { continue }
        var value = separator == "^" ? 1 : base
        let factor = separator == "^" ? base : 10
        for _ in 0..<exponent { value *= factor }
        if value > 0 { return value }
    }
    return nil
}

func parseOptions(_ arguments: [String]) throws -> Options {
    var options = Options()
    var index = 0
    var explicitRounds = false
    var explicitEvents = false
    func value(for name: String) throws -> String {
        index += 1
        guard index < arguments.count else { throw BenchError("\(name) needs a value") }
        return arguments[index]
    }
    while index < arguments.count {
        let word = arguments[index]
        switch word {
        case "--events":
            let text = try value(for: word)
            let counts = text.split(separator: ",").map { parseCount(String($0)) }
            guard !counts.isEmpty, counts.allSatisfy({ $0 != nil }) else { throw BenchError("--events: '\(text)' is not a list of positive counts") }
            options.eventCounts = counts.compactMap { $0 }
            explicitEvents = true
        case "--rounds":
            let text = try value(for: word)
            guard let rounds = Int(text), rounds >= 1 else { throw BenchError("--rounds: '\(text)' is not a positive number") }
            options.rounds = rounds
            explicitRounds = true
        case "--seed":
            let text = try value(for: word)
            guard let seed = UInt64(text) else { throw BenchError("--seed: '\(text)' is not a non-negative number") }
            options.seed = seed
        case "--json": options.jsonPath = try value(for: word)
        case "--scratch": options.scratch = try value(for: word)
        case "--smoke": options.isSmoke = true
        case "--quiet": options.isQuiet = true
        case "--list": options.isList = true
        case "--help", "-h": options.isHelp = true
        default:
            guard !word.hasPrefix("-") else { throw BenchError("unknown option '\(word)'") }
            guard Catalog.named(word) != nil else {
                throw BenchError("unknown benchmark '\(word)'; known: \(Catalog.all.map(\.name).joined(separator: ", "))")
            }
            options.names.append(word)
        }
        index += 1
    }
    if options.isSmoke {
        if !explicitRounds { options.rounds = 2 }
        if !explicitEvents { options.eventCounts = [2_000] }
    }
    return options
}

/// The machine the figures come from.
struct Machine: Encodable {
    var cores: Int
    var cpu: String
    var loadAverage: String
    var kernel: String

    static func current() -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" } ?? "unknown"
        let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "")
            .split(separator: " ").prefix(3).joined(separator: " ")
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return Machine(cores: ProcessInfo.processInfo.activeProcessorCount, cpu: model, loadAverage: load, kernel: release)
    }
}

/// The JSON report.
struct Report: Encodable {
    var command: [String]
    var date: String
    var machine: Machine
    var rounds: Int
    var seed: UInt64
    var smoke: Bool
    var checksum: String
    var figures: [Figure]
}

func printTable(_ figures: [Figure]) {
    let header = ["benchmark", "events", "figure", "ratio", "min–max", "goal", "verdict", "candidate", "baseline"]
    let rows: [[String]] = figures.map { figure in
        [
            figure.benchmark, String(figure.events), figure.name,
            figure.ratio.map { Format.number($0.median) } ?? "—",
            figure.ratio.map { $0.count > 1 ? "\(Format.number($0.min))–\(Format.number($0.max))" : "exact" } ?? "—",
            figure.goal.description, figure.verdict.rawValue,
            figure.candidate?.text ?? "—", figure.baseline?.text ?? "—",
        ]
    }
    var widths = header.map(\.count)
    for row in rows {
        for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
    }
    func line(_ cells: [String]) -> String {
        cells.enumerated().map { Format.padded($1, widths[$0]) }.joined(separator: "  ")
            .replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
    }
    print(line(header))
    print(line(widths.map { String(repeating: "-", count: $0) }))
    for row in rows { print(line(row)) }
    let notes = figures.filter { !$0.notes.isEmpty }
    if !notes.isEmpty {
        print("")
        for figure in notes {
            for note in figure.notes { print("\(figure.benchmark) (\(figure.events), \(figure.name)): \(note)") }
        }
    }
}

func main() -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    // Internal: the memory benchmark runs each job in a child process of its own (see Catalog.memory).
    if arguments.first == "--probe-memory", arguments.count == 3 {
        do {
            let report = try Catalog.probeMemory(job: arguments[1], trace: arguments[2])
            FileHandle.standardOutput.write(try JSONEncoder().encode(report) + Data("\n".utf8))
            return 0
        } catch {
            FileHandle.standardError.write(Data("lifetrace-bench: error: \(error)\n".utf8))
            return 1
        }
    }
    // Internal: a deterministic console log for measuring `lifetrace import` (see ConsoleLogGenerator).
    if arguments.first == "--write-console-log" {
        guard arguments.count == 3, let lines = parseCount(arguments[2]) else {
            FileHandle.standardError.write(Data("usage: lifetrace-bench --write-console-log FILE LINES\n".utf8))
            return 2
        }
        do {
            try ConsoleLogGenerator(lineCount: lines).write(to: arguments[1])
            return 0
        } catch {
            FileHandle.standardError.write(Data("lifetrace-bench: error: \(error)\n".utf8))
            return 1
        }
    }
    let options: Options
    do {
        options = try parseOptions(arguments)
    } catch {
        FileHandle.standardError.write(Data("lifetrace-bench: error: \(error)\nusage: lifetrace-bench [NAME…] [--events N] [--rounds R] [--json FILE] [--smoke]; see --help\n".utf8))
        return 2
    }
    if options.isHelp {
        print(usage)
        return 0
    }
    if options.isList {
        let width = Catalog.all.map(\.name.count).max() ?? 0
        for benchmark in Catalog.all {
            print("\(Format.padded(benchmark.name, width))  goal \(Format.padded(benchmark.goal, 7))  \(benchmark.summary)")
        }
        return 0
    }
    let selected = options.names.isEmpty ? Catalog.all : Catalog.all.filter { options.names.contains($0.name) }
    let ownsScratch = options.scratch == nil
    let scratch = options.scratch ?? (NSTemporaryDirectory() + "lifetrace-bench-\(getpid())")
    do {
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    } catch {
        FileHandle.standardError.write(Data("lifetrace-bench: error: cannot create \(scratch): \(error)\n".utf8))
        return 2
    }
    defer { if ownsScratch { try? FileManager.default.removeItem(atPath: scratch) } }

    let harness = Harness(rounds: options.rounds, isSmoke: options.isSmoke, scratchDirectory: scratch, isVerbose: !options.isQuiet)
    let machine = Machine.current()
    harness.progress("\(machine.cores) cores, \(machine.cpu), load \(machine.loadAverage); \(options.rounds) rounds")
    var figures: [Figure] = []
    var failed = false
    for count in options.eventCounts {
        let workload: Workload
        do {
            workload = try Workload(eventCount: count, seed: options.seed, harness: harness)
        } catch {
            FileHandle.standardError.write(Data("lifetrace-bench: error: \(error)\n".utf8))
            return 1
        }
        for benchmark in selected {
            harness.progress("\(benchmark.name), \(count) events")
            let start = monotonicNanoseconds()
            do {
                let produced = try benchmark.run(harness, workload)
                if produced.isEmpty { throw BenchError("the benchmark produced no figure") }
                figures += produced
            } catch {
                failed = true
                figures.append(Figure(
                    benchmark: benchmark.name, name: benchmark.summary, events: count, ratio: nil, goal: .stated(benchmark.goal),
                    verdict: .failed, notes: ["\(error)"]))
            }
            harness.progress("\(benchmark.name) took \(Format.number(Double(monotonicNanoseconds() - start) / 1e9)) s")
        }
        if ownsScratch { workload.removeFiles() }
    }

    let jsonToStandardOutput = options.jsonPath == "-"
    if !jsonToStandardOutput {
        print("lifetrace-bench: \(machine.cores) cores, \(machine.cpu), load average \(machine.loadAverage)\(options.isSmoke ? " (smoke mode: figures mean nothing)" : "")")
        print("")
        printTable(figures)
    }
    if let jsonPath = options.jsonPath {
        let report = Report(
            command: CommandLine.arguments, date: ISO8601DateFormatter().string(from: Date()), machine: machine,
            rounds: options.rounds, seed: options.seed, smoke: options.isSmoke,
            checksum: String(harness.checksum, radix: 16), figures: figures)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            let data = try encoder.encode(report) + Data("\n".utf8)
            if jsonToStandardOutput {
                FileHandle.standardOutput.write(data)
            } else {
                try data.write(to: URL(fileURLWithPath: jsonPath))
            }
        } catch {
            FileHandle.standardError.write(Data("lifetrace-bench: error: cannot write \(jsonPath): \(error)\n".utf8))
            return 1
        }
    }
    if failed {
        FileHandle.standardError.write(Data("lifetrace-bench: error: \(figures.filter { $0.verdict == .failed }.count) figure(s) failed; see the notes\n".utf8))
    }
    return failed ? 1 : 0
}

exit(main())
