// The measuring machinery of `lifetrace-bench`: clocks, alternating rounds, per-round ratios and their spread.
//
// Every figure is a ratio measured in one run: the machines these benchmarks run on are shared and noisy, so an
// absolute time alone says little, while a candidate and its baseline measured round by round, alternating which
// goes first, drift together. Each measured closure returns a value; the values are folded into a checksum that
// the report prints, so the optimiser cannot drop the work.

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds on the monotonic clock (`CLOCK_MONOTONIC`, the clock the recorder baseline reads too).
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}

/// Keeps a value alive and observable so the work that produced it cannot be optimised away.
///
/// The values are folded into `Harness.checksum`, which the JSON report prints.
@inline(never)
func keep(_ value: UInt64, in harness: Harness) {
    harness.checksum = (harness.checksum &* 0x100_0000_01b3) ^ value
}

/// A closure under measurement: does the work once and returns a value that depends on it.
typealias Work = () throws -> UInt64

/// One side of a comparison.
enum Side {
    /// The harness times the closure from the outside.
    case timed(Work)
    /// The closure times itself (a peer that runs in another process and reports its own time, without its
    /// start-up) and returns nanoseconds.
    case selfTimed(() throws -> UInt64)
}

/// The order statistics of a sample: median and spread.
struct Spread: Sendable, Encodable {
    var median: Double
    var min: Double
    var max: Double
    /// First and third quartiles (linear interpolation between order statistics).
    var q1: Double
    var q3: Double
    var count: Int

    init(_ values: [Double]) {
        precondition(!values.isEmpty, "a spread needs at least one value")
        let sorted = values.sorted()
        func quantile(_ q: Double) -> Double {
            let position = q * Double(sorted.count - 1)
            let lower = Int(position.rounded(.down))
            let upper = Swift.min(lower + 1, sorted.count - 1)
            let weight = position - Double(lower)
            return sorted[lower] * (1 - weight) + sorted[upper] * weight
        }
        median = quantile(0.5)
        q1 = quantile(0.25)
        q3 = quantile(0.75)
        min = sorted[0]
        max = sorted[sorted.count - 1]
        count = sorted.count
    }

    init(_ values: [UInt64]) {
        self.init(values.map { Double($0) })
    }

    /// A single exact value (a size, a count): no spread.
    init(exactly value: Double) {
        self.init([value])
    }
}

/// What a ratio figure is held against.
enum Goal: Sendable, Encodable, CustomStringConvertible {
    case atMost(Double)
    case atLeast(Double)
    /// No numeric goal: the figure is stated (peak memory, load time).
    case stated(String)

    var description: String {
        switch self {
        case .atMost(let value): "≤ \(Format.plain(value))"
        case .atLeast(let value): "≥ \(Format.plain(value))"
        case .stated(let text): text
        }
    }

