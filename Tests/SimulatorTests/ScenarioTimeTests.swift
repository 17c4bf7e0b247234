import Testing
import TraceModel

@testable import Simulator

/// Scenario times are read exactly into nanoseconds: before, they went through a `Double`, which holds 53 bits,
/// so a time past 2^53 ns (≈ 104 days) lost its last nanoseconds; a time too large for 64 bits says so.
@Suite("scenario times are exact nanoseconds")
struct ScenarioTimeTests {
    @Test("an 'at' past 2^53 ns keeps its last nanosecond, in seconds, milliseconds and nanoseconds", arguments: [
        "9007199.254740993s", "9007199254.740993ms", "9007199254740993ns", "9007199.254740993",
    ])
    func exactAt(time: String) throws {
        let run = try Run("at 0s launch\nat \(time) background")
        let first = try #require(run.events(from: "background").first)
        #expect(first.timestamp == 9_007_199_254_740_993)
    }

    @Test("a step 'after' a duration past 2^53 ns is exact too (steps start on whole 100 µs here)")
    func exactAfter() throws {
        let run = try Run("at 0s launch\nafter 9007199.254740993s background")
        let background = try #require(run.events.last { event in
            if case .app(let app) = event.payload { return app.transition == .didEnterBackground }
            return false
        })
        #expect(background.timestamp > 9_007_199_254_740_993)
        #expect(background.timestamp % 100_000 == 9_007_199_254_740_993 % 100_000)
    }

    @Test("a time too large for 64-bit nanoseconds is refused at its column, saying so", arguments: [
        ("at 0s launch\nat 18446744074s background", 2, 4, "time '18446744074s' is too large"),
        ("at 0s launch\nafter 1e30 background", 2, 7, "time '1e30' is too large"),
        ("class A\n    viewDidLoad: work label=x duration=307445734.5618258603m", 2, 40, "'duration' of mark 'work' is too large"),
    ] as [(String, Int, Int, String)])
    func tooLarge(text: String, line: Int, column: Int, message: String) throws {
        let error = try #require(ScenarioStrictnessTests.error(text), "accepted: \(text)")
        #expect(error.line == line)
        #expect(error.column == column, "\(error)")
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test("the largest time, 2^64 − 1 ns, is accepted")
    func largest() throws {
        #expect(ScenarioStrictnessTests.error("at 0s launch\nat 18446744073.709551615s background") == nil)
    }
}
