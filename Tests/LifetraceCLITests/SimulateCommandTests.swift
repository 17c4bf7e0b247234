import Foundation
import Testing
import TraceLog
import TraceModel

@testable import LifetraceCLI

@Suite("lifetrace simulate")
struct SimulateCommandTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func scenario(_ name: String) -> String {
        repositoryRoot.appendingPathComponent("traces/scenarios/\(name).scenario").path
    }

    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("simulate-\(UUID().uuidString)-\(name)").path
    }

    static func run(_ arguments: [String]) -> (ExitCode, CapturedOutput) {
        let (output, captured) = CommandOutput.capturing()
        let code = Lifetrace.run(arguments: arguments, output: output)
        return (code, captured)
    }

    @Test("--print shows the cancelled swipe-back, the save nested in viewWillDisappear")
    func printsOrder() {
        let (code, captured) = Self.run(["simulate", Self.scenario("cancelled-swipe-back-save"), "--print"])
        #expect(code == .success)
        let lines = captured.standardOutput.split(separator: "\n").map(String.init)
        let will = lines.firstIndex { $0.hasSuffix("  NoteEditorViewController#3.viewWillDisappear(animated: true)") }
        #expect(will != nil)
        if let will { #expect(lines[will + 1].hasSuffix("    • save key=draft critical=true")) }
        #expect(lines.contains("── line 15: cancel-swipe-back nav"))
        #expect(!captured.standardOutput.contains("NoteEditorViewController#3.viewDidDisappear"))
    }

    @Test("-o records a trace through the recorder; twice gives the same bytes")
    func writesTrace() throws {
        let paths = [Self.temporary("a.lifetrace"), Self.temporary("b.lifetrace")]
        defer { paths.forEach { try? FileManager.default.removeItem(atPath: $0) } }
        for path in paths {
            let (code, captured) = Self.run(["simulate", Self.scenario("push"), "-o", path])
            #expect(code == .success)
            #expect(captured.standardOutput.isEmpty)
        }
        let bytes = try paths.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(bytes[0] == bytes[1])
        let reader = try TraceReader(path: paths[0])
        #expect(reader.isCleanlyClosed)
        #expect(reader.header.producer == "lifetrace simulate")
        var pushes = 0
        try reader.forEachEvent { _, event in
            if case .container(let container) = event.payload, container.operation == .push { pushes += 1 }
        }
        #expect(pushes == 1)
    }

    @Test("--generate N --seed S writes at least N events (plus the run-started event)")
    func generates() throws {
        let path = Self.temporary("generated.lifetrace")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (code, _) = Self.run(["simulate", "--generate", "2000", "--seed", "9", "-o", path])
        #expect(code == .success)
        #expect(try TraceReader(path: path).eventCount > 2000)
    }

    @Test("--generate without -o streams the callback order; with a seed it is reproducible")
    func generatePrints() {
        let (code, first) = Self.run(["simulate", "--generate", "500", "--seed", "4"])
        let (_, second) = Self.run(["simulate", "--generate", "500", "--seed", "4"])
        #expect(code == .success)
        let lines = first.standardOutput.split(separator: "\n")
        #expect(lines.count > 200)
        #expect(lines.first?.hasSuffix("◆ application(_:didFinishLaunchingWithOptions:)") == true)
        #expect(lines.contains { $0.hasSuffix(".viewDidAppear(animated: true)") })
        #expect(first.standardOutput == second.standardOutput)
    }

    @Test("a bad scenario exits 2 naming file and line; an illegal step keeps the events before it")
    func badScenario() throws {
        let scenario = Self.temporary("bad.scenario")
        let trace = Self.temporary("bad.lifetrace")
        defer { [scenario, trace].forEach { try? FileManager.default.removeItem(atPath: $0) } }
        try "at 0s root nav: UINavigationController(a: A)\nat 1s pop nav\n".write(toFile: scenario, atomically: true, encoding: .utf8)
        let (code, captured) = Self.run(["simulate", scenario, "-o", trace])
        #expect(code == .usageOrInput)
        #expect(captured.standardError.contains("\(scenario):2: error: cannot pop"))
        #expect(try TraceReader(path: trace).eventCount > 1)

        try "at 0s psh a: A on nav\n".write(toFile: scenario, atomically: true, encoding: .utf8)
        let (syntaxCode, syntax) = Self.run(["simulate", scenario])
        #expect(syntaxCode == .usageOrInput)
        #expect(syntax.standardError.contains("\(scenario):1:7: error: unknown command 'psh' (did you mean 'push'?)"))
    }

    @Test("usage errors exit 2", arguments: [
        ["simulate"], ["simulate", "x.scenario", "--generate", "10"], ["simulate", "--generate", "0"],
        ["simulate", "--generate", "5", "--seed", "-1"], ["simulate", "x.scenario", "--seed", "3"],
        ["simulate", "/nonexistent/x.scenario"],
    ])
    func usage(arguments: [String]) {
        let (code, captured) = Self.run(arguments)
        #expect(code == .usageOrInput)
        #expect(!captured.standardError.isEmpty)
    }

    @Test("--generate and --seed say whether a value is not a whole number, too large, or 0", arguments: [
        (["--generate", "1e3"], "--generate needs a number of events written as a whole number in digits (e.g. 200000); got '1e3'"),
        (["--generate", "99999999999999999999"], "--generate is too large: at most 9223372036854775807; got '99999999999999999999'"),
        (["--generate", "0"], "--generate needs at least 1 event; got '0'"),
        (["--generate", "5", "--seed", "-1"], "--seed needs a seed written as a whole number in digits (e.g. 200000); got '-1'"),
        (["--generate", "5", "--seed", "18446744073709551616"], "--seed is too large: at most 18446744073709551615; got '18446744073709551616'"),
    ])
    func numberMessages(arguments: [String], message: String) {
        let (code, captured) = Self.run(["simulate"] + arguments)
        #expect(code == .usageOrInput)
        #expect(captured.standardError.contains("lifetrace simulate: error: \(message)"), "\(captured.standardError)")
    }
}