    func isMet(by value: Double) -> Bool? {
        switch self {
        case .atMost(let limit): value <= limit
        case .atLeast(let limit): value >= limit
        case .stated: nil
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// How one figure came out.
enum Verdict: String, Sendable, Encodable {
    /// The median ratio meets the goal.
    case met
    /// The median ratio misses the goal.
    case missed
    /// A stated figure without a numeric goal.
    case stated
    /// Not measured in this run; `notes` says why (a module not built yet, a peer not installed).
    case skipped
    /// The measurement itself failed; `notes` has the error.
    case failed
}

/// A measured quantity with its unit, e.g. 23.1 ns/event.
struct Quantity: Sendable, Encodable {
    var value: Double
    var unit: String

    var text: String { "\(Format.number(value)) \(unit)" }
}

/// One line of the report.
struct Figure: Sendable, Encodable {
    /// The benchmark that produced it (`record`, `replay`, …).
    var benchmark: String
    /// What the ratio divides, e.g. `record ÷ clock read + 32-byte store`.
    var name: String
    /// Events in the workload.
    var events: Int
    /// The per-round ratios' median and spread; `nil` when skipped or failed.
    var ratio: Spread?
    var goal: Goal
    var verdict: Verdict
    /// The candidate's median absolute figure, for orientation (not for comparing across runs).
    var candidate: Quantity?
    /// The baseline's median absolute figure.
    var baseline: Quantity?
    var notes: [String] = []

    /// Sets `verdict` from the median ratio and the goal.
    mutating func judge() {
        guard let ratio else { return }
        switch goal.isMet(by: ratio.median) {
        case true?: verdict = .met
        case false?: verdict = .missed
        case nil: verdict = .stated
        }
    }

    static func skipped(_ benchmark: String, _ name: String, events: Int, goal: Goal, because reason: String) -> Figure {
        Figure(benchmark: benchmark, name: name, events: events, ratio: nil, goal: goal, verdict: .skipped, notes: [reason])
    }
}

/// Number formatting for the table: three significant digits, no locale.
enum Format {
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        let magnitude = abs(value)
        if magnitude == 0 { return "0" }
        if magnitude >= 1000 { return String(Int64(value.rounded())) }
        let digits: Int
        switch magnitude {
        case 100...: digits = 0
        case 10...: digits = 1
        case 1...: digits = 2
        case 0.1...: digits = 3
        case 0.01...: digits = 4
        case 0.001...: digits = 5
        default: digits = 7
        }
        return fixed(value, digits: digits)
    }

    /// The shortest decimal form of a goal: `2`, `0.25`, `0.01`.
    static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }

    static func fixed(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = UInt64(scaled / scale)
        var text = String(whole)
        if digits > 0 {
            let fraction = UInt64(scaled - Double(whole) * scale)
            var fractionText = String(fraction)
            while fractionText.count < digits { fractionText = "0" + fractionText }
            text += "." + fractionText
        }
        return value < 0 ? "-" + text : text
    }

    static func bytes(_ count: Int) -> String {
        let value = Double(count)
        let kibibyte = 1024.0
        if value >= kibibyte * kibibyte * kibibyte { return number(value / (kibibyte * kibibyte * kibibyte)) + " GiB" }
        if value >= kibibyte * kibibyte { return number(value / (kibibyte * kibibyte)) + " MiB" }
        if value >= kibibyte { return number(value / kibibyte) + " KiB" }
        return "\(count) B"
    }

    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

/// Runs measurements and collects figures.
///
/// Not `Sendable`: one harness per run, used from the main thread (benchmarks that need threads start their own
/// and join them before returning).
final class Harness {
    /// Timed rounds per comparison (after one discarded warm-up round).
    let rounds: Int
    /// Whether this is the reduced CI mode (tiny sizes; the figures mean nothing).
    let isSmoke: Bool
    /// Where benchmarks put their temporary files (traces, JSONL, databases).
    let scratchDirectory: String
    /// The fold of every measured closure's result; printed in the JSON report.
    var checksum: UInt64 = 0xcbf2_9ce4_8422_2325
    /// Progress lines go to standard error when true.
    let isVerbose: Bool

    init(rounds: Int, isSmoke: Bool, scratchDirectory: String, isVerbose: Bool) {
        self.rounds = rounds
        self.isSmoke = isSmoke
        self.scratchDirectory = scratchDirectory
        self.isVerbose = isVerbose
    }

    /// Writes a progress line to standard error.
    func progress(_ text: String) {
        guard isVerbose else { return }
        FileHandle.standardError.write(Data(("lifetrace-bench: " + text + "\n").utf8))
    }

    /// Times `work` once and returns the elapsed nanoseconds, keeping its result.
    func time(_ work: Work) rethrows -> UInt64 {
        let start = monotonicNanoseconds()
        let value = try work()
        let elapsed = monotonicNanoseconds() - start
        keep(value, in: self)
        return elapsed
    }

    /// One candidate/baseline pair measured over `rounds` rounds, after a discarded warm-up of each.
    struct Comparison {
        /// Candidate nanoseconds per round.
        var candidate: [UInt64]
        /// Baseline nanoseconds per round.
        var baseline: [UInt64]

        /// Per-round `candidate time ÷ baseline time` (for costs: smaller is better).
        var timeRatios: [Double] {
            zip(candidate, baseline).map { Double($0) / Double(max($1, 1)) }
        }

        /// Per-round `baseline time ÷ candidate time`, i.e. candidate throughput ÷ baseline throughput for the
        /// same amount of work (for speeds: larger is better).
        var throughputRatios: [Double] {
            zip(candidate, baseline).map { Double($1) / Double(max($0, 1)) }
        }

        var candidateMedian: Double { Spread(candidate.map { Double($0) }).median }
        var baselineMedian: Double { Spread(baseline.map { Double($0) }).median }
    }

    /// Measures `candidate` and `baseline` in alternating rounds: one warm-up round of each (discarded), then
    /// `rounds` rounds where even rounds run the candidate first and odd rounds the baseline first, so that slow
    /// drifts of a shared machine hit both sides alike.
    func compare(candidate: Work, baseline: Work) throws -> Comparison {
        _ = try time(candidate)
        _ = try time(baseline)
        var result = Comparison(candidate: [], baseline: [])
        for round in 0..<rounds {
            if round % 2 == 0 {
                result.candidate.append(try time(candidate))
                result.baseline.append(try time(baseline))
            } else {
                result.baseline.append(try time(baseline))
                result.candidate.append(try time(candidate))
            }
        }
        return result
    }

    /// Measures a list of sides in alternating rounds (rotating which goes first), one warm-up of each discarded.
    /// Returns nanoseconds per round for each side, in the order given.
    func compare(_ sides: [Side]) throws -> [[UInt64]] {
        func measure(_ side: Side) throws -> UInt64 {
            switch side {
            case .timed(let work): return try time(work)
            case .selfTimed(let work):
                let nanoseconds = try work()
                keep(nanoseconds, in: self)
                return nanoseconds
            }
        }
        for side in sides { _ = try measure(side) }
        var times = Array(repeating: [UInt64](), count: sides.count)
        for round in 0..<rounds {
            for offset in 0..<sides.count {
                let index = (round + offset) % sides.count
                times[index].append(try measure(sides[index]))
            }
        }
        return times
    }

    /// `compare(_:)` for closures the harness times.
    func compare(_ works: [Work]) throws -> [[UInt64]] {
        try compare(works.map { Side.timed($0) })
    }
}
